"""Army services: every write to commanders, rosters, offers, training and battles.

One module per subject (``commanders``, ``recruiting``, ``training``, ``battles``;
``upkeep`` settles the day). Import the functions from their module; this package
only defines the error every service raises for a refused action.
"""

from __future__ import annotations

from muster.refusals import Refusal, Stale


class ArmyError(Refusal):
    """An action the rules refuse; the message is a sentence for the player or GM."""


class StaleForm(ArmyError, Stale):
    """The page a form came from showed a state that has changed since (CONVENTIONS 14b): nothing was written.

    A service raises it after locking the row it compares, so what it refused is what the row holds; the
    sentence names the new state, and the page the view answers with shows it.
    """
