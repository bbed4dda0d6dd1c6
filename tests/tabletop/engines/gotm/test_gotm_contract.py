"""The kernel contract for GOT'M: play-throughs, secrets, refusals, determinism, JSON."""

import copy
import random

import pytest

from tabletop.engines import gotm
from tabletop.engines.gotm.testing import ANN, BEN, act, state_with
from tabletop.engines.kernel import GM, PUBLIC, IllegalAction, SeededRng, canonical_json, digest, round_trip
from tabletop.engines.simulate import SimulationReport, play_one, simulate


@pytest.mark.soak
def test_three_hundred_random_games_without_a_single_violation():
    report = simulate("gotm", games=300, seed=1)
    assert report.violations == []
    assert report.games == 300


def test_every_card_is_always_in_exactly_one_place_through_random_play():
    rng, chooser = SeededRng(42), SeededRng("choices")
    state = gotm.setup({"players": ["Ann", "Ben"]}, rng)
    steps = 0
    while gotm.outcome(state) is None:
        before = canonical_json(state)
        state_next = gotm.apply(state, chooser.choice(gotm.legal_actions(state)), rng)
        assert canonical_json(state) == before, "apply never mutates its input"
        assert gotm.invariants(state_next) == []
        assert round_trip(state_next) == state_next
        state, steps = state_next, steps + 1
    assert steps > 20 and set(gotm.outcome(state)) >= {"winners", "scores", "reason"}


def test_the_same_seed_gives_the_same_game_even_when_global_random_is_disturbed():
    def transcript(seed):
        random.seed(seed)
        report = SimulationReport(game="gotm")
        state = play_one(gotm, seed, report, check=False)
        random.random()
        return digest(state), report.actions

    assert transcript(7) == transcript(7)
    assert transcript(7) != transcript(8)


def test_a_seat_never_sees_the_other_hand_nor_the_piles():
    state = gotm.setup({"players": ["Ann", "Ben"]}, SeededRng(3))
    for seat in (ANN, BEN, PUBLIC):
        hidden = set(gotm.hidden_from(state, seat))
        for other in (ANN, BEN):
            hand_hidden = set(state["hands"][other]) <= hidden
            assert hand_hidden is (other != seat)
        assert set(state["camp"] + state["bank"] + state["merchant"]) <= hidden
        assert gotm.view(state, seat)["players"][1 - seat if seat is not None else 0]["hand"] is None
    assert gotm.hidden_from(state, GM) == []
    assert gotm.view(state, GM)["players"][BEN]["hand"]


def test_choices_are_the_legal_actions_of_the_seat_with_labels():
    state = state_with(hands={ANN: ["10C", "2C", "JD"], BEN: ["QH"]}, shop=["JC"])
    choices = gotm.view(state, ANN)["choices"]
    assert [{k: v for k, v in c.items() if k != "label"} for c in choices] == gotm.legal_actions(state)
    assert choices[0]["label"] == "Hire Gnoll Brute (J♣) with 2♣ 10♣ (1 lost)"
    assert gotm.view(state, BEN)["choices"] == [] and gotm.view(state, PUBLIC)["choices"] == []
    assert gotm.view(state, GM)["choices"] == choices


@pytest.mark.parametrize("action, message", [
    ({"type": "teleport", "seat": ANN}, "Unknown action type 'teleport'"),
    ({"type": "skip", "seat": 5}, "There is no seat 5"),
    ({"type": "skip", "seat": "Ann"}, "'Ann' is not a seat number"),
    ({"type": "skip", "seat": GM}, "Say which player's seat"),
    ({"type": "attack", "seat": ANN, "attacker": 0, "target": 0, "cleave": None}, "You cannot attack now"),
    ({"type": "hire", "seat": ANN, "card": "QS", "pay": ["10C", "2C"]}, "That mercenary is not in the shop"),
])
def test_illegal_actions_are_refused_with_a_sentence(action, message):
    state = state_with(hands={ANN: ["10C", "2C", "JD"], BEN: ["QH"]}, shop=["JC"])
    frozen = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=message):
        gotm.apply(state, action, SeededRng(0))
    assert state == frozen


def test_a_form_string_seat_is_accepted_and_the_game_over_refuses_everything():
    state = state_with(hands={ANN: ["JD"], BEN: ["QH"]}, shop=["JC"])
    assert gotm.apply(state, {"type": "skip", "seat": "0"}, SeededRng(0))["turn"] == BEN
    over = act(state_with(hands={ANN: ["JD"]}), "done", ANN)
    with pytest.raises(IllegalAction, match="The game is over"):
        act(over, "skip", BEN)


def test_views_are_json_for_every_viewer_in_every_phase():
    rng, chooser = SeededRng(9), SeededRng("views")
    state = gotm.setup({"players": ["Ann", "Ben"], "series_game": 1}, rng)
    phases = set()
    while gotm.outcome(state) is None:
        phases.add(state["phase"])
        for seat in (ANN, BEN, GM, PUBLIC):
            view = gotm.view(state, seat)
            assert round_trip(view) == view
        state = gotm.apply(state, chooser.choice(gotm.legal_actions(state)), rng)
    assert phases == {"recruit", "squad", "equip", "combat"} or phases >= {"recruit", "squad", "combat"}
