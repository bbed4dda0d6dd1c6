"""The kernel contract for Gridaris: refusals, purity, JSON, views, play-throughs, determinism."""

import copy
import json
import random

import pytest

from tabletop.engines import gridaris
from tabletop.engines.gridaris.testing import card, place, state_with
from tabletop.engines.kernel import GM, IllegalAction, SeededRng, canonical_json, digest, round_trip
from tabletop.engines.simulate import simulate

ANN, BEN = 0, 1

VIEW_KEYS = {"game", "viewer", "phase", "to_act", "to_act_names", "turn_text", "players", "hand", "scenarios",
             "headstand_classes", "map", "grid", "playable_cards", "playable_cells", "choices", "events", "score"}
CELL_KEYS = {"key", "label", "card", "owner", "modifier", "covered", "last_played", "captured_last"}


def midgame():
    cards = [card("mine", "5555", name="Mine"), card("theirs", "5555", name="Theirs"), card("spare", "5555")]
    return state_with(cards=cards, hands={ANN: ["mine"], BEN: ["theirs"]}, board={"1,1": ("spare", BEN)})


@pytest.mark.parametrize("action, message", [
    ({"type": "place", "seat": BEN, "card": "theirs", "cell": "0,0"}, "It is Ann's turn, not yours."),
    ({"type": "place", "seat": ANN, "card": "theirs", "cell": "0,0"}, "That card is not in your hand."),
    ({"type": "place", "seat": ANN, "card": "nope", "cell": "0,0"}, "That card is not in your hand."),
    ({"type": "place", "seat": ANN, "card": "mine", "cell": "1,1"}, "The battlefield B2 is already occupied."),
    ({"type": "place", "seat": ANN, "card": "mine", "cell": "4,0"}, "There is no battlefield at A5 on this map."),
    ({"type": "place", "seat": ANN, "card": "mine", "cell": "middle"}, "is not a battlefield; battlefields are"),
    ({"type": "place", "seat": ANN, "card": "mine"}, "None is not a battlefield"),
    ({"type": "place", "seat": 7, "card": "mine", "cell": "0,0"}, "There is no seat 7 at this table."),
    ({"type": "place", "seat": "Ann", "card": "mine", "cell": "0,0"}, "'Ann' is not a seat number."),
    ({"type": "place", "card": "mine", "cell": "0,0"}, "None is not a seat number."),
    ({"type": "place", "seat": GM, "card": "mine", "cell": "0,0"}, "Say which player's seat this move is for"),
    ({"type": "order", "seat": ANN, "go": "first"}, "There is no Reinforcement order to choose now."),
    ({"type": "map", "seat": GM, "map": "tremor"}, "The map has already been chosen."),
    ({"type": "dance", "seat": ANN}, "Unknown action type 'dance'"),
    ({"seat": ANN}, "Unknown action type None"),
])
def test_illegal_actions_are_refused_with_a_clear_sentence(action, message):
    with pytest.raises(IllegalAction, match=message.replace("(", r"\(")):
        gridaris.apply(midgame(), action, SeededRng(0))


def test_a_non_dict_action_is_refused():
    with pytest.raises(IllegalAction, match="An action must be a set of fields"):
        gridaris.apply(midgame(), "place", SeededRng(0))


def test_form_strings_are_accepted_for_seat_and_cell():
    after = gridaris.apply(midgame(), {"type": "place", "seat": "0", "card": "mine", "cell": " 0, 0 "}, SeededRng(0))
    assert after["board"]["0,0"]["stack"] == ["mine"]


def test_apply_never_mutates_its_input_even_when_refusing():
    state = midgame()
    frozen = copy.deepcopy(state)
    place(state, ANN, "mine", "1,0")
    with pytest.raises(IllegalAction):
        place(state, ANN, "mine", "1,1")
    assert state == frozen


def test_illegal_examples_are_all_refused():
    for state in (midgame(), gridaris.setup(gridaris.starter_config(["A", "B"], "enhanced", ["tremor", "earthquake"]),
                                            SeededRng(0))):
        examples = gridaris.illegal_examples(state)
        assert len(examples) >= 5
        for example in examples:
            with pytest.raises(IllegalAction):
                gridaris.apply(state, example, SeededRng(0))


def test_views_have_the_template_keys():
    state = place(midgame(), ANN, "mine", "1,0")
    for viewer in (ANN, BEN, GM, None):
        shown = gridaris.view(state, viewer)
        assert VIEW_KEYS <= set(shown)
        assert all(CELL_KEYS == set(cell) for row in shown["grid"] for cell in row)
        assert shown["viewer"] == viewer and shown["to_act_names"] == ["Ben"]
        assert shown["turn_text"] == "Ben to play"
    cell = gridaris.view(state, None)["grid"][1][0]
    assert (cell["label"], cell["owner"], cell["last_played"], cell["card"]["edges"]["top"]) == ("A2", ANN, True, "5")
    assert gridaris.view(state, None)["events"][-1] == "Ann plays Mine on A2."


def test_only_the_acting_seat_or_the_gm_get_playable_lists():
    state = midgame()
    mine, theirs, gm, public = (gridaris.view(state, viewer) for viewer in (ANN, BEN, GM, None))
    assert mine["playable_cards"] == ["mine"] and len(mine["playable_cells"]) == 15
    assert gm["playable_cards"] == ["mine"] and gm["playable_cells"] == mine["playable_cells"]
    assert theirs["playable_cards"] == [] and theirs["playable_cells"] == []
    assert public["playable_cards"] == [] and public["hand"] == [] and public["choices"] == []
    assert all(player["hand"] is None for player in public["players"])
    assert [c["id"] for c in mine["hand"]] == ["mine"] and gm["hand"] == []
    assert [[c["id"] for c in p["hand"]] for p in gm["players"]] == [["mine"], ["theirs"]]


def test_state_and_views_survive_a_json_round_trip():
    state = place(midgame(), ANN, "mine", "1,0")
    assert round_trip(state) == state
    assert json.loads(canonical_json(gridaris.view(state, ANN))) == gridaris.view(state, ANN)


def test_seeded_random_play_throughs_hold_every_invariant():
    report = simulate("gridaris", games=200, seed=1)
    assert report.games == 200
    assert report.violations == []


def _transcript(seed, disturb):
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    state = gridaris.setup(gridaris.random_config(chooser), rng)
    digests = [digest(state)]
    while gridaris.outcome(state) is None:
        if disturb:
            random.seed(len(digests))
            random.random()
        state = gridaris.apply(state, chooser.choice(gridaris.legal_actions(state)), rng)
        digests.append(digest(state))
    return digests, gridaris.outcome(state)


@pytest.mark.parametrize("seed", [3, 17, 42])
def test_same_seed_same_transcript_even_with_the_global_random_disturbed(seed):
    calm = _transcript(seed, disturb=False)
    assert calm == _transcript(seed, disturb=True)
    assert calm[0] != _transcript(seed + 1000, disturb=False)[0]


def test_random_configs_cover_the_modes_and_all_set_up():
    rng = SeededRng(5)
    configs = [gridaris.random_config(rng) for _ in range(150)]
    assert {c["mode"] for c in configs} == {"standard", "enhanced"}
    assert {len(c["players"]) for c in configs} == {2, 3, 4, 5}
    assert any(c.get("map") for c in configs) and any("scenarios" not in c and c["mode"] == "enhanced"
                                                      for c in configs)
    for config in configs:
        assert gridaris.invariants(gridaris.setup(config, SeededRng(1))) == []


def test_invariants_notice_a_lost_card_and_a_stranger_owner():
    state = midgame()
    state["hands"][ANN].remove("mine")
    state["board"]["1,1"]["owner"] = 9
    problems = gridaris.invariants(state)
    assert "card mine is in 0 places" in problems
    assert "battlefield 1,1 has owner 9" in problems
