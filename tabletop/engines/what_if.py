"""A players' what-if dealt anew: the one place a redeal is followed by what the rules decide again.

A what-if the GM opens for the players (services/forks.py, ruling WI10) starts from the state at its
fork point with the cards none of its seats could see dealt anew (the ``redeal`` of the engine's spec). The rules
decided some things on the old cards without anybody moving: GOT'M ends the game when the player to
shop has no mercenary and can pay for none (M4), an Army commander with no playable unit is Unable and
the other takes the turn. On the new cards those must be decided again, or the what-if waits for a
move nobody can make, or asks for one the rules forbid (issue 36). So ``deal_what_if`` checks that each
seat sees what it saw, then hands the new deal to its spec's ``settle`` (the contract, kernel.py and spec.py),
which runs the same code the engine's ``apply`` runs after a move (ruling WI13).

Both callers go through here: the fork service and ``simulate``'s what-if check, so what ``simulate``
checks on thousands of random what-ifs is what a table gets.
"""

from __future__ import annotations

from .kernel import IllegalAction, State
from .words import gettext_noop


class SightChanged(IllegalAction):
    """A redeal that changed what one of its seats sees: no what-if may be made of it."""

    def __init__(self, seats: list):
        super().__init__(
            gettext_noop("The cards could not be dealt anew without changing what a seat sees: nothing was made."))
        self.seats = seats


def deal_what_if(engine, state: State, seats: list, rng) -> State:
    """``state`` with the cards none of ``seats`` could see dealt anew and then settled (module doc).

    Raises ``SightChanged`` when a seat would see something else than it saw; ``state`` is never changed.
    """
    spec = engine.SPEC  # the caller has checked that it can redeal (spec.py)
    dealt = spec.redeal(state, list(seats), rng)
    changed = [seat for seat in seats if engine.view(dealt, seat) != engine.view(state, seat)]
    if changed:
        raise SightChanged(changed)
    return spec.settle(dealt, rng)
