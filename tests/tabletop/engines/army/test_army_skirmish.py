"""Army Rules skirmishes: the rulebook's worked example first, then every skirmish rule."""

import pytest

from tabletop.engines import army
from tabletop.engines.army.common import move
from tabletop.engines.army.testing import (
    ANN,
    BEN,
    SOLDIER_BONUS,
    act,
    battle,
    card,
    decline,
    kinds,
    play,
    skirmish,
    where,
)
from tabletop.engines.kernel import GM, IllegalAction, ScriptedRng


def spearmen(card_id="spear"):
    return card(card_id, 3, "aggressor", traits=["reach"], name="Spearmen")


def soldier(card_id):
    return card(card_id, 2, "aggressor", abilities=[SOLDIER_BONUS], name="Soldier")


def test_rulebook_worked_skirmish_a_second_soldier_after_the_dice_turns_a_kill_into_disabled():
    state = battle([spearmen(), card("a2")], [soldier("sol1"), soldier("sol2"), card("b3")])
    state = play(state, "spear")
    state = play(state, "sol1")
    # Ben holds a second Soldier, so the window before the dice opens; Ann has nothing and declines at once.
    assert state["step"]["kind"] == "react" and state["step"]["seat"] == BEN
    odds = army.view(state, GM)["odds"]
    assert odds["offense_wins"]["p"] > 0.5
    state = decline(state, dice=[3, 1, 2])  # Spearmen 2d6 keep best (3), Soldier d6 (2)
    offense, defense = army.view(state, GM)["skirmish"]["offense"], army.view(state, GM)["skirmish"]["defense"]
    assert offense["dice_mode"] == "best2" and offense["kept"] == 3
    assert [m["source"] for m in offense["modifiers"]] == ["Reach"]
    assert (offense["total"], defense["total"]) == (7, 4)  # a margin of 3: the Soldier would be Killed
    assert state["step"]["kind"] == "react" and state["step"]["seat"] == BEN  # the window after the dice
    state = act(state, {"type": "discard", "seat": BEN, "card": "sol2", "ability": 0, "side": "defense"})
    # Neither commander has anything left to react with: both decline in succession and the skirmish resolves.
    assert where(state, "sol1") == "disabled"
    assert where(state, "spear") == "exhausted"
    assert where(state, "sol2") == "disabled"  # a discarded card goes to the Disabled pile
    assert army.to_act(state) == [BEN] and state["step"]["kind"] == "offense"  # B is on Offense next
    last = state["last"]
    assert (last["offense"]["total"], last["defense"]["total"], last["margin"]) == (7, 5, 2)
    assert "Spearmen wins; Soldier is Disabled" in last["result"]


def test_the_same_skirmish_without_the_second_soldier_kills():
    state = battle([spearmen(), card("a2")], [soldier("sol1"), card("b2")])
    state = skirmish(state, "spear", "sol1", dice=[3, 1, 2])
    assert where(state, "sol1") == "killed"
    assert army.view(state, 0)["commanders"][BEN]["killed"][0]["name"] == "Soldier"


@pytest.mark.parametrize("offense_role, defense_role, offense_dice, defense_dice", [
    ("aggressor", "aggressor", "best2", "d6"),
    ("aggressor", "guardian", "d6", "d6"),      # a Guardian on Defense negates the Aggressor's 2d6 ...
    ("guardian", "guardian", "d6", "best2"),    # ... and keeps its own
    ("savant", "aggressor", "d6", "d6"),
    ("healer", "guardian", "d6", "best2"),
    ("equipment", "guardian", "none", "best2"),
    ("aggressor", "equipment", "best2", "none"),
])
def test_roles_decide_the_dice(offense_role, defense_role, offense_dice, defense_dice):
    state = battle([card("o", 3, offense_role), card("x")], [card("d", 3, defense_role), card("y")],
                   dice="physical")
    state = play(state, "o")
    state = play(state, "d")
    assert army.view(state, GM)["dice_modes"] == {"offense": offense_dice, "defense": defense_dice}
    counts = {"none": 0, "d6": 1, "best2": 2}
    labels = [need["label"] for need in army.view(state, GM)["dice_needed"]]
    assert len(labels) == counts[offense_dice] + counts[defense_dice]
    assert sum("(Offense)" in label for label in labels) == counts[offense_dice]


def test_aggressor_keeps_best_and_guardian_negation_is_visible_in_the_result():
    state = battle([card("o", 2, "aggressor"), card("x")], [card("d", 2, "guardian"), card("y")])
    state = play(state, "o")
    state = play(state, "d", dice=[6, 1])  # each rolls one d6: the Aggressor is negated, and so is the Guardian
    assert state["last"]["offense"]["dice"] == [6] and state["last"]["defense"]["dice"] == [1]
    assert state["last"]["offense"]["total"] == 8 and where(state, "d") == "killed"


@pytest.mark.parametrize("dice, loser_fate", [([4, 2], "disabled"), ([5, 2], "killed"), ([6, 1], "killed")])
def test_margin_of_three_kills(dice, loser_fate):
    state = battle([card("o", 2, "healer"), card("x")], [card("d", 2, "healer"), card("y")])
    state = skirmish(state, "o", "d", dice=dice)
    assert where(state, "o") == "exhausted" and where(state, "d") == loser_fate


def test_tie_goes_to_higher_base_strength_as_a_win_by_zero():
    state = battle([card("o", 3, "healer"), card("x")], [card("d", 2, "healer"), card("y")])
    state = skirmish(state, "o", "d", dice=[2, 3])
    assert state["last"]["margin"] == 0 and state["last"]["tie_break"]
    assert where(state, "o") == "exhausted" and where(state, "d") == "disabled"


def test_tie_with_equal_base_strength_rerolls_every_die():
    state = battle([card("o", 2, "healer"), card("x")], [card("d", 2, "healer"), card("y")])
    state = skirmish(state, "o", "d", dice=[4, 4, 1, 6])
    assert state["last"]["rerolls"] == 1
    assert where(state, "d") == "exhausted" and where(state, "o") == "killed"


def test_two_equipment_of_equal_strength_and_total_are_a_stand_off():
    state = battle([card("o", 2, "equipment"), card("x")], [card("d", 2, "equipment"), card("y")])
    state = skirmish(state, "o", "d")
    assert state["last"]["winner"] is None
    assert where(state, "o") == "exhausted" and where(state, "d") == "exhausted"


def test_zero_strength_equipment_is_killed_without_a_roll():
    state = battle([card("o", 1, "healer"), card("x")], [card("ram", 0, "equipment"), card("y")])
    state = skirmish(state, "o", "ram")  # no dice scripted: none are rolled
    assert where(state, "ram") == "killed" and where(state, "o") == "exhausted"


def test_reach_adds_one_unless_the_opponent_has_reach_or_ranged():
    for traits, expected in (([], ["Reach"]), (["ranged"], []), (["reach"], [])):
        state = battle([spearmen(), card("x")], [card("d", 2, "healer", traits=traits), card("y")])
        state = skirmish(state, "spear", "d", dice=[1, 1, 1])
        sources = [m["source"] for m in state["last"]["offense"]["modifiers"]]
        assert sources == expected, traits
        if "reach" in traits:  # both have Reach: neither gets the bonus
            assert [m["source"] for m in state["last"]["defense"]["modifiers"]] == []


def test_units_without_strength_and_rituals_cannot_be_played():
    ritual = card("rit", None, "ritual", abilities=[{"kind": "ritual_morale", "amount": 1}])
    courier = card("courier", None, "savant", abilities=[SOLDIER_BONUS])
    blocked = card("blocked", 3, "aggressor", abilities=[{"kind": "no_skirmish"}])
    state = battle([card("o"), ritual, courier, blocked], [card("d"), card("y")])
    playable = {a["card"] for a in army.legal_actions(state) if a["type"] == "play"}
    assert playable == {"o"}
    with pytest.raises(IllegalAction, match="Rituals are not units"):
        play(state, "rit")
    with pytest.raises(IllegalAction, match="no Strength"):
        play(state, "courier")
    with pytest.raises(IllegalAction, match="cannot be played"):
        play(state, "blocked")


def test_savant_gets_two_more_from_another_cards_bonus_but_not_from_reach_or_commanders():
    state = battle([card("sav", 2, "savant"), soldier("sol")], [card("d", 2, "healer"), card("y")])
    state = play(state, "sav")
    state = play(state, "d")
    # Nobody has anything more to use: the window closes and the dice are rolled within the same action.
    state = act(state, {"type": "discard", "seat": ANN, "card": "sol", "ability": 0, "side": "offense"},
                dice=[1, 1])
    sources = [m["source"] for m in state["last"]["offense"]["modifiers"]]
    assert sources == ["Soldier (discarded by Ann's commander)", "Savant (bonus from Soldier (discarded by "
                                                                 "Ann's commander))"]
    assert state["last"]["offense"]["total"] == 2 + 1 + 1 + 2


def test_discard_powers_may_help_either_side_and_penalties_hit_the_enemy_only():
    ward = card("ward", 2, "guardian", abilities=[{"kind": "discard_bonus", "amount": -1, "target": "enemy"}])
    state = battle([card("o"), ward, soldier("sol")], [card("d"), card("y")])
    state = play(state, "o")
    state = play(state, "d")
    discards = {(a["card"], a["side"]) for a in army.legal_actions(state) if a["type"] == "discard"}
    assert discards == {("ward", "defense"), ("sol", "offense"), ("sol", "defense")}


def test_reaction_windows_alternate_until_both_decline_in_succession():
    state = battle([card("o"), soldier("s1"), soldier("s2")], [card("d"), soldier("t1")])
    state = play(state, "o")
    state = play(state, "d")
    assert state["step"]["seat"] == ANN  # the attacker reacts first
    state = act(state, {"type": "discard", "seat": ANN, "card": "s1", "ability": 0, "side": "offense"})
    assert state["step"]["seat"] == BEN
    state = decline(state)
    assert state["step"]["seat"] == ANN  # Ben declined once: Ann may still answer
    state = act(state, {"type": "discard", "seat": ANN, "card": "s2", "ability": 0, "side": "offense"})
    # Ben declines; Ann has nothing left and declines automatically: two in succession -> the dice.
    state = decline(state, dice=[1, 1, 1])  # an Aggressor's 2d6 on Offense, a d6 on Defense
    assert state["skirmish"]["dice"] == {"offense": [1, 1], "defense": [1]}
    # After the dice Ann has nothing left, so the window opens on Ben, who still holds a Soldier.
    assert state["step"]["kind"] == "react" and state["step"]["seat"] == BEN
    assert state["skirmish"]["window"]["stage"] == "post"


def test_discard_heal_returns_a_card_from_disabled_or_exhausted():
    reliquary = card("rel", 1, "equipment", abilities=[{"kind": "discard_heal", "max_strength": 2}])
    state = battle([card("a1", 2, "healer"), card("a2", 3, "healer"), card("a3"), reliquary],
                   [card("b1", 2, "healer"), card("b2", 2, "healer"), card("b3"), card("b4")])
    state = skirmish(state, "a1", "b1", dice=[1, 2])  # a1 Disabled (3 vs 4)
    state = skirmish(state, "b2", "a2", dice=[1, 6])  # a2 wins: Exhausted
    state = play(state, "a3")
    state = play(state, "b3")
    targets = {a["target"] for a in army.legal_actions(state) if a["type"] == "discard"}
    assert targets == {"a1"}  # a2 (Strength 3) is beyond the Reliquary's limit of 2
    state = act(state, {"type": "discard", "seat": ANN, "card": "rel", "ability": 0, "target": "a1"},
                dice=[6, 6, 1])
    assert where(state, "a1") == "hand" and where(state, "rel") == "disabled"
    assert where(state, "a3") == "exhausted"


def reliquary_and_herbalist():
    reliquary = card("rel", 1, "equipment", abilities=[{"kind": "discard_heal", "max_strength": None}],
                     name="Reliquary")
    herbalist = card("herb", 1, "healer", abilities=[{"kind": "discard_heal", "max_strength": 2}], name="Herbalist")
    return reliquary, herbalist


def test_the_reliquary_used_once_comes_back_in_a_later_skirmish():
    # The Army Rules, Discard: "you place it in your Disabled pile from your hand. Thus, these cards are
    # normally usable once per Battle" -- normally: a card returned to hand can be used again. The
    # Herbalist's power names any card of the piles within its Strength, the Reliquary included (ruling
    # AR31, withdrawing AR30).
    reliquary, herbalist = reliquary_and_herbalist()
    state = battle([card("a1", 2, "savant"), soldier("s"), reliquary, herbalist],
                   [card("b1", 2, "savant"), card("b2")])
    move(state, "rel", "disabled")  # discarded in an earlier skirmish
    state = play(state, "a1")
    state = play(state, "b1")
    assert state["step"]["kind"] == "react" and state["step"]["seat"] == ANN
    returns = {a["target"] for a in army.legal_actions(state) if a["type"] == "discard" and a["card"] == "herb"}
    assert returns == {"rel"}
    state = act(state, {"type": "discard", "seat": ANN, "card": "herb", "ability": 0, "target": "rel"})
    assert where(state, "rel") == "hand" and where(state, "herb") == "disabled"


def test_the_healer_role_is_offered_the_reliquary():
    # "Healer: discard to return a card of up to twice its Strength from the Disabled or Exhausted pile" --
    # limited by Strength only, so a card with a return power of its own may be returned (AR31).
    reliquary, _ = reliquary_and_herbalist()
    state = battle([card("a1", 1, "savant"), card("a2"), card("h", 1, "healer"), reliquary],
                   [card("b1", 2, "savant"), card("b2"), card("b3")])
    move(state, "rel", "disabled")
    state = play(state, "a1")
    state = play(state, "b1", dice=[2, 2])
    assert state["step"]["kind"] == "heal" and state["step"]["seat"] == ANN
    assert "rel" in {a["card"] for a in army.legal_actions(state) if a["type"] == "heal"}
    state = act(state, {"type": "heal", "seat": ANN, "healer": "h", "card": "rel"})
    assert where(state, "rel") == "hand"


def window_of_two_returners():
    """Ann's first reaction window, the Reliquary in hand and the Herbalist Disabled: each may return the other."""
    reliquary, herbalist = reliquary_and_herbalist()
    state = battle([card("a1", 2, "savant"), soldier("s"), reliquary, herbalist],
                   [card("b1", 2, "savant"), card("b2")])
    move(state, "herb", "disabled")
    return play(play(state, "a1"), "b1")


def a_return(state):
    return next(a for a in army.legal_actions(state) if a["type"] == "discard" and "target" in a)


def test_a_reaction_window_whose_position_comes_round_a_third_time_closes_as_if_both_declined():
    # Found by the bench (issue 27): a Reliquary and a Herbalist returned each other to hand 20,000 times in one
    # window. The rulebooks' own kind of end (Mercenarium: stalemate after three repetitions, ruling AR32):
    # the same hands, piles, modifiers, declines and seat to act a third time close the window.
    state = window_of_two_returners()
    dice = ScriptedRng([3, 3, 3, 3])
    returns = 0
    while state["step"]["kind"] == "react" and state["skirmish"]["window"]["stage"] == "pre":
        state = act(state, a_return(state), dice)
        returns += 1
        assert returns < 10, "the window is still open"
    # The window opens with no decline yet; after each return Ben declines (nothing to use), so Ann faces two
    # positions in turn, and the first of them comes round a third time after the fifth return.
    assert returns == 5
    assert any("came round a third time" in line for line in state["events"])
    assert state["skirmish"]["dice"] is not None  # closed as if both declined: the dice are rolled


def test_the_repetition_count_starts_afresh_in_each_window_and_no_view_shows_it():
    state = act(window_of_two_returners(), a_return(window_of_two_returners()))
    assert len(state["skirmish"]["window"]["seen"]) == 2
    assert all("seen" not in army.view(state, viewer)["skirmish"]["window"] for viewer in (ANN, BEN, GM))
    state = decline(state, dice=[3, 3])
    assert state["skirmish"]["window"]["stage"] == "post" and len(state["skirmish"]["window"]["seen"]) == 1


def test_the_view_breaks_down_the_last_resolution():
    state = battle([spearmen(), card("x")], [card("d", 2, "healer"), card("y")])
    state = skirmish(state, "spear", "d", dice=[5, 2, 3])
    last = army.view(state, ANN)["last"]
    assert last["offense"]["base"] == 3 and last["offense"]["dice"] == [5, 2] and last["offense"]["kept"] == 5
    assert last["offense"]["modifiers"] == [{"amount": 1, "source": "Reach", "kind": "trait"}]
    assert last["offense"]["total"] == 9 and last["defense"]["total"] == 5 and last["margin"] == 4
    assert "would be Killed" in last["result"]
    assert "id" not in last["offense"]


def test_kinds_of_choices_in_each_step():
    state = battle([card("o"), soldier("s")], [card("d"), card("y")])
    assert kinds(state) == {"play", "pass"}
    state = play(state, "o")
    assert kinds(state) == {"play", "pass"}
    state = play(state, "d")
    assert kinds(state) == {"discard", "decline"}


def test_an_unopposed_unit_has_no_opponent_so_reach_adds_nothing():
    state = battle([spearmen(), card("x")], [card("d"), card("y")])
    state = play(state, "spear")
    state = act(state, {"type": "pass", "seat": BEN}, dice=[4, 1])
    assert state["last"]["unopposed"] and state["last"]["offense"]["modifiers"] == []
    assert state["last"]["offense"]["total"] == 7 and state["last"]["damage"] == 1


def test_nothing_is_accepted_once_the_battle_is_over():
    state = battle([card("o")], [card("d")])
    state = act(state, {"type": "gm_end_battle", "seat": GM})
    with pytest.raises(IllegalAction, match="The battle is over"):
        act(state, {"type": "gm_morale", "seat": GM, "target": 0, "amount": 1})
    assert army.to_act(state) == [] and army.legal_actions(state) == []
