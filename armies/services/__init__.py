"""Army services: every write to commanders, rosters, offers, training and battles.

One module per subject (``commanders``, ``recruiting``, ``training``, ``battles``;
``upkeep`` settles the day). Import the functions from their module; this package
only defines the error every service raises for a refused action.
"""

from __future__ import annotations


class ArmyError(ValueError):
    """An action the rules refuse; the message is a sentence for the player or GM."""
