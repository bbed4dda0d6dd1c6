"""The coach's pure part (tabletop/bots/coach.py, issue 27): the search's top moves for a seat to act,
from that seat's view only, for every registered engine (the sight test of ``decide``, test_sight.py,
asked of ``advise``); and each move named from that seat's view (``move_names.own_move_label``) never
names a card hidden from it."""

from __future__ import annotations

import pytest

from tabletop.bots import BotError
from tabletop.bots.coach import advise, percent
from tabletop.bots.common import action_key, is_player, seat_actions
from tabletop.engines import ENGINES
from tabletop.engines.kernel import SeededRng
from tabletop.move_names import own_move_label

from tests.cards import names_a_secret
from tests.tabletop.bots._points import POINTS, decision_points, needs_redeal, redealt_points

ITERATIONS = 24


def table(ranked) -> list[tuple]:
    return [(action_key(entry.action), entry.visits, entry.win_chance) for entry in ranked]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_advice_depends_only_on_the_seats_view(game):
    """The same three moves with the same chances for the state and for it redealt from the seat's view."""
    engine = needs_redeal(game)
    compared = differed = 0
    for seed, step, state, other, seat in redealt_points(engine, "coach-other"):
        differed += other != state
        advice = advise(game, state, seat, seed=step, iterations=ITERATIONS)
        legal = seat_actions(engine.legal_actions(state), seat)
        assert 1 <= len(advice) <= 3 and all(entry.action in legal for entry in advice)
        assert len({action_key(entry.action) for entry in advice}) == len(advice)
        assert table(advise(game, other, seat, seed=step, iterations=ITERATIONS)) == table(advice), (seed, step)
        compared += 1
    assert compared >= POINTS
    assert differed, f"{game}: no compared state had a hidden part to redeal"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_no_move_is_named_by_a_card_hidden_from_the_seat(game):
    """Every legal move of the seat, named as the coach names it, names no card that seat cannot see."""
    engine = ENGINES[game]
    named = 0
    for seed in (1, 2, 3):
        for _step, state, seat in decision_points(engine, seed, points=4):
            view = engine.view(state, seat)
            for action in seat_actions(engine.legal_actions(state), seat):
                label = own_move_label(view, action)
                assert label.strip()
                assert names_a_secret(engine, state, seat, label) is None, (seed, label)
                named += 1
    assert named


def test_the_advice_is_the_searchs_ranking_cut_to_three_best_first_and_the_same_for_the_same_seed():
    engine = ENGINES["gridaris"]
    _step, state, seat = decision_points(engine, 4)[0]
    advice = advise("gridaris", state, seat, seed="s", iterations=60)
    assert len(advice) == 3 < len(seat_actions(engine.legal_actions(state), seat))
    assert [entry.visits for entry in advice] == sorted((entry.visits for entry in advice), reverse=True)
    assert all(0 <= entry.win_chance <= 1 for entry in advice)
    assert table(advise("gridaris", state, seat, seed="s", iterations=60)) == table(advice)
    assert len(advise("gridaris", state, seat, seed="s", count=5, iterations=60)) == 5


def test_a_single_legal_move_is_advised_without_a_search():
    game, state, seat = one_move_state()
    [only] = advise(game, state, seat, seed=1, iterations=ITERATIONS)
    assert only.visits == 0 and only.win_chance is None and percent(only.win_chance) is None


def one_move_state():
    """A game, a state and a seat to act there with exactly one legal move (in a seeded random game)."""
    for game in sorted(ENGINES):
        engine = ENGINES[game]
        rng, chooser = SeededRng(9), SeededRng("one-move")
        state = engine.setup(engine.random_config(chooser), rng)
        for _ in range(5000):
            if engine.outcome(state) is not None:
                break
            for seat in (seat for seat in engine.to_act(state) if is_player(seat)):
                if len(seat_actions(engine.legal_actions(state), seat)) == 1:
                    return game, state, seat
            state = engine.apply(state, chooser.choice(engine.legal_actions(state)), rng)
    pytest.fail("no state with a single legal move")


def test_a_seat_not_to_act_is_refused_with_a_sentence():
    engine = ENGINES["gridaris"]
    _step, state, seat = decision_points(engine, 4)[0]
    other = next(index for index in range(len(state["players"])) if index not in engine.to_act(state))
    with pytest.raises(BotError, match="not to act"):
        advise("gridaris", state, other, seed=1, iterations=ITERATIONS)


def test_a_win_chance_is_shown_as_a_whole_percent():
    assert [percent(value) for value in (0.0, 0.504, 0.5051, 1.0, None)] == [0, 50, 51, 100, None]
