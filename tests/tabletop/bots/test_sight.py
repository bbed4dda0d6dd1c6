"""The computer decides from its own seat's view only (issue 16), for every registered engine.

At several points of seeded random games, ``decide`` with an iteration budget gives the same action
for the state and for the state redealt from the deciding seat's view (other hidden cards, the same
view), and the action is legal. A game whose engine has no ``redeal`` yet is skipped with the reason.
"""

from __future__ import annotations

import pytest

from tabletop.bots import GreedyPlayer, RandomPlayer, decide, player_for
from tabletop.bots.common import seat_actions
from tabletop.engines import ENGINES

from tests.tabletop.bots._points import POINTS, decision_points, needs_redeal, redealt_points

ITERATIONS = 24


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_decision_depends_only_on_the_seats_view(game):
    engine = needs_redeal(game)
    compared = differed = 0
    for seed, step, state, other, seat in redealt_points(engine, "other"):
        differed += other != state
        chosen = decide(game, state, seat, seed=step, iterations=ITERATIONS)
        assert chosen in seat_actions(engine.legal_actions(state), seat)
        assert decide(game, other, seat, seed=step, iterations=ITERATIONS) == chosen, (seed, step)
        compared += 1
    assert compared >= POINTS
    assert differed, f"{game}: no compared state had a hidden part to redeal"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_kind_of_player_returns_a_legal_action(game):
    engine = needs_redeal(game)
    players = [RandomPlayer(), GreedyPlayer(), player_for("quick", iterations=8)]
    for step, state, seat in decision_points(engine, 3, points=3):
        legal = seat_actions(engine.legal_actions(state), seat)
        for player in players:
            assert player.choose(engine, state, seat, step) in legal, player.name
