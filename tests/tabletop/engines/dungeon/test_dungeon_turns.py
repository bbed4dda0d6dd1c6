"""Dungeon turns: "2 Pairs" leads, traps met with defence cards, mercenaries lashing out at a monster moving away."""

import pytest

from tabletop.engines.dungeon import actions, board, flow, monsters
from tabletop.engines.dungeon.checks import invariants
from tabletop.engines.dungeon.testing import act, arranged, fresh, monster_at
from tabletop.engines.kernel import IllegalAction, ScriptedRng, SeededRng

PAIRS = {"players": ["Ann", "Ben"], "variant": "pairs", "mode": "competitive"}


def first_choice(state) -> dict:
    return {k: v for k, v in actions.legal_actions(state)[0].items() if k not in ("seat", "label")}


def until(state, kind, limit=200):
    """Take the first blocking choice until the table waits for a decision of ``kind``."""
    for _ in range(limit):
        if state["pending"] and state["pending"]["type"] == kind:
            return state
        state = act(state, **first_choice(state))
    raise AssertionError(f"no {kind} decision came")


# --- 2 Pairs ----------------------------------------------------------------------------------


def test_in_pairs_each_player_picks_a_lead_and_the_mercenaries_alternate():
    state = until(fresh(PAIRS, seed=4), "lead")
    assert flow.to_act(state) == [0]  # the First Player's owner decides first
    assert {a["merc"] for a in actions.legal_actions(state) if a["type"] == "lead"} == {0, 2}
    state = act(state, type="lead", merc=2)
    assert flow.to_act(state) == [1]
    state = act(state, type="lead", merc=3)
    assert state["this_turn"] == [2, 3, 0, 1]  # P1's lead, P2's lead, P1's second, P2's second
    assert state["current"] == 2 and state["phase"] == "mercs"
    assert invariants(state) == []


def test_in_pairs_the_player_holding_the_first_player_card_picks_first():
    state = arranged(config=PAIRS, first=1, monsters=[("goblin", (1, 0))])
    state["phase"], state["current"] = "end_turn", None
    flow.advance(state, SeededRng(0))
    assert state["pending"]["type"] == "lead" and flow.to_act(state) == [1]


def test_singles_keep_the_normal_turn_order():
    state = arranged(config={"players": ["Ann", "Ben"], "variant": "singles"}, monsters=[("goblin", (1, 0))])
    state["phase"], state["current"] = "end_turn", None
    flow.advance(state, SeededRng(0))
    assert state["pending"] is None and state["this_turn"] == [0, 1, 2, 3]


def test_ranged_targeting_follows_this_turns_order():
    state = arranged(config=PAIRS, monsters=[("goblin-archer", (0, 0))], hands={i: [] for i in range(4)})
    state["this_turn"] = [2, 3, 0, 1]
    state["mstep"] = {"steps": ["ranged_attack"], "todo": [state["board"][0]["id"]], "group": None}
    state["phase"], state["current"] = "monsters", None
    monsters.monster_acts(state, state["board"][0]["id"], ScriptedRng([5]))  # 5-8: the first in this turn
    assert state["combat"]["merc"] == 2


# --- traps ------------------------------------------------------------------------------------


def at_feature(code, **kwargs):
    """A state about to draw the area feature ``code`` (moved from wherever it lies to the top of the deck)."""
    state = arranged(**kwargs)
    if state["area_feature"]:
        state["af_discard"].append(state["area_feature"])
        state["area_feature"] = None
    pile = next(p for p in (state["af_deck"], state["af_discard"]) if any(board.code(c) == code for c in p))
    found = next(c for c in pile if board.code(c) == code)
    pile.remove(found)
    state["af_deck"].insert(0, found)
    state.update(phase="feature", current=None, order=[])
    return state


def test_a_dart_trap_can_be_met_with_defence_cards_and_counts_as_a_successful_defence():
    state = at_feature("dart-trap", hands={0: ["basic-block", "basic-melee"]}, exp={0: 4})
    flow.advance(state, SeededRng(0))
    assert state["pending"]["type"] == "defend" and flow.to_act(state) == [0]
    defend = {a["type"] for a in actions.legal_actions(state)}
    assert defend == {"defend", "take"}  # melee cards only defend against a lash-out
    state = act(state, type="defend", card=state["mercs"][0]["hand"][0])
    merc = state["mercs"][0]
    assert merc["health"] == 18 and merc["defended"] and len(merc["defence"]) == 1  # 3 wounds, 1 blocked
    assert invariants(state) == []
    # the block stays in front of the mercenary, and the successful defence opens Shield of Protection
    while state["phase"] != "mercs":
        state = act(state, **first_choice(state))
    codes = {a["code"] for a in actions.legal_actions(state) if a["type"] == "acquire" and a["merc"] == 0}
    assert "shield-of-protection" in codes and state["mercs"][0]["defence"]


def test_a_tripwire_hits_every_mercenary_and_only_those_with_defence_cards_are_asked():
    state = at_feature("tripwire", hands={0: [], 1: ["basic-block"], 2: ["basic-melee"], 3: []})
    flow.advance(state, SeededRng(0))
    assert state["pending"]["type"] == "defend" and state["pending"]["merc"] == 1
    assert [m["health"] for m in state["mercs"]] == [19, 20, 20, 20]
    state = act(state, type="take")
    assert [m["health"] for m in state["mercs"]] == [19, 19, 19, 19]
    assert not state["mercs"][1]["defended"]


def test_taking_a_trap_without_blocking_is_no_successful_defence():
    state = at_feature("dart-trap", hands={0: ["basic-block"]})
    flow.advance(state, SeededRng(0))
    state = act(state, type="take")
    assert state["mercs"][0]["health"] == 17 and not state["mercs"][0]["defended"]


# --- a monster moves away -----------------------------------------------------------------------


def archer_leaving(code="goblin-archer", **kwargs):
    state = arranged(monsters=[(code, (4, 1))], mercs=[(5, 1), (5, 3), (5, 4), (5, 5)], **kwargs)
    state["mstep"] = {"steps": ["ranged_move", "ranged_attack"], "todo": None, "group": None}
    state.update(phase="monsters", current=None, order=[])
    flow.advance(state, SeededRng(0))
    assert state["pending"]["type"] == "monster_move"
    return act(state, type="monster_to", square=[4, 0])


def test_a_mercenary_may_lash_out_at_a_monster_moving_away_and_kill_it_before_it_goes():
    state = archer_leaving(hands={0: ["advanced-melee"]})
    assert state["pending"]["type"] == "lash_out" and flow.to_act(state) == [0]
    archer = state["board"][0]["id"]
    state = act(state, type="lash_out")
    assert state["pending"]["type"] == "attack" and state["pending"]["target"] == archer
    state = act(state, type="add", card=state["mercs"][0]["hand"][0])
    state = act(state, type="strike", target=archer)
    merc = state["mercs"][0]
    assert state["board"] == [] and archer in merc["discard"]  # 2 against 0 defence kills it
    assert merc["health"] == 20 and merc["acted"]  # no retaliation against a lash-out
    assert invariants(state) == []


def test_a_monster_let_go_moves_and_a_wound_without_a_kill_gives_exp():
    state = archer_leaving(hands={0: ["basic-melee"]})
    state = act(state, type="let_go")
    assert monster_at(state, (4, 0)) is not None and not state["mercs"][0]["acted"]
    state = archer_leaving("orc-arbalest", hands={0: ["basic-melee"]})
    state = act(state, type="lash_out")
    state = act(state, type="add", card=state["mercs"][0]["hand"][0])
    state = act(state, type="strike", target=state["pending"]["target"])
    assert monster_at(state, (4, 0))["wounds"] == 2 and state["mercs"][0]["exp"] == 1  # 2 of the arbalest's 3


@pytest.mark.parametrize("change", [{"health": 0}, {"acted": True}])
def test_a_mercenary_at_minus_health_or_acted_cannot_lash_out(change):
    state = arranged(monsters=[("goblin-archer", (4, 1))], mercs=[(5, 1), (5, 3), (5, 4), (5, 5)],
                     hands={0: ["basic-melee"]})
    state["mercs"][0].update(change)
    state["mstep"] = {"steps": ["ranged_move"], "todo": None, "group": None}
    state.update(phase="monsters", current=None, order=[])
    flow.advance(state, SeededRng(0))
    state = act(state, type="monster_to", square=[4, 0])
    assert (state["pending"] or {}).get("type") != "lash_out"
    assert monster_at(state, (4, 0)) is not None


def test_only_the_mercenary_left_behind_is_asked():
    state = archer_leaving(hands={0: ["basic-melee"]})
    with pytest.raises(IllegalAction):
        actions.apply(state, {"type": "lash_out", "seat": 1}, SeededRng(0))
