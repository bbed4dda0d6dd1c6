"""The kernel contract for Mercenarium: play-throughs, the 71 cards, secrets, determinism, JSON."""

import random
from collections import Counter

import pytest

from tabletop.engines import ENGINES, mercenarium
from tabletop.engines.kernel import GM, PUBLIC, SeededRng, canonical_json, digest, round_trip
from tabletop.engines.mercenarium.checks import places
from tabletop.engines.mercenarium.testing import state_with
from tabletop.engines.simulate import SimulationReport, check_state, play_one, simulate


def test_registered():
    assert ENGINES["mercenarium"] is mercenarium


@pytest.mark.soak
def test_two_hundred_random_games_without_a_single_violation():
    report = simulate("mercenarium", 200, 1)
    assert report.violations == []
    assert report.games == 200


def test_simulate_reports_a_game_not_over_where_nobody_can_act():
    """A pending Primary choice with nothing to keep (issue 36) must not pass simulate's checks unnoticed."""
    state = state_with(hands={0: ["H13"], 1: []})
    state["hymnal"].remove("H02")
    state["pending"] = {"seat": 0, "kind": "primary", "options": ["H02"]}
    assert mercenarium.outcome(state) is None and not mercenarium.legal_actions(state)
    assert any("nobody can act" in problem for problem in check_state(mercenarium, state, "here"))
    state["pending"] = None
    state["hymnal"].append("H02")
    assert not check_state(mercenarium, state, "here")


def test_the_71_cards_are_always_in_exactly_one_place_through_random_play():
    reasons = Counter()
    for seed in range(6):
        rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
        state = mercenarium.setup(mercenarium.random_config(chooser), rng)
        while mercenarium.outcome(state) is None:
            before = canonical_json(state)
            following = mercenarium.apply(state, chooser.choice(mercenarium.legal_actions(state)), rng)
            assert canonical_json(state) == before, "apply never mutates its input"
            found = places(following)
            assert sum(found.values()) == 71 and set(found.values()) == {1}
            assert mercenarium.invariants(following) == []
            state = following
        reasons[mercenarium.outcome(state)["reason"].split(":")[0]] += 1
    assert sum(reasons.values()) == 6


def test_the_same_seed_gives_the_same_game_even_when_global_random_is_disturbed():
    def transcript(seed):
        random.seed(seed)
        report = SimulationReport(game="mercenarium")
        state = play_one(mercenarium, seed, report, check=False)
        random.random()
        return digest(state), report.actions

    assert transcript(3) == transcript(3)
    assert transcript(3) != transcript(4)


def test_views_hide_the_deck_the_hymnal_and_other_hands():
    state = mercenarium.setup(mercenarium.starter_config(["Ann", "Ben", "Cid"]), SeededRng(2))
    for seat in (0, 1, 2, PUBLIC):
        view = mercenarium.view(state, seat)
        assert round_trip(view) == view
        text = canonical_json(view)
        for hidden in mercenarium.hidden_from(state, seat):
            assert f'"{hidden}"' not in text
    assert mercenarium.view(state, GM)["players"][1]["hand"]
    assert mercenarium.view(state, 0)["players"][1]["hand"] is None


def test_the_player_to_move_sees_threats_and_legal_squares_and_others_do_not():
    from tabletop.engines.mercenarium.testing import state_with

    state = state_with(hands={0: ["C09"]}, board={"3,3": ("G08", 0), "2,3": ("B02", 1)})
    grid = mercenarium.view(state, 0)["grid"]
    assert grid[2][3]["threatened"] and grid[3][2]["reachable"] and grid[6][3]["reachable"]
    assert grid[2][3]["card"]["dots"] == {"n": 1, "e": 0, "s": 1, "w": 2}  # Ben's B02 [1, 2, 1, 0] turned to face north
    assert mercenarium.view(state, 1)["choices"] == []
    others = mercenarium.view(state, 1)["grid"]
    assert others[2][3]["threatened"] and others[3][2]["reachable"], "moves of cards in play are public"
    assert not others[6][3]["reachable"], "where a hand's cards may be summoned would tell about the hand"
    assert not any(cell["go"] or cell["pick"] for row in others for cell in row)


def test_the_squares_list_the_board_actions_that_end_on_them_by_what_is_tapped_first():
    from tabletop.engines.mercenarium.testing import state_with

    state = state_with(hands={0: ["C09"]}, board={"3,3": ("G08", 0), "2,3": ("B02", 1)})
    view = mercenarium.view(state, 0)
    board_actions = [a for a in mercenarium.legal_actions(state) if a["type"] in ("summon", "move", "capture")]
    listed = [(go["source"], {k: v for k, v in go["choice"].items() if k != "label"})
              for row in view["grid"] for cell in row for go in cell["go"]]
    assert sorted(map(str, (a for _, a in listed))) == sorted(map(str, board_actions))
    assert all(go["choice"]["to"] == cell["key"] for row in view["grid"] for cell in row for go in cell["go"])
    assert {source for source, _ in listed} == {"card:C09", "cell:3,3"}
    assert view["grid"][3][3]["pick"] and not view["grid"][2][3]["pick"]
    assert [card["pick"] for card in view["hand"]] == [True]
    assert [g["choice"]["type"] for g in view["grid"][2][3]["go"]] == ["capture"]
