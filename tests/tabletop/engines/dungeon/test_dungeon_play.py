"""Dungeon play-throughs: invariants after every action, no card lost or doubled, determinism, simulate."""

from collections import Counter

import pytest

from tabletop.engines import get_engine
from tabletop.engines.dungeon import checks, start
from tabletop.engines.kernel import GM, IllegalAction, SeededRng, digest
from tabletop.engines.simulate import SimulationReport, play_one, simulate

engine = get_engine("dungeon")


def play(seed, config=None, limit=5000):
    rng, chooser = SeededRng(seed), SeededRng(f"c{seed}")
    state = engine.setup(config or engine.random_config(chooser), rng)
    total = state["card_count"]
    for _ in range(limit):
        if engine.outcome(state):
            break
        cards = start.all_cards(state)
        assert len(cards) == total and not [c for c, n in Counter(cards).items() if n > 1]
        assert checks.invariants(state) == []
        state = engine.apply(state, chooser.choice(engine.legal_actions(state)), rng)
    return state


@pytest.mark.parametrize("config", [
    {"players": ["A", "B"], "variant": "pairs", "mode": "competitive"},
    {"players": ["A", "B"], "variant": "singles"},
    {"players": ["A", "B", "C"], "mode": "competitive"},
    {"players": ["A", "B", "C", "D"], "mode": "cooperative"},
    {"players": ["A", "B", "C"], "deck_master": True},
    {"players": ["A", "B", "C", "D", "E"], "deck_master": True},
])
def test_random_games_of_every_type_keep_every_card_and_end(config):
    state = play(7, config)
    result = engine.outcome(state)
    assert result is not None and result["reason"]
    assert len(start.all_cards(state)) == state["card_count"]


def test_the_same_seed_plays_the_same_game():
    assert digest(play(3)) == digest(play(3))
    assert digest(play(3)) != digest(play(4))


def test_a_deck_master_decides_for_the_monsters():
    rng, chooser = SeededRng(2), SeededRng("dm")
    state = engine.setup({"players": list("ABCDE"), "deck_master": True}, rng)
    seen = set()
    for _ in range(3000):
        if engine.outcome(state):
            break
        if state["pending"] and state["pending"]["type"] in ("place_monster", "monster_move", "target",
                                                             "next_monster"):
            assert engine.to_act(state) == [4]
            seen.add(state["pending"]["type"])
        state = engine.apply(state, chooser.choice(engine.legal_actions(state)), rng)
    assert {"place_monster", "monster_move", "target"} <= seen


def test_a_seat_only_sees_its_own_hands_and_nobody_sees_a_deck():
    state = engine.setup({"players": ["A", "B", "C"]}, SeededRng(5))
    view = engine.view(state, 0)
    assert view["mercs"][0]["hand"] is not None and view["mercs"][1]["hand"] is None
    assert engine.view(state, None)["mercs"][0]["hand"] is None
    assert all(m["hand"] is not None for m in engine.view(state, GM)["mercs"])
    hidden = set(engine.hidden_from(state, 0))
    assert set(state["mercs"][1]["hand"]) <= hidden and not set(state["mercs"][0]["hand"]) & hidden


def test_another_seat_cannot_act_for_the_acting_seat():
    state = engine.setup({"players": ["A", "B", "C"]}, SeededRng(5))
    action = engine.legal_actions(state)[0]
    other = next(s for s in range(3) if s != action["seat"])
    with pytest.raises(IllegalAction):
        engine.apply(state, {**action, "seat": other}, SeededRng(0))


def test_play_one_reports_no_violation_for_a_few_checked_games():
    report = SimulationReport(game="dungeon")
    for seed in (21, 22):
        play_one(engine, seed, report, check=True)
    assert report.violations == []


@pytest.mark.soak
def test_simulate_30_games_without_a_violation():
    report = simulate("dungeon", 30, 1)
    assert report.violations == [] and report.games == 30
