"""Computer players for every game behind the kernel contract (issue 16).

Pure: the standard library and ``tabletop.engines`` only, no Django.

``decide(game, state, seat, strength, seed)`` returns one of ``legal_actions(state)`` for
``seat``. It first redeals the state from ``seat``'s point of view (the engine's ``redeal``),
so it never uses what ``seat`` cannot see.
"""

from __future__ import annotations

from tabletop.engines import get_engine
from tabletop.engines.kernel import SeededRng

STRENGTHS = ("quick", "normal", "strong")


def decide(game: str, state: dict, seat: int, strength: str = "normal", seed: int | str = 0) -> dict:
    """One legal action for ``seat`` (first version: a seeded random legal action)."""
    if strength not in STRENGTHS:
        raise ValueError(f"No strength called {strength!r}; known strengths: {', '.join(STRENGTHS)}.")
    engine = get_engine(game)
    actions = [action for action in engine.legal_actions(state) if action.get("seat") == seat]
    if not actions:
        raise ValueError(f"Seat {seat} has no legal action now.")
    if len(actions) == 1:
        return actions[0]
    return SeededRng(f"decide-{seed}").choice(actions)


__all__ = ["STRENGTHS", "decide"]
