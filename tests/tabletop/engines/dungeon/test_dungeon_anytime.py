"""Acquiring, ability cards and blue boxes "at any time", and the last chance at the end of the turn."""

import pytest

from tabletop.engines.dungeon import actions, combat, flow, scoring, seat_view
from tabletop.engines.dungeon.checks import illegal_examples, invariants
from tabletop.engines.dungeon.testing import act, arranged, fresh
from tabletop.engines.kernel import GM, IllegalAction, SeededRng


def free(state, seat=None):
    return [a for a in actions.legal_actions(state) if a["type"] in ("acquire", "ability", "blue")
            and (seat is None or a["seat"] == seat)]


def orc_attacks_merc_0(**kwargs):
    """The monster turn, waiting for mercenary 0 to defend against an orc."""
    state = arranged(monsters=[("orc", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)], **kwargs)
    state["mstep"] = {"steps": ["melee_attack"], "todo": [], "group": "Orc"}
    state.update(phase="monsters", current=None, order=[])
    combat.monster_attacks(state, state["board"][0]["id"], 0, "melee")
    flow.advance(state, SeededRng(0))
    assert state["pending"]["type"] == "defend" and flow.to_act(state) == [0]
    return state


def test_another_mercenary_drinks_a_potion_while_the_table_waits_on_a_defence():
    state = orc_attacks_merc_0(hands={0: ["basic-block"], 1: ["healing-potion"]}, health={1: 12})
    potion = state["mercs"][1]["hand"][0]
    state = actions.apply(state, {"type": "ability", "merc": 1, "card": potion, "seat": 1}, SeededRng(0))
    assert state["mercs"][1]["health"] == 15 and potion in state["mercs"][1]["discard"]
    assert state["pending"]["type"] == "defend" and flow.to_act(state) == [0]  # the defence still waits
    assert invariants(state) == []


def test_acquiring_during_the_monster_turn_once_per_turn():
    state = orc_attacks_merc_0(hands={0: ["basic-block"]}, exp={2: 3})
    assert {a["code"] for a in free(state, 2) if a["type"] == "acquire"} >= {"advanced-melee", "basic-melee"}
    state = actions.apply(state, {"type": "acquire", "merc": 2, "code": "advanced-melee", "seat": 2}, SeededRng(0))
    assert state["mercs"][2]["exp"] == 0 and len(state["mercs"][2]["acquired"]) == 1
    assert not [a for a in free(state, 2) if a["type"] == "acquire"]


def test_a_seat_acts_only_for_its_own_mercenaries():
    state = orc_attacks_merc_0(hands={0: ["basic-block"], 1: ["healing-potion"]})
    potion = state["mercs"][1]["hand"][0]
    with pytest.raises(IllegalAction):
        actions.apply(state, {"type": "ability", "merc": 1, "card": potion, "seat": 2}, SeededRng(0))


def test_nothing_is_played_while_the_mercenaries_enter_the_area():
    state = fresh()
    assert state["pending"]["type"] in ("place_monster", "enter")
    assert any(m["hand"] for m in state["mercs"]) and free(state) == []


def test_the_end_of_the_turn_waits_for_those_who_can_still_acquire():
    state = arranged(monsters=[("goblin", (1, 0))], exp={2: 5}, hands={0: [], 1: [], 2: [], 3: []})
    state.update(phase="end_turn", current=None, order=[])
    turn = state["turn"]
    flow.advance(state, SeededRng(0))
    assert flow.to_act(state) == [2] and state["turn"] == turn
    assert {a["type"] for a in actions.legal_actions(state) if a["seat"] == 2} >= {"done", "acquire"}
    state = act(state, type="done")
    assert state["turn"] == turn + 1 and state["mercs"][2]["exp"] == 5


def test_a_successful_defence_in_the_monster_turn_can_be_cashed_at_the_end_of_the_turn():
    state = arranged(monsters=[("goblin", (1, 0))], exp={0: 4}, hands={0: [], 1: [], 2: [], 3: []})
    state["mercs"][0]["defended"] = True
    state.update(phase="end_turn", current=None, order=[])
    turn = state["turn"]
    flow.advance(state, SeededRng(0))
    assert "shield-of-protection" in {a["code"] for a in free(state, 0) if a["type"] == "acquire"}
    state = actions.apply(state, {"type": "acquire", "merc": 0, "code": "shield-of-protection", "seat": 0},
                          SeededRng(0))
    # buying closes this seat's last chance: the turn ends and the new card is in the discard pile
    assert state["turn"] == turn + 1 and any(c.startswith("shield-of-protection") for c in state["mercs"][0]["discard"])


def test_a_blue_box_monster_card_is_played_from_the_hand_and_still_scores():
    state = arranged(hands={0: ["goblin-archer"]}, monsters=[("goblin", (1, 0))])
    card = state["mercs"][0]["hand"][0]
    blue = [a for a in free(state, 0) if a["type"] == "blue"]
    assert [a["card"] for a in blue] == [card] and "blue box" in blue[0]["label"]
    hand = len(state["mercs"][0]["hand"])
    state = actions.apply(state, blue[0], SeededRng(0))
    merc = state["mercs"][0]
    assert card in merc["discard"] and len(merc["hand"]) == hand  # played one, drew one
    assert scoring.mvps(state, merc) == 1


def test_views_split_the_decision_from_what_a_seat_may_do_at_any_time():
    state = orc_attacks_merc_0(hands={0: ["basic-block"], 1: ["healing-potion"]})
    waiting = seat_view.view(state, 1)
    assert waiting["choices"] == [] and [a["type"] for a in waiting["anytime"]] == ["ability"]
    deciding = seat_view.view(state, 0)
    assert {a["type"] for a in deciding["choices"]} == {"defend", "take"}
    assert all(a["seat"] == 0 for a in deciding["choices"] + deciding["anytime"])
    assert {a["seat"] for a in seat_view.view(state, GM)["anytime"]} == {1}
    assert seat_view.view(state, None)["anytime"] == [] and seat_view.view(state, None)["choices"] == []


def test_illegal_examples_never_borrow_an_any_time_action():
    state = orc_attacks_merc_0(hands={0: ["basic-block"], 1: ["healing-potion"]})
    assert all(a["type"] not in ("acquire", "ability", "blue") for a in illegal_examples(state))
