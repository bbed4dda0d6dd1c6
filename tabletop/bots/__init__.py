"""Computer players for every game behind the kernel contract (issue 16).

Pure: the standard library and ``tabletop.engines`` only, no Django.

``decide(game, state, seat, strength="normal", seed=0)`` returns one action of
``legal_actions(state)`` for ``seat`` (which must be in ``to_act(state)``): information-set Monte
Carlo tree search (``ismcts.py``) over the engine's ``redeal`` and ``heuristic`` (``common.py``).
The search first redeals the state from ``seat``'s point of view, so it never uses what ``seat``
cannot see (tests/tabletop/bots/test_sight.py proves it for every engine).

A strength is a budget: each engine's iterations for it (its ``SEARCH``, ``search_settings``; the
defaults in ``BUDGETS``) and a seconds cap, ``BUDGETS[strength][1]``: a decision stops at whichever
comes first. ``decide(..., iterations=n)`` replaces the budget by n iterations and no time cap, so the
decision depends only on the state, the seat and the seed (tests; ``seconds=`` adds a time cap).
``normal`` decides within 1,000 ms at the 95th percentile on one core (bench/bots.py).
"""

from __future__ import annotations

from tabletop.engines import get_engine

from .common import (
    DEFAULT_SEARCH,
    BotError,
    action_key,
    heuristic_function,
    outcome_value,
    redeal_function,
    search_settings,
)
from .ismcts import IsmctsPlayer
from .players import GreedyPlayer, RandomPlayer

STRENGTHS = ("quick", "normal", "strong")

# (iterations, seconds cap, playout depth) per strength where an engine names no ``SEARCH`` of its own
# (common.py ``search_settings``). A decision stops at its iterations, or in play at the seconds cap if
# that comes first (a loaded machine); the bench counts iterations only (machine-independent).
BUDGETS: dict[str, tuple[int, float, int]] = {
    strength: (DEFAULT_SEARCH["iterations"][strength], seconds, DEFAULT_SEARCH["depth"][strength])
    for strength, seconds in (("quick", 0.25), ("normal", 0.8), ("strong", 4.0))
}


def player_for(strength: str = "normal", iterations: int | None = None, seconds: float | None = None, *,
               capped: bool = True) -> IsmctsPlayer:
    """The ISMCTS player of a strength: each engine's iterations, depth and exploration for it
    (``search_settings``) and the strength's seconds cap; ``capped=False`` drops the cap (the bench).
    ``iterations`` replaces the iterations (and no time cap unless ``seconds`` is given)."""
    if strength not in BUDGETS:
        raise ValueError(f"No strength called {strength!r}; known strengths: {', '.join(STRENGTHS)}.")
    time_cap = BUDGETS[strength][1] if capped else None
    if iterations is not None or seconds is not None:
        time_cap = seconds
    return IsmctsPlayer(iterations=iterations, seconds=time_cap, depth=None, exploration=None, strength=strength)


def decide(game: str, state: dict, seat: int, strength: str = "normal", seed: int | str = 0, *,
           iterations: int | None = None, seconds: float | None = None) -> dict:
    """One action of ``legal_actions(state)`` for ``seat``, chosen by the computer at ``strength``.

    Raises ``BotError`` (with a sentence) when ``seat`` is not to act or the engine cannot be played
    by the computer, and ``ValueError`` for an unknown strength; ``KeyError`` for an unknown game.
    """
    return player_for(strength, iterations, seconds).choose(get_engine(game), state, seat, seed)


__all__ = ["STRENGTHS", "BUDGETS", "BotError", "decide", "player_for", "IsmctsPlayer", "GreedyPlayer",
           "RandomPlayer", "action_key", "search_settings", "heuristic_function", "outcome_value", "redeal_function"]
