"""Army Rules between battles, a module per subject: the unit catalog (cards.py), commanders and their
rosters (commanders.py), the recruiting offers (offers.py), upkeep and the day end (upkeep.py) and
battles (battles.py).

Money lives in the campaign ledger (``campaign.LedgerEntry``): a commander's treasury is an ``Account``;
nothing here stores a balance. Every model is imported here, so Django finds them all and
``from armies.models import Commander`` keeps working.
"""

from .battles import Battle
from .cards import Path, Role, UnitCard
from .commanders import COMMANDER_ROLES, ArmyUnit, Commander, UnitEvent
from .offers import RecruitOffer
from .upkeep import DayEnd, Settlement, UnitUse

__all__ = [
    "COMMANDER_ROLES",
    "ArmyUnit",
    "Battle",
    "Commander",
    "DayEnd",
    "Path",
    "RecruitOffer",
    "Role",
    "Settlement",
    "UnitCard",
    "UnitEvent",
    "UnitUse",
]
