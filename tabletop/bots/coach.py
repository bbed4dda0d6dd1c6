"""The computer as a coach (issue 27): "what would the computer do?" for a seat that is to act.

Pure: the standard library and ``tabletop.engines`` only, no Django. ``advise`` is the search the
computer itself would run for that seat (``player_for(strength)``: ISMCTS, ``ismcts.py``), ranked,
cut to its first ``count`` moves. The search redeals the state from ``seat``'s view before anything
reads it, so the advice depends on that seat's view only, like the computer's own decisions
(tests/tabletop/bots/test_coach.py proves it for every engine, as test_sight.py does for ``decide``).

The Django side (``tabletop/computer/coach.py``) bounds it in a request: a lowered thread, the
strength's seconds cap, a seed per table, version and seat, and a cache.
"""

from __future__ import annotations

from tabletop.engines import get_engine

from . import player_for
from .ismcts import Ranked

TOP = 3


def advise(game: str, state: dict, seat: int, seed: int | str, count: int = TOP, strength: str = "normal", *,
           iterations: int | None = None, seconds: float | None = None) -> list[Ranked]:
    """The first ``count`` of ``seat``'s legal actions as the search at ``strength`` ranks them, best first,
    each with its visits and its estimated chance to win (None: a single legal action, not searched, or an
    action the budget never tried). ``iterations`` replaces the strength's budget (no time cap unless
    ``seconds``), so the advice depends only on the seat's view and the seed (tests).

    Raises ``BotError`` (with a sentence) when ``seat`` is not to act, ``ValueError`` for an unknown strength.
    """
    return player_for(strength, iterations, seconds).rank(get_engine(game), state, seat, seed)[:count]


def percent(win_chance: float | None) -> int | None:
    """A win chance as the page shows it: a whole percent, or None when the search has none."""
    return None if win_chance is None else round(win_chance * 100)
