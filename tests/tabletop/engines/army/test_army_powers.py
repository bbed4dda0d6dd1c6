"""The twenty commander powers, each its own rule (Army Rules: Commander Powers)."""

import pytest

from tabletop.engines import army
from tabletop.engines.army.common import POWER_TABLE
from tabletop.engines.army.powers import POWERS
from tabletop.engines.army.testing import (
    ANN,
    BEN,
    SOLDIER_BONUS,
    act,
    battle,
    card,
    commander,
    gm,
    play,
    skirmish,
    where,
)
from tabletop.engines.kernel import IllegalAction


def unit(card_id, strength=2, **fields):
    return card(card_id, strength, "savant", **fields)


def soldier(card_id):
    return card(card_id, 2, "aggressor", abilities=[SOLDIER_BONUS], name="Soldier")


def power(state, seat=ANN, **fields):
    name = state["commanders"][seat]["benefit"]
    return {"type": "power", "seat": seat, "power": name, **fields}


def mods(state, side="offense"):
    return [m["source"] for m in state["last"][side]["modifiers"]]


def as_(role, path, **fields):
    return [commander(role, path, name="Ann's commander", **fields), commander(name="Ben's commander")]


def test_the_table_has_twenty_powers_one_per_class():
    assert len(POWER_TABLE) == 20 and set(POWER_TABLE.values()) == set(POWERS)
    for key, each in POWERS.items():
        assert each.__doc__ and "Rulebook:" in each.__doc__ and "uling" in each.__doc__, key


# ------------------------------------------------------------------ Guardian row

def test_tactician_chooses_a_guardian_or_steel_benefit_before_the_battle():
    state = battle([unit("a1"), unit("a2")], [unit("b1")], commanders=as_("guardian", "steel"))
    assert state["step"]["kind"] == "power" and army.to_act(state) == [ANN]
    choices = {a.get("choice") for a in army.legal_actions(state)}
    assert choices == {"battlemage", "oathbound", "shapeshifter", "adept", "chirurgeon", "master_of_arms", "rogue",
                       None}
    adept = act(state, power(state, choice="adept"))
    adept = act(adept, {"type": "choose_first", "seat": ANN, "first": ANN})
    assert adept["commanders"][ANN]["benefit"] == "adept"
    assert any(a.get("role") == "guardian" for a in army.legal_actions(adept))
    lab = act(state, power(state, choice="chirurgeon"))
    assert "granted-0-alchemy_lab" in lab["piles"][ANN]["hand"]
    oath = act(state, power(state, choice="oathbound"))
    assert oath["step"]["kind"] == "power" and oath["step"]["power"] == "oathbound"


def test_battlemage_discards_go_to_exhausted_on_five_plus_once_per_phase():
    state = battle([unit("a1"), soldier("s1"), soldier("s2"), soldier("s3")], [unit("b1"), unit("b2")],
                   commanders=as_("guardian", "magic"))
    state = play(state, "a1")
    state = play(state, "b1")
    state = act(state, {"type": "discard", "seat": ANN, "card": "s1", "ability": 0, "side": "offense"}, dice=[4])
    assert where(state, "s1") == "disabled"  # 4: the power fails
    assert state["step"]["seat"] == ANN  # Ben has nothing to react with: Ann may go on
    state = act(state, {"type": "discard", "seat": ANN, "card": "s2", "ability": 0, "side": "offense"}, dice=[5])
    assert where(state, "s2") == "exhausted"  # 5+: it succeeds ...
    state = act(state, {"type": "discard", "seat": ANN, "card": "s3", "ability": 0, "side": "offense"},
                dice=[6, 6])  # ... once per Phase: no roll for s3; the 2 dice are the skirmish's
    assert where(state, "s3") == "disabled"
    assert state["last"]["offense"]["dice"] == [6] and state["last"]["defense"]["dice"] == [6]


def test_oathbound_unit_killed_is_only_disabled_and_disabled_only_exhausted():
    setup = [{"type": "power", "seat": ANN, "power": "oathbound", "card": "a1"}]
    state = battle([unit("a1", 1), unit("a2", 1)], [unit("b1", 6), unit("b2", 6), unit("b3")],
                   commanders=as_("guardian", "faith", favors=2), prebattle=setup)
    assert state["commanders"][ANN]["oath"] == "a1"
    killed = skirmish(state, "a1", "b1", dice=[1, 6])  # 2 vs 12: would be Killed
    assert where(killed, "a1") == "disabled" and killed["commanders"][ANN]["favors"] == 2
    lost = skirmish(battle([unit("a1", 4), unit("a2")], [unit("b1", 5), unit("b2")],
                           commanders=as_("guardian", "faith"), prebattle=setup), "a1", "b1", dice=[1, 1])
    assert where(lost, "a1") == "exhausted"  # Disabled (5 vs 6) -> only Exhausted


def test_oathbound_designation_is_compulsory_and_secret():
    state = battle([unit("a1"), unit("a2")], [unit("b1")], commanders=as_("guardian", "faith"))
    assert all(a["type"] == "power" for a in army.legal_actions(state))
    state = act(state, {"type": "power", "seat": ANN, "power": "oathbound", "card": "a2"})
    state = act(state, {"type": "choose_first", "seat": ANN, "first": ANN})
    assert army.view(state, ANN)["commanders"][ANN]["oath"] == "A2"
    assert army.view(state, BEN)["commanders"][ANN]["oath"] is None


def test_shapeshifter_changes_one_role_once_per_battle_as_it_is_revealed():
    state = battle([unit("a1"), unit("a2"), unit("a3")], [unit("b1"), unit("b2"), unit("b3")],
                   commanders=as_("guardian", "nature"))
    roles = {a.get("role") for a in army.legal_actions(state) if a["type"] == "play" and a["card"] == "a1"}
    assert roles == {None, "aggressor", "guardian", "healer"}
    state = play(state, "a1", role="aggressor")
    assert army.view(state, BEN)["skirmish"]["offense"] == {"face_down": True, "seat": ANN}
    state = play(state, "b1", dice=[1, 6, 1])  # Aggressor: 2d6 keep the best
    assert state["last"]["offense"]["role"] == "aggressor" and state["last"]["offense"]["kept"] == 6
    state = skirmish(state, "b2", "a2", dice=[1, 2])
    assert not any(a.get("role") for a in army.legal_actions(state))


def test_shapeshifter_may_discard_any_unit_as_a_healer():
    state = battle([unit("a1", 1), unit("a2", 1), unit("a3")], [unit("b1", 4), unit("b2")],
                   commanders=as_("guardian", "nature"))
    state = play(state, "a1")
    state = play(state, "b1", dice=[3, 1])  # 4 vs 5: a1 Disabled; Healers
    assert state["step"]["kind"] == "heal"
    state = act(state, {"type": "heal", "seat": ANN, "healer": "a2", "card": "a1", "shapeshift": True})
    assert where(state, "a1") == "hand" and where(state, "a2") == "disabled"
    assert state["commanders"][ANN]["uses"]["shapeshifter"] == 1


def test_adept_plays_any_card_as_a_guardian_and_guardians_add_one():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")], commanders=as_("guardian", "mind"))
    state = play(state, "a1")
    state = play(state, "b1", dice=[3, 2])
    assert "Adept: Guardian" not in mods(state)
    state = play(state, "b2")
    state = play(state, "a2", role="guardian", dice=[1, 3, 5])  # Guardian on Defense: 2d6 keep best
    assert mods(state, "defense") == ["Adept: Guardian"] and state["last"]["defense"]["total"] == 2 + 5 + 1


# ------------------------------------------------------------------ Healer row

def test_chirurgeon_alchemy_lab_is_disabled_instead_of_killed():
    state = battle([unit("a1")], [unit("b1", 9), unit("b2")], commanders=as_("healer", "steel", favors=1))
    lab = "granted-0-alchemy_lab"
    assert state["cards"][lab]["name"] == "Alchemy Lab" and where(state, lab) == "hand"
    state = skirmish(state, lab, "b1", dice=[1])
    assert where(state, lab) == "disabled" and state["commanders"][ANN]["favors"] == 1
    state = gm(state, "gm_end_battle")
    assert lab not in army.outcome(state)["sides"][ANN]["used"]  # not a roster unit: no upkeep


def test_necromancer_returns_a_disabled_card_at_the_second_phase_and_undead_add_one():
    state = battle([unit("a1", 3)], [unit("b1", 5)], commanders=as_("healer", "magic"))
    state = skirmish(state, "a1", "b1", dice=[1, 1])  # 4 vs 6: a1 Disabled; both Unable: second Phase
    assert state["phase"] == "second" and state["step"]["kind"] == "power" and army.to_act(state) == [ANN]
    state = act(state, power(state, card="a1"))
    assert where(state, "a1") == "hand" and army.to_act(state) == [BEN]
    undead = battle([unit("z", 2, traits=["undead"])], [unit("b1")], commanders=as_("healer", "magic"))
    undead = skirmish(undead, "z", "b1", dice=[1, 1])
    assert mods(undead) == ["Necromancer: Undead"]


def test_cleric_returns_one_killed_card_for_a_morale_once():
    state = battle([unit("a1", 1), unit("a2"), unit("a3")], [unit("b1", 6), unit("b2", 1), unit("b3")],
                   commanders=as_("healer", "faith"))
    state = skirmish(state, "a1", "b1", dice=[1, 6])  # a1 Killed
    state = skirmish(state, "b2", "a2", dice=[1, 1])  # Ann's turn next
    options = [a for a in army.legal_actions(state) if a["type"] == "power"]
    assert options == [{"type": "power", "seat": ANN, "power": "cleric", "card": "a1"}]
    state = act(state, options[0])
    assert where(state, "a1") == "hand" and state["commanders"][ANN]["morale"] == 4
    assert army.invariants(state) == []
    assert not any(a["type"] == "power" for a in army.legal_actions(state))
    spent = battle([unit("a1", 1), unit("a2")], [unit("b1", 6), unit("b2")],
                   commanders=as_("healer", "faith", options={"cleric_available": False}))
    spent = skirmish(spent, "a1", "b1", dice=[1, 6])
    assert where(spent, "a1") == "killed"
    spent = skirmish(spent, "b2", "a2", dice=[1, 2])
    assert not any(a["type"] == "power" for a in army.legal_actions(spent))


def test_animist_plays_two_rituals_each_phase_and_healers_add_one():
    rituals = [card(f"r{n}", None, "ritual", abilities=[{"kind": "ritual_morale", "amount": 1}]) for n in (1, 2, 3)]
    state = battle([*rituals, unit("a1"), unit("a2"), card("h", 2, "healer")], [unit("b1")],
                   commanders=as_("healer", "nature"))
    state = act(state, {"type": "ritual", "seat": ANN, "card": "r1"})
    state = act(state, {"type": "ritual", "seat": ANN, "card": "r2"})
    with pytest.raises(IllegalAction, match="only 2 Rituals each Phase"):
        act(state, {"type": "ritual", "seat": ANN, "card": "r3"})
    state = skirmish(state, "h", "b1", dice=[1, 1])
    assert mods(state) == ["Animist: Healer"]


def test_mender_reveals_two_random_cards_and_may_disable_one_for_a_morale():
    state = battle([unit("a1")], [unit("b1"), unit("b2"), unit("b3")], commanders=as_("healer", "mind"))
    assert state["step"]["power"] == "mender" and {a["type"] for a in army.legal_actions(state)} == {"power",
                                                                                                      "decline"}
    state = act(state, power(state, reveal=True), dice=[2, 0])  # picks b3, then b1
    assert state["revealed"][BEN] == ["b3", "b1"]
    assert [c["name"] for c in army.view(state, ANN)["commanders"][BEN]["revealed"]] == ["B3", "B1"]
    assert set(army.hidden_from(state, ANN)) == {"b2"}
    assert {a.get("card") for a in army.legal_actions(state)} == {"b3", "b1", None}
    state = act(state, power(state, card="b1"))
    assert where(state, "b1") == "disabled" and state["commanders"][ANN]["morale"] == 4
    assert state["step"]["kind"] == "choose_first"


# ------------------------------------------------------------------ Aggressor row

def test_master_of_arms_plays_any_card_as_an_aggressor_adding_one():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")], commanders=as_("aggressor", "steel"))
    state = play(state, "a1", role="aggressor")
    state = play(state, "b1", dice=[1, 4, 2])
    assert state["last"]["offense"]["dice_mode"] == "best2"
    assert mods(state) == ["Master of Arms: Aggressor"] and state["last"]["offense"]["total"] == 2 + 4 + 1


def test_evoker_adds_two_three_times_a_battle_once_a_skirmish():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")], commanders=as_("aggressor", "magic"))
    state = play(state, "a1")
    state = play(state, "b1")
    sides = {a["side"] for a in army.legal_actions(state) if a["type"] == "power"}
    assert sides == {"offense", "defense"}
    state = act(state, power(state, side="defense"), dice=[3, 3])  # Ben has nothing: the dice follow
    assert state["step"] is None or not any(a["type"] == "power" for a in army.legal_actions(state))
    assert state["last"]["defense"]["modifiers"][0]["source"].startswith("Evoker")
    assert state["last"]["defense"]["total"] == 7 and where(state, "a1") == "disabled"
    state["commanders"][ANN]["uses"]["evoker"] = 3
    state = play(state, "b2")
    state = play(state, "a2", dice=[1, 2])  # three used: no window opens for Ann
    assert state["last"]["defense"]["modifiers"] == []


def test_dervish_adds_one_against_the_chosen_path_or_role():
    state = battle([unit("a1"), unit("a2")], [unit("b1", path="magic"), unit("b2", path="nature")],
                   commanders=as_("aggressor", "faith", options={"dervish_target": {"path": "magic"}}))
    state = skirmish(state, "a1", "b1", dice=[1, 1])
    assert mods(state) == ["Dervish: against Path of Magic"]
    state = skirmish(state, "b2", "a2", dice=[1, 2])
    assert mods(state, "defense") == []


def test_dervish_without_a_target_for_the_day_chooses_one_before_the_battle():
    state = battle([unit("a1")], [unit("b1")], commanders=as_("aggressor", "faith", options={}))
    choices = army.legal_actions(state)
    assert len(choices) == 5 + 6 and not any(a["type"] == "decline" for a in choices)
    state = act(state, power(state, role="savant"))
    state = act(state, {"type": "choose_first", "seat": ANN, "first": ANN})
    state = skirmish(state, "a1", "b1", dice=[1, 1])
    assert mods(state) == ["Dervish: against Savant units"]


def test_scout_units_on_offense_gain_ranged_or_add_one_if_already_ranged():
    spear = card("spear", 3, "savant", traits=["reach"])
    state = battle([unit("a1"), unit("bow", traits=["ranged"])], [spear, unit("b2")],
                   commanders=as_("aggressor", "nature"))
    state = skirmish(state, "a1", "spear", dice=[1, 1])
    assert mods(state, "defense") == []  # the Spearmen's Reach meets a Ranged unit
    assert "ranged" in state["last"]["offense"]["traits"]
    state = skirmish(state, "b2", "bow", dice=[2, 1])
    assert mods(state, "defense") == []  # Scout's power works on Offense only
    state2 = battle([unit("bow", traits=["ranged"])], [unit("b1")], commanders=as_("aggressor", "nature"))
    state2 = skirmish(state2, "bow", "b1", dice=[1, 1])
    assert mods(state2) == ["Scout: already Ranged"]


def test_mindblade_adds_one_after_a_win_two_after_two_and_stops_after_a_loss():
    state = battle([unit("a1"), unit("a2"), unit("a3"), unit("a4")],
                   [unit("b1"), unit("b2"), unit("b3"), unit("b4")], commanders=as_("aggressor", "mind"))
    state = skirmish(state, "a1", "b1", dice=[3, 1])
    state = skirmish(state, "b2", "a2", dice=[1, 1])
    assert mods(state, "defense") == ["Mindblade: 1 win in a row"]
    state = skirmish(state, "a3", "b3", dice=[1, 1])
    assert mods(state) == ["Mindblade: 2 wins in a row"]
    state = skirmish(state, "b4", "a4", dice=[6, 1])  # 8 vs 5: Ann loses
    assert state["commanders"][ANN]["streak"] == 0


# ------------------------------------------------------------------ Savant row

@pytest.mark.parametrize("die, gained", [(4, 1), (3, 0)])
def test_rogue_gains_a_morale_on_four_plus_when_killing(die, gained):
    state = battle([unit("a1", 6), unit("a2")], [unit("b1", 1), unit("b2")], commanders=as_("savant", "steel"))
    state = skirmish(state, "a1", "b1", dice=[1, 1, die])
    assert where(state, "b1") == "killed" and state["commanders"][ANN]["morale"] == 5 + gained


def test_illusionist_rolls_a_d6_for_either_unit_twice_a_battle():
    state = battle([unit("a1"), unit("a2"), unit("a3")], [unit("b1"), unit("b2"), unit("b3")],
                   commanders=as_("savant", "magic"))
    state = play(state, "a1")
    state = play(state, "b1")
    state = act(state, power(state, choice="roll"), dice=[5])  # the Illusionist's d6 first (ruling AR23) ...
    state = act(state, power(state, side="offense"), dice=[1, 1])  # ... then the unit; then the skirmish
    assert mods(state) == ["Illusionist (Ann's commander, d6 = 5)"] and state["last"]["offense"]["total"] == 8
    state["commanders"][ANN]["uses"]["illusionist"] = 2
    state = play(state, "b2")
    state = play(state, "a2", dice=[1, 2])
    assert mods(state, "defense") == []


def test_chaplain_mediating_chaplain_neither_deals_nor_receives_damage():
    chaplain = "granted-0-mediating_chaplain"
    state = battle([unit("a1")], [unit("b1", 9), unit("b2", 1)], commanders=as_("savant", "faith"))
    assert where(state, chaplain) == "hand"
    lost = skirmish(state, chaplain, "b1", dice=[1, 6])  # 3 vs 15
    assert where(lost, chaplain) == "exhausted" and where(lost, "b1") == "exhausted"
    won = skirmish(state, chaplain, "b2", dice=[6, 1])  # 8 vs 2
    assert where(won, "b2") == "exhausted"
    unopposed = play(state, chaplain)
    unopposed = act(unopposed, {"type": "pass", "seat": BEN}, dice=[6])
    assert unopposed["last"]["damage"] == 0 and unopposed["commanders"][BEN]["morale"] == 5


def test_shaman_elemental_and_savant_units_add_one_without_triggering_the_savant():
    state = battle([unit("sav"), card("fire", 2, "aggressor", traits=["elemental"])], [unit("b1"), unit("b2")],
                   commanders=as_("savant", "nature"))
    state = skirmish(state, "sav", "b1", dice=[1, 1])
    assert mods(state) == ["Shaman: Elemental or Savant"]  # a commander bonus: no Savant +2
    state = skirmish(state, "b2", "fire", dice=[1, 1])
    assert mods(state, "defense") == ["Shaman: Elemental or Savant"]


def test_etherealist_exchanges_a_played_unit_with_one_from_hand_once():
    state = battle([unit("a1", 1), unit("a2", 5), card("rit", None, "ritual", "magic",
                                                       abilities=[{"kind": "ritual_morale", "amount": 1}])],
                   [unit("b1"), unit("b2")], commanders=as_("savant", "mind"))
    state = play(state, "a1")
    state = play(state, "b1")
    exchanges = {a["card"] for a in army.legal_actions(state) if a["type"] == "power"}
    assert exchanges == {"a2"}  # a Ritual could not be played into the skirmish
    state = act(state, power(state, card="a2"), dice=[1, 1])
    assert state["last"]["offense"]["name"] == "A2" and where(state, "a1") == "hand"
    assert state["commanders"][ANN]["uses"]["etherealist"] == 1


def test_commander_bonuses_never_trigger_the_savant():
    state = battle([unit("a1")], [unit("b1")], commanders=as_("aggressor", "magic"))  # Evoker
    state = play(state, "a1")
    state = play(state, "b1")
    state = act(state, power(state, side="offense"), dice=[1, 1])
    assert mods(state) == ["Evoker (Ann's commander)"] and state["last"]["offense"]["total"] == 5


def test_a_power_the_commander_lacks_is_refused():
    state = battle([unit("a1")], [unit("b1")])
    state = play(state, "a1")
    with pytest.raises(IllegalAction, match="do not have the Evoker power"):
        act(state, {"type": "power", "seat": BEN, "power": "evoker", "side": "offense"})
