"""Army Rules battles: set-up, Morale, Phases, the end, the winner, kill saving, Healers, Rituals."""

import pytest

from tabletop.engines import army
from tabletop.engines.army.testing import ANN, BEN, act, battle, card, commander, config, gm, play, skirmish, where
from tabletop.engines.kernel import GM, IllegalAction, ScriptedRng


def unit(card_id, strength=2, **fields):
    """A plain unit: a Savant rolls one d6 on Offense and Defense alike."""
    return card(card_id, strength, "savant", **fields)


def morale(state, seat):
    return army.view(state, GM)["commanders"][seat]["morale"]


def ritual(card_id, path="steel", **ability):
    return card(card_id, None, "ritual", path, abilities=[{"kind": "ritual_morale", "amount": 2, **ability}])


# ------------------------------------------------------------------ set-up

@pytest.mark.parametrize("progression, expected", [(0, 3), (1, 3), (4, 5), (7, 6), (10, 8)])
def test_starting_morale_is_three_plus_half_the_progression_rounded_down(progression, expected):
    state = battle([unit("a")], [unit("b")], commanders=[commander(progression=progression), commander()])
    assert morale(state, ANN) == expected
    assert army.view(state, ANN)["commanders"][ANN]["start_morale"] == expected


def test_a_random_commander_chooses_who_takes_the_first_turn():
    state = army.setup(config([unit("a")], [unit("b")]), ScriptedRng([1]))
    assert army.to_act(state) == [BEN] and state["step"]["kind"] == "choose_first"
    assert {a["first"] for a in army.legal_actions(state)} == {0, 1}
    with pytest.raises(IllegalAction):
        act(state, {"type": "choose_first", "seat": BEN, "first": 2})
    state = act(state, {"type": "choose_first", "seat": BEN, "first": ANN})
    assert state["phase"] == "first" and army.to_act(state) == [ANN] and state["step"]["kind"] == "offense"


def test_an_unknown_ability_kind_is_refused_at_setup():
    bad = card("x", abilities=[{"kind": "teleport_home"}])
    with pytest.raises(ValueError, match="unknown ability kind 'teleport_home'"):
        army.setup(config([bad], [unit("b")]), ScriptedRng([0]))


def test_repeated_card_ids_are_refused_at_setup():
    with pytest.raises(ValueError, match="unique"):
        army.setup(config([unit("a")], [unit("a")]), ScriptedRng([0]))


def test_the_base_gives_the_defender_bonus_morale_kept_apart():
    state = battle([unit("a")], [unit("b")], defender=BEN, base_morale=2)
    ben = army.view(state, ANN)["commanders"][BEN]
    assert (ben["own_morale"], ben["base_morale"], ben["morale"]) == (5, 2, 7)


# ------------------------------------------------------------------ Morale

def test_passing_on_offense_costs_one_morale_and_ends_the_turn():
    state = battle([unit("a")], [unit("b")])
    state = act(state, {"type": "pass", "seat": ANN})
    assert morale(state, ANN) == 4 and army.to_act(state) == [BEN]


def test_being_unable_costs_nothing():
    state = battle([ritual("r")], [unit("b")])
    assert army.to_act(state) == [BEN] and morale(state, ANN) == 5
    assert "Unable to play on Offense" in state["events"][-1]


@pytest.mark.parametrize("strength, die, damage", [(4, 3, 1), (5, 3, 2), (5, 2, 1), (1, 2, 0), (9, 6, 3)])
def test_unopposed_deals_one_morale_per_four_whole_points(strength, die, damage):
    state = battle([unit("a", strength)], [unit("b")])
    state = play(state, "a")
    state = act(state, {"type": "pass", "seat": BEN}, dice=[die])
    assert morale(state, BEN) == 5 - damage
    assert where(state, "a") == "exhausted"  # ruling AR4
    assert state["last"]["damage"] == damage and state["last"]["offense"]["total"] == strength + die


def test_base_morale_is_lost_first_and_reported_used():
    state = battle([unit("a", 6)], [unit("b")], defender=BEN, base_morale=1)
    state = play(state, "a")
    state = act(state, {"type": "pass", "seat": BEN}, dice=[2])  # 8: 2 damage, the Base's 1 first
    ben = army.view(state, GM)["commanders"][BEN]
    assert (ben["base_morale"], ben["own_morale"], ben["base_morale_used"]) == (0, 4, 1)
    state = gm(state, "gm_end_battle")
    assert army.outcome(state)["sides"][BEN]["base_morale_used"] == 1
    assert army.outcome(state)["sides"][ANN]["base_morale_used"] == 0


def test_morale_gained_may_exceed_the_start():
    state = battle([ritual("r1"), unit("a1"), unit("a2")], [unit("b")])
    state = act(state, {"type": "ritual", "seat": ANN, "card": "r1"})
    assert morale(state, ANN) == 7 and state["commanders"][ANN]["start_morale"] == 5
    assert army.to_act(state) == [ANN] and state["step"]["kind"] == "offense"  # the turn goes on


def test_rout_at_zero_loses_at_once_and_the_opponent_rolls_five_plus_to_kill():
    state = battle([unit("a1", 2), unit("a2", 1), unit("a3", 9)], [unit("b1", 1), unit("b2", 4), unit("b3")],
                   commanders=[commander(), commander(morale=2)])
    state = skirmish(state, "a1", "b1", dice=[1, 1])     # 3 vs 2: b1 Disabled
    state = skirmish(state, "b2", "a2", dice=[3, 1])     # b2 wins: Exhausted
    state = play(state, "a3")
    state = act(state, {"type": "pass", "seat": BEN}, dice=[1, 5, 4])  # 10: 2 damage -> 0 Morale; rout rolls
    assert state["phase"] == "over" and state["commanders"][BEN]["routed"]
    assert where(state, "b1") == "killed" and where(state, "b2") == "exhausted"
    result = army.outcome(state)
    assert result["winners"] == [ANN] and result["losers"] == [BEN] and "Routed" in result["reason"]
    assert result["sides"][BEN]["routed"] and result["sides"][BEN]["morale"] == 0


def test_morale_never_goes_below_zero():
    state = battle([unit("a")], [unit("b")])
    state = gm(state, "gm_morale", target=BEN, amount=-40)
    assert state["commanders"][BEN]["morale"] == 0 and state["commanders"][BEN]["routed"]
    assert army.outcome(state)["winners"] == [ANN]


def test_morale_does_not_refresh_in_the_second_phase_and_carries_in_from_the_config():
    state = battle([unit("a", 5)], [unit("b")], commanders=[commander(), commander(morale=4)])
    assert morale(state, BEN) == 4  # carried from an earlier battle today (ruling AR11)
    state = play(state, "a")
    state = act(state, {"type": "pass", "seat": BEN}, dice=[3])  # 8: 2 damage
    assert morale(state, BEN) == 2
    state = act(state, {"type": "pass", "seat": BEN})  # Ben passes (-1); Ann is Unable: the Phase ends (AR6)
    assert state["phase"] == "second" and morale(state, BEN) == 1  # nothing refreshed


# ------------------------------------------------------------------ Phases and the end

def test_the_second_phase_begins_with_the_last_defender_and_exhausted_cards_return():
    state = battle([unit("a1", 4)], [unit("b1", 1), unit("b2", 3)])
    state = skirmish(state, "a1", "b1", dice=[3, 4])      # Ben defends; 7 vs 5: a1 Exhausted, b1 Disabled
    state = play(state, "b2")                               # Ann is Unable: no Skirmish (AR3); b2 Exhausted
    # Ann (the defender) is Unable, so is Ben: the first Phase ends.
    assert state["phase"] == "second"
    assert where(state, "a1") == "hand" and where(state, "b2") == "hand" and where(state, "b1") == "disabled"
    assert army.to_act(state) == [BEN]  # the last commander to play a card on Defense


def test_the_battle_ends_when_both_are_unable_again():
    state = battle([unit("a1", 5)], [unit("b1", 1)])
    state = skirmish(state, "a1", "b1", dice=[1, 2])  # 6 vs 3: b1 Killed
    assert state["phase"] == "second"
    state = play(state, "a1")  # Ben is Unable: no Skirmish (AR3), a1 Exhausted
    assert state["phase"] == "over"
    result = army.outcome(state)
    assert result["how"] == "unable" and result["winners"] == [ANN] and result["scores"] == {"0": 1, "1": 0}


def test_the_battle_ends_when_both_pass_in_succession():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = act(state, {"type": "pass", "seat": ANN})
    state = act(state, {"type": "pass", "seat": BEN})
    assert state["phase"] == "over" and army.outcome(state)["how"] == "passed"
    assert army.outcome(state)["winners"] == [] and army.outcome(state)["losers"] == [ANN, BEN]


def test_passes_with_a_skirmish_between_are_not_in_succession():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = act(state, {"type": "pass", "seat": ANN})
    state = skirmish(state, "b1", "a1", dice=[4, 1])
    state = act(state, {"type": "pass", "seat": ANN})
    assert state["phase"] == "first" and army.to_act(state) == [BEN]


def test_passing_while_the_other_commander_is_unable_ends_the_phase():
    state = battle([unit("a1"), unit("a2"), unit("a3")], [unit("b1")])
    state = gm(state, "gm_move_card", card="b1", to="disabled")
    morale = state["commanders"][ANN]["morale"]
    state = act(state, {"type": "pass", "seat": ANN})
    assert state["phase"] == "second"
    assert state["commanders"][ANN]["morale"] == morale - 1
    state = act(state, {"type": "pass", "seat": ANN})
    assert state["phase"] == "over"


# ------------------------------------------------------------------ the winner

def play_area(kill_one: bool):
    """The rulebook's play area: A began at 8, now 6, one Disabled; B began at 5, now 4, one Exhausted."""
    state = battle([unit("a1"), unit("a2"), unit("a3")], [unit("b1"), unit("b2"), unit("b3")],
                   commanders=[commander(progression=10), commander(progression=4)])
    state = gm(state, "gm_morale", target=ANN, amount=-2)
    state = gm(state, "gm_morale", target=BEN, amount=-1)
    state = gm(state, "gm_move_card", card="a1", to="disabled")
    state = gm(state, "gm_move_card", card="b1", to="exhausted")
    if kill_one:
        state = gm(state, "gm_move_card", card="a2", to="killed")
    return gm(state, "gm_end_battle")


def test_rulebook_play_area_without_kills_the_higher_morale_wins():
    result = army.outcome(play_area(kill_one=False))
    assert result["winners"] == [ANN] and result["losers"] == [BEN]
    assert [side["morale"] for side in result["sides"]] == [6, 4]
    assert "higher Morale" in result["reason"]


def test_rulebook_play_area_one_kill_makes_b_the_victor():
    result = army.outcome(play_area(kill_one=True))
    assert result["winners"] == [BEN] and result["scores"] == {"0": 0, "1": 1}


def test_the_outcome_lists_each_side():
    state = battle([unit("a1", 5), unit("a2")], [unit("b1", 1), unit("b2")])
    state = skirmish(state, "a1", "b1", dice=[1, 2])  # b1 would be Killed
    state = gm(state, "gm_end_battle")
    ann, ben = army.outcome(state)["sides"]
    assert ann["kills"] == 1 and ann["exhausted"] == ["a1"] and ann["used"] == ["a1"]
    assert ben["killed"] == ["b1"] and ben["used"] == ["b1"] and ben["hand"] == ["b2"]
    assert ann["winner"] and not ben["winner"]


# ------------------------------------------------------------------ kill saving

def killing_blow(commanders, favors_cards=("b1",)):
    state = battle([unit("a1", 6), unit("a2", 6)], [unit("b1", 1), unit("b2", 1), unit("b3")],
                   commanders=commanders)
    state = play(state, "a1")
    return play(state, "b1", dice=[6, 1])  # 12 vs 2


def test_a_pc_may_pay_a_favor_or_half_an_influence_to_save_a_unit():
    state = killing_blow([commander(), commander(favors=1, influence_halves=1)])
    assert state["step"]["kind"] == "save" and army.to_act(state) == [BEN]
    assert {a.get("pay") for a in army.legal_actions(state)} == {"favor", "influence", None}
    with pytest.raises(IllegalAction, match="not Morale"):
        act(state, {"type": "save", "seat": BEN, "pay": "morale"})
    saved = act(state, {"type": "save", "seat": BEN, "pay": "favor"})
    assert where(saved, "b1") == "disabled" and saved["commanders"][BEN]["favors"] == 0
    saved = act(state, {"type": "save", "seat": BEN, "pay": "influence"})
    assert where(saved, "b1") == "disabled" and saved["commanders"][BEN]["influence_halves"] == 0
    saved = gm(saved, "gm_end_battle")
    assert army.outcome(saved)["sides"][BEN]["spent_influence_halves"] == 1
    lost = act(state, {"type": "accept", "seat": BEN})
    assert where(lost, "b1") == "killed"


def test_an_npc_pays_three_morale_and_only_morale():
    state = killing_blow([commander(), commander(kind="npc", favors=3)])
    assert {a.get("pay") for a in army.legal_actions(state)} == {"morale", None}
    with pytest.raises(IllegalAction, match="NPC"):
        act(state, {"type": "save", "seat": BEN, "pay": "favor"})
    saved = act(state, {"type": "save", "seat": BEN, "pay": "morale"})
    assert where(saved, "b1") == "disabled" and morale(saved, BEN) == 2


def test_saving_is_limited_only_by_what_the_commander_can_pay():
    state = killing_blow([commander(), commander(favors=1)])
    state = act(state, {"type": "save", "seat": BEN, "pay": "favor"})
    state = skirmish(state, "b2", "a2", dice=[1, 6])  # Ben attacks and loses by 10
    assert where(state, "b2") == "killed"  # nothing left to pay: no decision is offered
    npc = killing_blow([commander(), commander(kind="npc", morale=2)])
    assert where(npc, "b1") == "killed"  # 2 Morale cannot pay 3


# ------------------------------------------------------------------ Healers

def test_a_healer_returns_a_card_of_at_most_twice_its_strength_for_one_morale():
    healer = card("h", 1, "healer")
    state = battle([unit("a1", 2), unit("a2", 3), healer, unit("a4")], [unit("b1", 6), unit("b2", 6), unit("b3")])
    state = skirmish(state, "a1", "b1", dice=[6, 1])    # 8 vs 7: a1 Exhausted, b1 Disabled
    state = play(state, "b2")
    state = play(state, "a2", dice=[6, 1])              # 12 vs 4: a2 Killed; then Healers
    assert state["step"]["kind"] == "heal" and army.to_act(state) == [ANN]
    targets = {a["card"] for a in army.legal_actions(state) if a["type"] == "heal"}
    assert targets == {"a1"}
    with pytest.raises(IllegalAction, match="A Healer returns a card from your Disabled or Exhausted pile"):
        act(state, {"type": "heal", "seat": ANN, "healer": "h", "card": "a2"})  # a2 is Killed
    revived = gm(state, "gm_move_card", card="a2", to="disabled")
    with pytest.raises(IllegalAction, match="twice its Strength: H \\(Strength 1\\) returns up to Strength 2"):
        act(revived, {"type": "heal", "seat": ANN, "healer": "h", "card": "a2"})
    state = act(state, {"type": "heal", "seat": ANN, "healer": "h", "card": "a1"})
    assert where(state, "a1") == "hand" and where(state, "h") == "disabled" and morale(state, ANN) == 4


def test_healers_are_offered_attacker_then_defender():
    state = battle([unit("a1", 1), unit("a2", 2), card("ha", 2, "healer")],
                   [unit("b1", 2), unit("b2", 2), card("hb", 2, "healer")])
    state = gm(state, "gm_move_card", card="a2", to="disabled")
    state = gm(state, "gm_move_card", card="b2", to="disabled")
    state = play(state, "a1")
    state = play(state, "b1", dice=[2, 2])
    assert state["step"]["kind"] == "heal" and state["step"]["seat"] == ANN
    state = act(state, {"type": "decline", "seat": ANN})
    assert state["step"]["kind"] == "heal" and state["step"]["seat"] == BEN


# ------------------------------------------------------------------ Rituals

def test_a_ritual_needs_two_units_of_its_path():
    state = battle([ritual("r", "magic"), unit("a1", path="magic"), unit("a2")], [unit("b")])
    assert not any(a["type"] == "ritual" for a in army.legal_actions(state))
    with pytest.raises(IllegalAction, match="two units of the Path of Magic"):
        act(state, {"type": "ritual", "seat": ANN, "card": "r"})


def test_rituals_one_per_phase_and_two_per_battle():
    state = battle([ritual("r1"), ritual("r2"), ritual("r3"), unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = act(state, {"type": "ritual", "seat": ANN, "card": "r1"})
    with pytest.raises(IllegalAction, match="only 1 Ritual each Phase"):
        act(state, {"type": "ritual", "seat": ANN, "card": "r2"})
    state["phase"] = "second"
    state["commanders"][ANN]["uses"]["rituals_phase"] = 0
    state = act(state, {"type": "ritual", "seat": ANN, "card": "r2"})
    state["commanders"][ANN]["uses"]["rituals_phase"] = 0
    with pytest.raises(IllegalAction, match="already played 2 Rituals"):
        act(state, {"type": "ritual", "seat": ANN, "card": "r3"})
    assert where(state, "r1") == "disabled" and where(state, "r2") == "disabled"


def test_ritual_effects_bonus_disable_and_damage():
    bonus = card("rb", None, "ritual", abilities=[{"kind": "ritual_bonus", "amount": 1}])
    damage = card("rd", None, "ritual", abilities=[{"kind": "ritual_damage", "amount": 2}])
    roots = card("rx", None, "ritual", abilities=[{"kind": "ritual_disable"}])
    state = battle([bonus, card("sav", 2, "savant"), unit("a2", 6), damage, roots], [unit("b1"), unit("b2")])
    state = act(state, {"type": "ritual", "seat": ANN, "card": "rb"})
    state = skirmish(state, "sav", "b1", dice=[1, 1])
    sources = [m["source"] for m in state["last"]["offense"]["modifiers"]]
    assert sources == ["Rb", "Savant (bonus from Rb)"] and state["last"]["offense"]["total"] == 6
    state = gm(state, "gm_move_card", card="b2", to="exhausted")
    state["phase"] = "second"
    state["commanders"][ANN]["uses"]["rituals_phase"] = 0
    state["active"] = ANN
    state = gm(state, "gm_move_card", card="sav", to="hand")
    assert state["step"]["seat"] == ANN and state["step"]["kind"] == "offense"
    targets = [a.get("target") for a in army.legal_actions(state) if a["type"] == "ritual" and a["card"] == "rx"]
    assert targets == ["b2"]
    after = act(state, {"type": "ritual", "seat": ANN, "card": "rx", "target": "b2"})
    assert where(after, "b2") == "disabled"
    after = act(state, {"type": "ritual", "seat": ANN, "card": "rd"})
    assert morale(after, BEN) == 3
