"""Dungeon rules as scenarios: movement, lashing out, combat, monsters, acquiring, the end."""

import pytest

from tabletop.engines.dungeon import actions, board, combat, flow, monsters
from tabletop.engines.dungeon.testing import act, arranged, monster_at, types
from tabletop.engines.kernel import IllegalAction, ScriptedRng, SeededRng


def test_movement_goes_along_and_or_one_row_never_through_cards_or_diagonally():
    state = arranged(monsters=[("goblin", (5, 2))], mercs=[(5, 0), (0, 5), (0, 4), (0, 3)])
    reach = board.destinations(state, (5, 0), 0)
    assert (5, 1) in reach and (4, 0) in reach and (4, 1) in reach
    assert (5, 3) not in reach  # the goblin is in the way
    assert (4, 3) in reach  # up one row, then along
    assert (3, 0) not in reach and (3, 1) not in reach  # never two rows


def test_a_mercenary_moves_once_and_can_attack_then_not_move_again():
    state = arranged(monsters=[("goblin", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["basic-melee"]})
    state = act(state, type="move", merc=0)
    state = act(state, type="to", square=[5, 1])  # lashing out first, then the move
    assert state["pending"]["type"] == "defend" and state["mercs"][0]["pos"] == [5, 0]
    state = act(state, type="take")
    assert state["mercs"][0]["pos"] == [5, 1] and state["mercs"][0]["health"] == 18
    assert "move" not in types(state)
    assert monster_at(state, (4, 0))["acted"] is True


def test_lashing_out_lets_melee_cards_defend_and_marks_the_monster_acted():
    state = arranged(monsters=[("orc", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["basic-melee", "basic-block"]})
    state = act(state, type="move", merc=0)
    state = act(state, type="to", square=[5, 1])
    assert state["pending"]["type"] == "defend"
    assert {a.get("card", "").split("#")[0] for a in actions.legal_actions(state)} >= {"basic-melee", "basic-block"}
    melee = next(a for a in actions.legal_actions(state) if a.get("card", "").startswith("basic-melee"))
    state = actions.apply(state, melee, SeededRng(0))
    state = act(state, type="take")
    # orc melee 3 against melee card value 2 used as defence: 1 wound
    assert state["mercs"][0]["health"] == 19 and state["mercs"][0]["pos"] == [5, 1]
    assert state["pending"] is None  # no retaliation from a lashing out


def test_combat_wounds_exp_kill_and_retaliation_even_when_killed():
    state = arranged(monsters=[("orc", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["basic-melee", "basic-melee"]})
    state = act(state, type="attack", merc=0, kind="melee", target=state["board"][0]["id"])
    for _ in range(2):
        card = next(a for a in actions.legal_actions(state) if a["type"] == "add")
        state = actions.apply(state, card, SeededRng(0))
    state = act(state, type="strike", target=state["board"][0]["id"])
    # two Basic Melee Attacks, 2 + 2 = 4, against defence 1: 3 wounds on an orc of 4: not dead, +1 EXP,
    # the orc retaliates
    assert state["board"][0]["wounds"] == 3
    assert state["mercs"][0]["exp"] == 1 and state["mercs"][0]["health"] == 17
    assert state["board"][0]["acted"] and state["mercs"][0]["acted"]


def test_a_killed_monster_still_retaliates_then_goes_to_the_killers_discard_with_its_exp():
    state = arranged(monsters=[("goblin", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["advanced-melee"]})
    gid = state["board"][0]["id"]
    state = act(state, type="attack", merc=0, kind="melee", target=gid)
    state = act(state, type="add", card=state["mercs"][0]["hand"][0])
    state = act(state, type="strike", target=gid)
    assert state["board"] == []
    merc = state["mercs"][0]
    assert gid in merc["discard"] and merc["exp"] == 1 and merc["health"] == 18  # goblin melee 2 retaliated


def test_a_mercenary_may_retaliate_when_a_monster_attacks():
    state = arranged(monsters=[("goblin", (4, 1))], mercs=[(5, 1), (5, 3), (5, 4), (5, 5)],
                     hands={0: ["advanced-melee"]})
    state["order"], state["current"] = [], None
    state["phase"] = "mercs"
    flow.advance(state, SeededRng(0))
    assert state["pending"]["type"] == "retaliate"
    state = act(state, type="retaliate")
    state = act(state, type="add", card=state["mercs"][0]["hand"][0])
    state = act(state, type="strike", target=state["pending"]["target"])
    assert state["board"] == [] and state["mercs"][0]["exp"] == 1


def test_minus_health_means_no_attack_and_regeneration_at_the_start_of_the_turn():
    state = arranged(monsters=[("goblin", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["basic-melee"]}, health={0: -2})
    assert "attack" not in types(state)
    state["current"] = None
    state["order"] = [0]
    flow.advance(state, SeededRng(0))
    assert state["mercs"][0]["health"] == -1


def test_ranged_attacks_use_the_lowest_minimum_and_the_highest_maximum():
    state = arranged(monsters=[("goblin-archer", (0, 0)), ("goblin", (4, 5))],
                     mercs=[(5, 0), (5, 2), (5, 3), (5, 4)], hands={0: ["basic-ranged", "advanced-ranged"]})
    merc = state["mercs"][0]
    basic, advanced = merc["hand"]
    assert actions.ranged_targets(state, merc, [advanced]) == [state["board"][1]["id"]]  # 1-4 rows
    assert set(actions.ranged_targets(state, merc, [basic, advanced])) == {m["id"] for m in state["board"]}


def test_a_melee_monster_moves_next_to_the_nearest_mercenary():
    state = arranged(monsters=[("goblin", (1, 0))], mercs=[(5, 0), (2, 4), (5, 3), (5, 5)])
    m = state["board"][0]
    options = monsters.monster_moves(state, m, "melee")
    assert all(board.adjacent(sq, (2, 4)) for sq in options)


def test_a_melee_monster_that_cannot_reach_moves_as_close_as_it_can():
    state = arranged(monsters=[("goblin", (1, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)])
    options = monsters.monster_moves(state, state["board"][0], "melee")
    assert options == [(2, 0)]


def test_a_ranged_monster_next_to_a_mercenary_moves_away_along_the_row():
    state = arranged(monsters=[("goblin-archer", (0, 2))], mercs=[(1, 2), (5, 2), (5, 3), (5, 4)])
    options = monsters.monster_moves(state, state["board"][0], "ranged")
    assert options == [(0, 1), (0, 3)]  # diagonal is not adjacent


def test_a_ranged_monster_that_cannot_get_away_stays_and_strikes_in_melee():
    state = arranged(monsters=[("goblin-archer", (0, 0)), ("goblin", (0, 1))],
                     mercs=[(1, 0), (5, 2), (5, 3), (5, 4)])
    archer = state["board"][0]
    assert monsters.monster_moves(state, archer, "ranged") == [(0, 0)]


@pytest.mark.parametrize("roll, target", [(4, None), (5, 0), (8, 0), (9, 1), (13, 2), (17, 3), (20, 3)])
def test_ranged_targeting_by_d20_with_four_mercenaries(roll, target):
    state = arranged(monsters=[("goblin-archer", (0, 0))], hands={i: [] for i in range(4)})
    state["mstep"] = {"steps": ["ranged_attack"], "todo": [state["board"][0]["id"]], "group": None}
    state["phase"], state["current"] = "monsters", None
    monsters.monster_acts(state, state["board"][0]["id"], ScriptedRng([roll]))
    if target is None:
        assert state["combat"] is None and state["board"][0]["acted"]
    else:
        assert state["combat"]["merc"] == target and state["combat"]["kind"] == "ranged"


@pytest.mark.parametrize("roll, target", [(5, None), (6, 0), (11, 1), (16, 2), (20, 2)])
def test_ranged_targeting_by_d20_with_three_mercenaries(roll, target):
    state = arranged(config={"players": ["A", "B", "C"]}, monsters=[("goblin-archer", (0, 0))],
                     hands={i: [] for i in range(3)})
    state["mstep"] = {"steps": ["ranged_attack"], "todo": [state["board"][0]["id"]], "group": None}
    monsters.monster_acts(state, state["board"][0]["id"], ScriptedRng([roll]))
    assert (state["combat"] or {}).get("merc") == target


def test_monsters_act_melee_then_champion_then_ranged_highest_health_first():
    state = arranged(monsters=[("goblin", (1, 0)), ("orc", (1, 5)), ("orc-champion", (0, 2))])
    state["mstep"] = {"steps": ["melee_move"], "todo": None, "group": None}
    state["phase"] = "monsters"
    monsters.step_monsters(state, SeededRng(0))
    assert state["mstep"]["group"] == "Orc"  # health 4 before the goblin's 2


def test_same_named_monsters_are_ordered_by_the_first_player():
    state = arranged(monsters=[("goblin", (1, 0)), ("goblin", (1, 5))], first=1)
    state["mstep"] = {"steps": ["melee_move"], "todo": None, "group": None}
    state["phase"] = "monsters"
    monsters.step_monsters(state, SeededRng(0))
    assert state["pending"]["type"] == "next_monster" and state["pending"]["seat"] == 1


def test_defence_cards_last_until_the_end_of_the_turn():
    state = arranged(monsters=[("orc", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["basic-block", "basic-melee"]})
    combat.monster_attacks(state, state["board"][0]["id"], 0, "melee")
    flow.advance(state, SeededRng(0))
    state = actions.apply(state, next(a for a in actions.legal_actions(state) if a["type"] == "defend"), SeededRng(0))
    assert state["pending"]["type"] == "retaliate"  # the block was the only defence card: the hit lands at once
    assert state["mercs"][0]["health"] == 18 and len(state["mercs"][0]["defence"]) == 1
    assert state["mercs"][0]["defended"]
    state["board"][0]["acted"] = False
    state["pending"] = state["combat"] = None
    combat.monster_attacks(state, state["board"][0]["id"], 0, "melee")
    flow.advance(state, SeededRng(0))
    assert state["mercs"][0]["health"] == 16  # the block still counts


def test_acquiring_costs_exp_once_per_turn_and_checks_the_condition():
    state = arranged(hands={0: []}, exp={0: 10})
    codes = {a["code"] for a in actions.legal_actions(state) if a["type"] == "acquire"}
    assert "advanced-melee" in codes and "charge-attack" not in codes  # needs a kill this turn
    state = act(state, type="acquire", merc=0, code="advanced-melee")
    assert state["mercs"][0]["exp"] == 7 and len(state["mercs"][0]["acquired"]) == 1
    assert "acquire" not in types(state)
    with pytest.raises(IllegalAction):
        act(state, type="acquire", merc=0, code="basic-block")


def test_cooperative_players_lose_when_all_are_at_minus_health_at_the_end_of_a_turn():
    config = {"players": ["A", "B", "C"], "mode": "cooperative"}
    state = arranged(config=config, monsters=[("goblin", (0, 0))], health={0: 0, 1: -1, 2: -3})
    state["phase"] = "end_turn"
    flow.advance(state, SeededRng(0))
    assert state["result"]["how"] == "lost" and state["result"]["winners"] == []


def test_competitive_play_goes_on_at_minus_health():
    state = arranged(monsters=[("goblin", (0, 0))], health={0: 0, 1: -1, 2: -3, 3: 0})
    state["phase"], turn = "end_turn", state["turn"]
    flow.advance(state, SeededRng(0))
    assert state["result"] is None and state["turn"] == turn + 1


def test_the_game_ends_when_the_deck_is_empty_and_the_area_cleared_with_competitive_scores():
    state = arranged(health={0: -2}, exp={0: 11, 1: 4})
    state["monster_deck"] = []
    state["mercs"][0]["discard"].append("orc#95")
    state["mercs"][1]["discard"].append("goblin#95")
    state["phase"] = "end_turn"
    flow.advance(state, SeededRng(0))
    assert flow.to_act(state) == [0, 1]  # the last chance to acquire, for the two with EXP to spend
    state = act(state, type="done")
    state = act(state, type="done")
    rows = state["result"]["rows"]
    assert rows[0]["total"] == 2 + 2 - 3  # an orc, 11 EXP, from -2 to 1 is 3
    assert rows[1]["total"] == 1
    assert state["result"]["winners"] == [1]


def test_ties_go_to_health_then_are_shared():
    state = arranged(health={0: 20, 1: 20, 2: 10, 3: 10})
    state["monster_deck"] = []
    state["phase"] = "end_turn"
    flow.advance(state, SeededRng(0))
    assert state["result"]["winners"] == [0, 1]


def test_a_cleared_area_passes_the_first_player_left_and_spawns_again():
    state = arranged()
    state["phase"] = "end_turn"
    area = state["area"]
    flow.advance(state, SeededRng(0))
    assert state["area"] == area + 1 and state["first"] == 1
    assert all(len(m["hand"]) == 6 for m in state["mercs"])
