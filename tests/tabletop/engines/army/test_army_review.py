"""Army Rules points from a review against the rulebook (issue 15): each test failed before its fix.

Rulings AR3, AR14, AR21, AR22, AR23, AR24 (amended) and AR28-AR29 (docs/rulings.md).
"""

from tabletop.engines import army
from tabletop.engines.army.testing import ANN, BEN, SOLDIER_BONUS, act, battle, card, commander, gm, play, where
from tabletop.engines.kernel import GM


def unit(card_id, strength=2, **fields):
    """A plain unit: a Savant rolls one d6 on Offense and Defense alike."""
    return card(card_id, strength, "savant", **fields)


def zero_equipment(card_id):
    return card(card_id, 0, "equipment")


def morale(state, seat):
    return army.view(state, GM)["commanders"][seat]["morale"]


def sound(state):
    assert army.invariants(state) == []
    return state


def ann_as(role, path, **fields):
    return [commander(role, path, name="Ann's commander", **fields), commander(name="Ben's commander")]


# ------------------------------------------------------------------ 1. a rout keeps a pending save

def test_a_rout_leaves_the_opponent_the_chance_to_save_a_unit_that_would_be_killed():
    """Rulebook: "A Commander may spend a Favor or 1/2 Influence (PCs) or 3 Morale (NPCs) to have a
    unit that would be Killed instead become Disabled." / "A Commander reduced to 0 Morale is
    Routed - they lose the Battle immediately".

    Both 0-Strength Equipment are Killed; Ann (an NPC) pays her last 3 Morale to save hers and is
    Routed. Ben's unit was Killed before the rout: he may still pay his Favor for it.
    """
    state = battle([zero_equipment("ea"), unit("a2")], [zero_equipment("eb"), unit("b2")],
                   commanders=[commander(kind="npc", morale=3, name="Ann's commander"),
                               commander(favors=1, name="Ben's commander")])
    state = play(state, "ea")
    state = sound(play(state, "eb"))  # no dice: both are Killed automatically
    assert state["step"]["kind"] == "save" and state["step"]["seat"] == ANN
    state = sound(act(state, {"type": "save", "seat": ANN, "pay": "morale"}))
    assert state["commanders"][ANN]["routed"] and morale(state, ANN) == 0
    assert state["step"]["kind"] == "save" and army.to_act(state) == [BEN] and state["step"]["card"] == "eb"
    state = sound(act(state, {"type": "save", "seat": BEN, "pay": "favor"}, dice=[6]))  # then the rout roll
    assert where(state, "eb") == "disabled" and state["commanders"][BEN]["favors"] == 0
    assert where(state, "ea") == "killed"  # saved before the rout, Disabled, then rolled for: 6 Kills
    result = army.outcome(state)
    assert result["winners"] == [BEN] and result["sides"][BEN]["spent_favors"] == 1


def test_a_rout_by_the_gm_leaves_a_save_being_decided_open():
    """Rulebook: "A Commander may spend a Favor ... to have a unit that would be Killed instead
    become Disabled." The GM routs Ann while Ben decides whether to pay: Ben still decides."""
    state = battle([unit("a1", 6), unit("a2")], [unit("b1", 1), unit("b2")],
                   commanders=[commander(name="Ann's commander"), commander(favors=1, name="Ben's commander")])
    state = play(state, "a1")
    state = play(state, "b1", dice=[6, 1])  # 12 vs 2: b1 would be Killed
    assert state["step"]["kind"] == "save" and army.to_act(state) == [BEN]
    state = sound(gm(state, "gm_morale", target=ANN, amount=-5))
    assert state["commanders"][ANN]["routed"] and state["phase"] != "over"
    assert state["step"]["kind"] == "save" and state["step"]["card"] == "b1"
    state = sound(act(state, {"type": "save", "seat": BEN, "pay": "favor"}, dice=[2]))  # rout roll for a1: 2
    assert where(state, "b1") == "disabled" and where(state, "a1") == "exhausted"
    assert army.outcome(state)["winners"] == [BEN]


def test_once_one_commander_is_routed_the_other_cannot_be_routed_too():
    """Rulebook: "A Commander reduced to 0 Morale is Routed - they lose the Battle immediately".
    Ben (an NPC) pays his last 3 Morale for a unit Killed before Ann's rout: he is not Routed."""
    state = battle([zero_equipment("ea"), unit("a2")], [zero_equipment("eb"), unit("b2")],
                   commanders=[commander(kind="npc", morale=3, name="Ann's commander"),
                               commander(kind="npc", morale=3, name="Ben's commander")])
    state = play(state, "ea")
    state = play(state, "eb")
    state = act(state, {"type": "save", "seat": ANN, "pay": "morale"})
    state = sound(act(state, {"type": "save", "seat": BEN, "pay": "morale"}, dice=[1]))
    assert state["phase"] == "over" and not state["commanders"][BEN]["routed"] and morale(state, BEN) == 0
    assert army.outcome(state)["winners"] == [BEN]


# ------------------------------------------------------------------ 2. the Cleric after the last kill

def cleric_battle():
    """Ben Kills Ann's only unit; then nobody plays on Offense again: the battle ends without another
    Offense decision or reaction window for Ann."""
    state = battle([unit("a1", 1)], [unit("b1", 6), unit("b2")], commanders=ann_as("healer", "faith"),
                   first=BEN)
    state = play(state, "b1")
    state = play(state, "a1", dice=[6, 1])  # 12 vs 2: a1 Killed (no Favor to save it)
    assert where(state, "a1") == "killed" and army.to_act(state) == [BEN]  # Ann is Unable
    state = act(state, {"type": "pass", "seat": BEN})  # Ann is Unable: the first Phase ends
    assert state["phase"] == "second" and army.to_act(state) == [BEN]
    return act(state, {"type": "pass", "seat": BEN})  # and the second: the battle ends


def test_the_cleric_is_offered_after_the_battles_last_kill():
    """Rulebook: Cleric "Once per Day, you may return 1 Killed card to your hand by spending a
    Morale." / Killed: "that card is removed from play permanently at the end of the Battle"."""
    state = sound(cleric_battle())
    assert state["phase"] == "second" and state["step"]["kind"] == "power" and army.to_act(state) == [ANN]
    assert army.legal_actions(state) == [{"type": "power", "seat": ANN, "power": "cleric", "card": "a1"},
                                         {"type": "decline", "seat": ANN}]
    assert "before the battle ends" in army.view(state, BEN)["turn_text"]
    returned = sound(act(state, army.legal_actions(state)[0]))
    assert returned["phase"] == "over" and where(returned, "a1") == "hand" and morale(returned, ANN) == 4
    result = army.outcome(returned)
    assert result["sides"][ANN]["cleric_used"] and result["scores"] == {"0": 0, "1": 0}
    assert result["winners"] == [ANN]  # no kills left; Morale 4 against Ben's 3
    declined = sound(act(state, {"type": "decline", "seat": ANN}))
    assert declined["phase"] == "over" and army.outcome(declined)["winners"] == [BEN]


def test_the_cleric_is_offered_after_the_rout_rolls_too():
    """Rulebook: Cleric "Once per Day, you may return 1 Killed card to your hand by spending a
    Morale." A rout ends the battle: the winning Cleric's last chance comes after the rout rolls."""
    state = battle([unit("a1", 1), unit("a2")], [unit("b1", 6), unit("b2")], commanders=ann_as("healer", "faith"),
                   first=BEN)
    state = play(state, "b1")
    state = play(state, "a1", dice=[6, 1])  # a1 Killed
    state = sound(gm(state, "gm_morale", target=BEN, amount=-5, dice=[1]))  # Ben Routed; the roll for b1: 1
    assert state["commanders"][BEN]["routed"] and where(state, "b1") == "exhausted"
    assert state["step"]["kind"] == "power" and state["step"]["power"] == "cleric" and state["phase"] != "over"
    state = sound(act(state, {"type": "power", "seat": ANN, "power": "cleric", "card": "a1"}))
    assert state["phase"] == "over" and where(state, "a1") == "hand" and army.outcome(state)["winners"] == [ANN]


def test_the_gm_ending_the_battle_offers_the_cleric_nothing():
    """Ruling H3: the GM's end is at once; the GM moves a card back if the table agrees."""
    state = battle([unit("a1", 1), unit("a2")], [unit("b1", 6), unit("b2")], commanders=ann_as("healer", "faith"),
                   first=BEN)
    state = play(state, "b1")
    state = play(state, "a1", dice=[6, 1])
    state = gm(state, "gm_end_battle")
    assert state["phase"] == "over" and where(state, "a1") == "killed"


# ------------------------------------------------------------------ 3. the Oathbound unit discarded

def oathbound(side0, side1, designated):
    return battle(side0, side1, commanders=ann_as("guardian", "faith"),
                  prebattle=[{"type": "power", "seat": ANN, "power": "oathbound", "card": designated}])


def test_the_oathbound_unit_discarded_by_its_own_commander_is_only_exhausted():
    """Rulebook: Oathbound "Each Battle, designate one unit. If that unit is Killed, it is only
    Disabled. If it is Disabled (not including your power), it is only Exhausted." / Discard:
    "you place it in your Disabled pile from your hand"."""
    soldier = card("s1", 2, "aggressor", abilities=[SOLDIER_BONUS], name="Soldier")
    state = oathbound([unit("a1"), soldier], [unit("b1"), unit("b2")], "s1")
    state = play(state, "a1")
    state = play(state, "b1")
    state = sound(act(state, {"type": "discard", "seat": ANN, "card": "s1", "ability": 0, "side": "offense"},
                      dice=[2, 2]))  # 5 vs 4
    assert where(state, "s1") == "exhausted"
    assert any("oathbound: discarded, it is only Exhausted" in line for line in state["events"])


def test_the_oathbound_healer_discarded_to_heal_is_only_exhausted():
    """Rulebook: "You may spend a Morale and discard a unit with the Healer role from your hand after
    any Skirmish" / Oathbound: "If it is Disabled (not including your power), it is only Exhausted"."""
    state = oathbound([unit("a1", 1), card("h", 1, "healer"), unit("a3")], [unit("b1", 4), unit("b2")], "h")
    state = play(state, "a1")
    state = play(state, "b1", dice=[3, 1])  # 4 vs 5: a1 Disabled; Healers
    state = sound(act(state, {"type": "heal", "seat": ANN, "healer": "h", "card": "a1"}))
    assert where(state, "a1") == "hand" and where(state, "h") == "exhausted"


# ------------------------------------------------------------------ 4. the Rogue and rout rolls

def test_the_rogue_rolls_for_a_unit_killed_by_a_rout_roll():
    """Rulebook: Rogue "When you Kill an enemy unit, gain a Morale on a 4+." / Rout: "The opposing
    Commander rolls 1d6 for each of the Routed Commander's units in the Disabled or Exhausted piles.
    On a 5+, the unit is Killed." """
    state = battle([unit("a1", 9), unit("a2")], [unit("b1"), unit("b2")],
                   commanders=[commander("savant", "steel", name="Ann's commander"),
                               commander(morale=2, name="Ben's commander")])
    state = gm(state, "gm_move_card", card="b1", to="disabled")
    state = play(state, "a1")
    # Unopposed 9 + 1 = 10: 2 Morale damage routs Ben; the rout roll for b1 is 5 (Killed); the Rogue 4.
    state = sound(act(state, {"type": "pass", "seat": BEN}, dice=[1, 5, 4]))
    assert state["phase"] == "over" and where(state, "b1") == "killed"
    assert morale(state, ANN) == 6 and army.outcome(state)["sides"][ANN]["morale"] == 6


# ------------------------------------------------------------------ 5. the Illusionist rolls, then chooses

def test_the_illusionist_rolls_first_then_chooses_which_unit_adds_it():
    """Rulebook: Illusionist "Twice per Battle, you may roll a d6 and have either unit in a Skirmish
    Add the result. You may not do this more than once per Skirmish." """
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")], commanders=ann_as("savant", "magic"))
    state = play(state, "a1")
    state = play(state, "b1")
    uses = [a for a in army.legal_actions(state) if a["type"] == "power"]
    assert uses == [{"type": "power", "seat": ANN, "power": "illusionist", "choice": "roll"}]  # no unit yet
    state = sound(act(state, uses[0], dice=[2]))
    assert state["step"]["kind"] == "power" and army.to_act(state) == [ANN]
    assert "rolls 2" in state["events"][-1]
    assert army.view(state, BEN)["turn_text"] == "Ann's commander chooses which unit Adds the Illusionist's d6 (2)"
    sides = {a["side"] for a in army.legal_actions(state)}
    assert sides == {"offense", "defense"}  # the roll is made: no decline
    state = sound(act(state, {"type": "power", "seat": ANN, "power": "illusionist", "side": "defense"},
                      dice=[4, 1]))  # then the skirmish dice
    assert state["last"]["defense"]["modifiers"][0]["amount"] == 2
    assert state["last"]["defense"]["total"] == 2 + 1 + 2 and state["last"]["offense"]["total"] == 6
    assert state["commanders"][ANN]["uses"]["illusionist"] == 1


# ------------------------------------------------------------------ 6. AR3: an Unable defender

def test_a_defender_unable_to_play_does_not_leave_the_attacker_unopposed():
    """Rulebook: "If a commander could play a card on Defense but does not, the attacker's unit is
    considered Unopposed." / Unopposed "(the defender Passed)" / Unable "the response when you would
    play a card in a Skirmish, but cannot do so." """
    ritual = card("r", None, "ritual", abilities=[{"kind": "ritual_morale", "amount": 2}])
    state = battle([unit("a", 6), unit("a2")], [ritual])
    state = sound(play(state, "a"))  # no die is rolled
    assert morale(state, BEN) == 5 and where(state, "a") == "exhausted"
    assert state["last"]["unable"] and not state["last"]["unopposed"] and state["last"]["winner"] is None
    assert "Unable to play on Defense" in state["last"]["result"]
    assert army.to_act(state) == [ANN]  # Ben is Unable on Offense too: Ann plays again
    passed = battle([unit("a", 6), unit("a2")], [unit("b")])
    passed = play(passed, "a")
    passed = act(passed, {"type": "pass", "seat": BEN}, dice=[2])  # a Pass is Unopposed: 8, 2 damage
    assert passed["last"]["unopposed"] and morale(passed, BEN) == 3
