"""Attacks are made with Skill Melee or Skill Ranged cards; only Skill Defence cards defend successfully;
Health has no cap the rulebook does not print (rulings D21, D22, D23)."""

import pytest

from tabletop.engines.dungeon import actions, cards, flow
from tabletop.engines.dungeon.checks import invariants
from tabletop.engines.dungeon.testing import act, arranged, types
from tabletop.engines.kernel import IllegalAction, SeededRng

MERCS = [(5, 0), (5, 2), (5, 3), (5, 4)]


def attack_types(state):
    return {(a["kind"], a.get("target")) for a in actions.legal_actions(state) if a["type"] == "attack"}


def test_a_mercenary_without_a_melee_card_cannot_attack_in_melee():
    # "Players use Skill Melee or Skill Ranged cards to attack. A Melee attack uses Skill Melee cards."
    state = arranged(monsters=[("goblin", (4, 0))], mercs=MERCS, hands={0: ["basic-block", "healing-potion"]})
    assert "attack" not in types(state)
    state = arranged(monsters=[("goblin", (4, 0))], mercs=MERCS, hands={0: ["basic-melee"]})
    assert attack_types(state) == {("melee", state["board"][0]["id"])}


def test_an_attack_is_worth_its_skill_cards_and_nothing_more():
    state = arranged(monsters=[("orc", (4, 0))], mercs=MERCS, hands={0: ["basic-melee", "healing-potion"]})
    orc = state["board"][0]["id"]
    state = act(state, type="attack", merc=0, kind="melee", target=orc)
    state = actions.apply(state, next(a for a in actions.legal_actions(state) if a["type"] == "add"), SeededRng(0))
    state = act(state, type="strike", target=orc)
    # Basic Melee Attack 2 against the orc's defence 1: 1 wound (the mercenary card adds nothing)
    assert state["board"][0]["wounds"] == 1 and state["mercs"][0]["exp"] == 1


def test_a_strike_needs_a_card_in_it():
    state = arranged(monsters=[("goblin", (4, 0))], mercs=MERCS, hands={0: ["basic-melee"]})
    goblin = state["board"][0]["id"]
    state = act(state, type="attack", merc=0, kind="melee", target=goblin)
    assert types(state) >= {"add"} and "strike" not in types(state)
    with pytest.raises(IllegalAction):
        act(state, type="strike", target=goblin)


def test_retaliation_and_lashing_out_at_a_monster_need_a_melee_card():
    state = arranged(monsters=[("goblin", (4, 1))], mercs=[(5, 1), (5, 3), (5, 4), (5, 5)], hands={0: []})
    state["order"], state["current"] = [], None
    flow.advance(state, SeededRng(0))
    assert state["pending"] is None or state["pending"]["type"] != "retaliate"
    state = arranged(monsters=[("goblin", (4, 1))], mercs=[(5, 1), (5, 3), (5, 4), (5, 5)],
                     hands={0: ["basic-melee"]})
    state["order"], state["current"] = [], None
    flow.advance(state, SeededRng(0))
    assert state["pending"]["type"] == "retaliate"


def test_a_monster_moving_away_is_let_go_by_a_mercenary_without_melee_cards():
    state = arranged(monsters=[("goblin-archer", (0, 2))], mercs=[(1, 2), (5, 2), (5, 3), (5, 4)], hands={0: []})
    state["mstep"] = {"steps": ["ranged_move"], "todo": None, "group": None}
    state.update(phase="monsters", current=None, order=[])
    flow.advance(state, SeededRng(0))
    state = act(state, type="monster_to", square=[0, 1])
    assert state["board"][0]["pos"] == [0, 1]  # gone, without asking mercenary 0
    state = arranged(monsters=[("goblin-archer", (0, 2))], mercs=[(1, 2), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["basic-melee"]})
    state["mstep"] = {"steps": ["ranged_move"], "todo": None, "group": None}
    state.update(phase="monsters", current=None, order=[])
    flow.advance(state, SeededRng(0))
    state = act(state, type="monster_to", square=[0, 1])
    assert state["pending"]["type"] == "lash_out"


def test_melee_cards_against_a_lash_out_reduce_wounds_but_are_no_successful_defence():
    # "If a Mercenary has used Skill Defence cards to reduce Wounds suffered by at least one ..."
    state = arranged(monsters=[("orc", (4, 0))], mercs=MERCS, hands={0: ["basic-melee"]})
    state = act(state, type="move", merc=0)
    state = act(state, type="to", square=[5, 1])
    melee = next(a for a in actions.legal_actions(state) if a["type"] == "defend")
    state = actions.apply(state, melee, SeededRng(0))
    merc = state["mercs"][0]
    assert merc["health"] == 19 and not merc["defended"]  # orc 3 - melee card 2


def test_healing_is_not_capped_at_twenty():
    # The rulebook starts a mercenary at 20 Health and prints no maximum.
    state = arranged(hands={0: ["healing-potion"]}, health={0: 19})
    potion = state["mercs"][0]["hand"][0]
    state = act(state, type="ability", merc=0, card=potion)
    assert state["mercs"][0]["health"] == 22 and invariants(state) == []


def test_the_mercenary_cards_print_no_attack_or_defence():
    mercs = [c for c in cards.starter_cards() if c["kind"] == "mercenary"]
    assert mercs and all(c["stats"] == {} for c in mercs)
