"""Where the sight tests ask the computer: states of seeded random games where a seat chooses among
several moves (tests/tabletop/bots/test_sight.py for ``decide``, test_coach.py for the coach's ``advise``)."""

from __future__ import annotations

import pytest

from tabletop.bots.common import is_player, seat_actions
from tabletop.engines import ENGINES
from tabletop.engines.kernel import SeededRng

POINTS = 4  # decisions compared per game


def decision_points(engine, seed: int, points: int = POINTS):
    """``points`` states (and a seat with more than one legal action) spread over a seeded random game."""
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    state = engine.setup(engine.random_config(chooser), rng)
    found = []
    for step in range(20000):
        if engine.outcome(state) is not None:
            break
        actions = engine.legal_actions(state)
        seats = [seat for seat in engine.to_act(state) if is_player(seat)]
        if seats and len(seat_actions(actions, seats[-1])) > 1 and chooser.randint(0, 3) == 0:
            found.append((step, state, seats[-1]))
        state = engine.apply(state, chooser.choice(actions), rng)
    if len(found) <= points:
        return found
    stride = len(found) / points
    return [found[int(index * stride)] for index in range(points)]


def redealt_points(engine, label: str):
    """(seed, step, state, the state redealt from the seat's view, seat) at the decision points of two
    seeded games; the two states look the same from that seat (asserted here)."""
    for seed in (1, 2):
        for step, state, seat in decision_points(engine, seed):
            other = engine.redeal(state, seat, SeededRng(f"{label}-{seed}-{step}"))
            assert engine.view(other, seat) == engine.view(state, seat)
            yield seed, step, state, other, seat


def needs_redeal(game: str):
    if not hasattr(ENGINES[game], "redeal"):
        pytest.skip(f"{game}: the engine has no redeal() yet (issue 16, the engine helper adds it)")
    return ENGINES[game]
