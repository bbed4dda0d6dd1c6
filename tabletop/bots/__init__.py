"""Computer players for every game behind the kernel contract (issue 16).

Pure: the standard library and ``tabletop.engines`` only, no Django.

``decide(game, state, seat, strength="normal", seed=0)`` returns one action of
``legal_actions(state)`` for ``seat`` (which must be in ``to_act(state)``): information-set Monte
Carlo tree search (``ismcts.py``) over the engine's ``redeal`` and ``heuristic`` (``common.py``).
The search first redeals the state from ``seat``'s point of view, so it never uses what ``seat``
cannot see (tests/tabletop/bots/test_sight.py proves it for every engine).

A strength is a budget, ``BUDGETS[strength] = (iterations, seconds)``: a decision stops at whichever
comes first. ``decide(..., iterations=n)`` replaces the budget by n iterations and no time cap, so the
decision depends only on the state, the seat and the seed (tests; ``seconds=`` adds a time cap).
``normal`` decides within 1,000 ms at the 95th percentile on one core (bench/bots.py).
"""

from __future__ import annotations

from tabletop.engines import get_engine

from .common import BotError, action_key, heuristic_function, outcome_value, redeal_function
from .ismcts import IsmctsPlayer
from .players import GreedyPlayer, RandomPlayer

STRENGTHS = ("quick", "normal", "strong")

# (iterations cap, seconds cap, playout depth) per strength. About 1-2.5 ms of CPU an iteration at a
# depth of 10 (bench/engine_speed.py), so the seconds cap binds first on a loaded machine. Deeper
# playouts paid at Gridaris (against greedy, 20 games, 0.3 s: depth 0 65 %, 3 72.5 %, 10 95 %, 20 95 %).
BUDGETS: dict[str, tuple[int, float, int]] = {
    "quick": (150, 0.25, 10),
    "normal": (600, 0.8, 12),
    "strong": (3000, 4.0, 16),
}


def player_for(strength: str = "normal", iterations: int | None = None, seconds: float | None = None) -> IsmctsPlayer:
    """The ISMCTS player of a strength; ``iterations`` replaces its budget by that many iterations (and
    no time cap unless ``seconds`` is given)."""
    if strength not in BUDGETS:
        raise ValueError(f"No strength called {strength!r}; known strengths: {', '.join(STRENGTHS)}.")
    cap, time_cap, depth = BUDGETS[strength]
    if iterations is not None:
        cap, time_cap = iterations, seconds
    elif seconds is not None:
        time_cap = seconds
    return IsmctsPlayer(iterations=cap, seconds=time_cap, depth=depth)


def decide(game: str, state: dict, seat: int, strength: str = "normal", seed: int | str = 0, *,
           iterations: int | None = None, seconds: float | None = None) -> dict:
    """One action of ``legal_actions(state)`` for ``seat``, chosen by the computer at ``strength``.

    Raises ``BotError`` (with a sentence) when ``seat`` is not to act or the engine cannot be played
    by the computer, and ``ValueError`` for an unknown strength; ``KeyError`` for an unknown game.
    """
    return player_for(strength, iterations, seconds).choose(get_engine(game), state, seat, seed)


__all__ = ["STRENGTHS", "BUDGETS", "BotError", "decide", "player_for", "IsmctsPlayer", "GreedyPlayer",
           "RandomPlayer", "action_key", "heuristic_function", "outcome_value", "redeal_function"]
