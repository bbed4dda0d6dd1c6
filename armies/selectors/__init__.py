"""The armies app's reads, a module per subject: rosters.py (commanders, rosters, treasuries, roster
sheets), offers.py (the recruiting offers), training.py (what can be trained now), battles.py (the battle
pages) and luck.py (the luck reports of finished battles).

The roster, offer and training reads are the commander pages' own and are named here too, so a view reads
``selectors.roster(commander)``; the battle and luck reads are imported by their module.
"""

from .offers import offers_affordable, offers_all, offers_open, unit_catalog_empty
from .rosters import (
    RosterLine,
    RosterSheet,
    Treasury,
    commanders_for,
    roster,
    roster_book,
    roster_on_day,
    roster_sheet,
    treasury,
)
from .training import TrainingOption, training_options

__all__ = [
    "RosterLine",
    "RosterSheet",
    "TrainingOption",
    "Treasury",
    "commanders_for",
    "offers_affordable",
    "offers_all",
    "offers_open",
    "roster",
    "roster_book",
    "roster_on_day",
    "roster_sheet",
    "treasury",
    "training_options",
    "unit_catalog_empty",
]
