"""GOT'M combat, scenario by scenario (rulebook § Combat, § Combos and bonuses, § Mercenary abilities)."""

import pytest

from tabletop.engines import gotm
from tabletop.engines.gotm import battle
from tabletop.engines.gotm.testing import ANN, BEN, act, squad_cards, state_with
from tabletop.engines.kernel import IllegalAction


def attack(state, seat, attacker, target, cleave=None):
    return act(state, "attack", seat, attacker=attacker, target=target, cleave=cleave)


def types(state, kind):
    return [a for a in gotm.legal_actions(state) if a["type"] == kind]


# ---------------------------------------------------------------- squads, reveal, equip

def test_squads_need_a_mercenary_and_infirmary_cards_start_wounded():
    state = state_with(hands={ANN: ["2C", "3C", "4C", "JC", "AC"], BEN: ["5D", "6D"]},
                       infirmary={BEN: ["KD"]}, done=(True, True))
    from tabletop.engines.gotm import combat
    combat.start_squads(state)
    assert state["squad_size"] == [3, 3]
    state = act(act(state, "deploy", ANN, card="2C"), "deploy", ANN, card="3C")
    assert {a["card"] for a in types(state, "deploy") if a["seat"] == ANN} == {"JC"}, "the last slot needs a mercenary"
    assert "AC" not in {a["card"] for a in types(state, "deploy")}, "artifacts are not squad cards"
    state = act(state, "deploy", ANN, card="JC")
    for card in ("KD", "5D", "6D"):
        state = act(state, "deploy", BEN, card=card)
    assert state["phase"] == "equip" and squad_cards(state, BEN) == ["KD*", "5D", "6D"]
    assert state["ready"] == [False, True], "Ben has no artifact to equip"
    with pytest.raises(IllegalAction, match="living card of its race"):
        act(state, "equip", ANN, card="AC", slot=5)
    state = act(state, "equip", ANN, card="AC", slot=2)
    assert squad_cards(state, ANN) == ["2C", "3C", "JC@AC"]
    assert state["phase"] == "combat" and state["turn"] == ANN, "the dealer attacks first in round one"


def test_the_opponents_squad_stays_face_down_until_both_are_placed():
    state = state_with(hands={ANN: ["JC", "2C"], BEN: ["JD", "2D"]}, done=(True, True))
    from tabletop.engines.gotm import combat
    combat.start_squads(state)
    state = act(state, "deploy", ANN, card="JC")
    assert "JC" in gotm.hidden_from(state, BEN)
    assert gotm.view(state, BEN)["squads"][ANN]["slots"] == [{"pos": 0, "face_down": True}]


# ---------------------------------------------------------------- targets, taunt, AP check

def test_tanks_taunt_and_the_attacker_chooses_among_several():
    state = state_with(squads={ANN: ["KC"], BEN: ["10D", "2S", "10H"]})
    assert {a["target"] for a in types(state, "attack")} == {0, 2}
    with pytest.raises(IllegalAction, match="hit a tank while one"):
        attack(state, ANN, 0, 1)


@pytest.mark.parametrize("attacker, target, result", [
    ("KC", "JD", "JD+"),        # 13 >= 11: killed
    ("9C", "JD", "JD*"),        # short by 2: wounded
    ("4C", "JD", "JD*"),        # short by 7: wounded
    ("3C", "JD", "JD"),         # short by 8: unharmed
])
def test_the_ap_check(attacker, target, result):
    state = state_with(squads={ANN: [attacker], BEN: [target, "QS"]})
    assert squad_cards(attack(state, ANN, 0, 0), BEN)[0] == result


def test_a_wounded_card_hit_again_dies():
    state = state_with(squads={ANN: ["9C"], BEN: [{"card": "JD", "wounded": True}, "QS"]})
    assert squad_cards(attack(state, ANN, 0, 0), BEN)[0] == "JD+"


def test_a_card_is_pulled_back_until_every_card_has_attacked_and_a_side_with_none_ready_skips():
    state = state_with(squads={ANN: [{"card": "3C", "pulled": True}, "8H"],
                               BEN: ["KS", {"card": "QS", "pulled": True}]})
    state = attack(state, ANN, 1, 0)
    assert state["turn"] == BEN and gotm.to_act(state) == [BEN]
    with pytest.raises(IllegalAction, match="has not attacked yet"):
        attack(state, BEN, 1, 0)
    state = attack(state, BEN, 0, 0)          # every living card has attacked now: all pushed back
    assert not any(s["pulled"] for side in state["squads"] for s in side) and state["turn"] == ANN
    skipping = state_with(squads={ANN: ["9C", "8H", "7D"], BEN: [{"card": "KS", "pulled": True}, "QS"]}, turn=BEN)
    skipping = attack(skipping, BEN, 1, 0)
    skipping = attack(skipping, ANN, 1, 0)
    assert skipping["turn"] == ANN and "Ben has no card ready to attack and skips a turn." in skipping["events"]


# ---------------------------------------------------------------- shielding

def test_shielding_sacrifices_an_adjacent_basic_unit():
    state = state_with(squads={ANN: ["KC"], BEN: ["3D", "QS", "8H"]})
    state = attack(state, ANN, 0, 1)
    assert gotm.to_act(state) == [BEN]
    assert {(a["shield"], a["target"]) for a in types(state, "shield")} == {(0, 1)}, "8 is not a basic unit"
    shielded = act(state, "shield", BEN, shield=0, target=1)
    assert squad_cards(shielded, BEN) == ["3D+", "QS", "8H"]
    unshielded = act(state, "no_shield", BEN)
    assert squad_cards(unshielded, BEN) == ["3D", "QS+", "8H"]


def test_after_the_shield_dies_further_damage_hits_the_original_target():
    state = state_with(squads={ANN: ["7C", "7H"], BEN: ["2D", "JS"]})
    state = act(attack(state, ANN, 0, 1), "shield", BEN, shield=0, target=1)
    assert squad_cards(state, BEN) == ["2D+", "JS*"], "the 7H's Flanking Strike still wounds the target"


# ---------------------------------------------------------------- combos

def test_ancestral_guidance_adds_two_to_the_wearer_and_one_to_neighbours():
    state = state_with(squads={ANN: ["9S", {"card": "JC", "artifact": "AC"}, "2H"], BEN: ["KD", "QD"]})
    assert [battle.value(state, ANN, p) for p in range(3)] == [10, 13, 3]
    assert squad_cards(attack(state, ANN, 1, 0, cleave=1), BEN) == ["KD*", "QD*"], "Hardened Skin, then the cleave"


def test_the_aura_grants_no_new_properties():
    state = state_with(squads={ANN: ["KC"], BEN: ["9S", {"card": "JS", "artifact": "AS"}]})
    assert battle.value(state, BEN, 0) == 10
    assert {a["target"] for a in types(state, "attack")} == {0, 1}, "a nine in the aura is no tank"


def test_coordinated_assault_on_two_targets_counts_as_both_main_attacks():
    state = state_with(squads={ANN: ["7C", "8C"], BEN: ["7D", "5S"]}, hands={BEN: ["JH"]})
    state = act(state, "assault", ANN, attackers=[0, 1], targets=[0, 1])
    assert state["ears"][ANN] == ["7D", "5S"] and state["phase"] == "recruit", "both died: Ann won the round"


def test_coordinated_assault_focus_adds_the_two_aps():
    state = state_with(squads={ANN: ["6C", "7C"], BEN: ["KD", "JD"]})
    state = act(state, "assault", ANN, attackers=[0, 1], targets=[1, 1])
    assert squad_cards(state, BEN) == ["KD", "JD+"], "6+1 and 7+1 make 15 against 11"
    assert all(s["pulled"] for s in state["squads"][ANN])


def test_a_tank_neither_elite_can_kill_alone_draws_both_attacks():
    state = state_with(squads={ANN: ["6C", "7C"], BEN: ["10D", "2D"]})
    assaults = {tuple(a["targets"]) for a in types(state, "assault")}
    assert assaults == {(0, 0)}
    killable = state_with(squads={ANN: ["8C", "9C"], BEN: ["10D", "2D"]})
    assert {tuple(a["targets"]) for a in types(killable, "assault")} == {(0, 0), (0, 1), (1, 0)}


def test_flanking_strike_same_rank_follows_up():
    state = state_with(squads={ANN: ["8C", "8H", "2S"], BEN: ["JD", "QS"]})
    state = attack(state, ANN, 0, 0)
    assert squad_cards(state, BEN)[0] == "JD+", "8 wounds, the other 8 follows and kills"
    assert [s["pulled"] for s in state["squads"][ANN]] == [True, False, False], "not the follower's main attack"


def test_racial_bonus_pair_full_squad_and_fallen_members():
    pair = state_with(squads={ANN: ["7C", "2C", "JH"], BEN: ["KD"]})
    assert [battle.ap(pair, ANN, p) for p in range(3)] == [8, 3, 11]
    full = state_with(squads={ANN: ["7C", "2C", "JC"], BEN: ["KD"]})
    assert [battle.ap(full, ANN, p) for p in range(3)] == [9, 4, 13]
    full["squads"][ANN][1]["dead"] = True
    full["fallen"][ANN] = {"C": 1}
    assert battle.ap(full, ANN, 0) == 10 and battle.ap(full, ANN, 2) == 14


def test_a_racial_bonus_grows_when_a_member_dies_in_combat():
    state = state_with(squads={ANN: ["KC"], BEN: ["2D", "5D"]})
    state = act(attack(state, ANN, 0, 1), "no_shield", BEN)
    assert state["fallen"][BEN] == {"D": 1} and battle.ap(state, BEN, 0) == 4


# ---------------------------------------------------------------- abilities

def test_cleaving_attack_hits_an_adjacent_card_of_the_attackers_choice():
    state = state_with(squads={ANN: ["JC"], BEN: ["4D", "QS", {"card": "8H"}]})
    assert {a["cleave"] for a in types(state, "attack") if a["target"] == 1} == {0, 2}
    state = act(attack(state, ANN, 0, 1, cleave=2), "shield", BEN, shield=0, target=1)
    assert squad_cards(state, BEN) == ["4D+", "QS", "8H*"], "shielding does not stop the cleave"


def test_cleave_kills_five_or_lower_and_spares_an_artifact_wearer():
    state = state_with(squads={ANN: ["JC"], BEN: ["5D", "QS", {"card": "9H", "artifact": "AH"}]})
    state = act(attack(state, ANN, 0, 1, cleave=0), "no_shield", BEN)
    assert squad_cards(state, BEN) == ["5D+", "QS*", "9H@AH"], "AP 11 only wounds the spellcaster"
    spared = attack(state_with(squads={ANN: ["JC"], BEN: ["QS", {"card": "9H", "artifact": "AH"}]}), ANN, 0, 0, 1)
    assert squad_cards(spared, BEN) == ["QS*", "9H@AH"]


def test_chain_lightning_hits_the_whole_squad_without_an_ap_check():
    state = state_with(squads={ANN: ["QC"], BEN: ["5D", {"card": "8H", "wounded": True}, "10S",
                                                   ]})
    state["squads"][BEN].append(battle.slot("JS", False))
    state["squads"][BEN][3]["artifact"] = "AS"
    state["squad_size"][BEN] = 4
    after = act(state, "lightning", ANN, attacker=0)
    assert squad_cards(after, BEN) == ["5D+", "8H+", "10S*", "JS@AS"]


def test_hardened_skin_survives_the_first_killing_blow_and_shrugs_off_the_first_wound():
    state = state_with(squads={ANN: ["KC", "9C"], BEN: ["KD", "QD"]})
    killed_once = attack(state, ANN, 0, 0)
    assert squad_cards(killed_once, BEN)[0] == "KD*"
    wounded_once = attack(state, ANN, 1, 0)
    assert squad_cards(wounded_once, BEN)[0] == "KD" and wounded_once["squads"][BEN][0]["skin"]
    again = state_with(squads={ANN: ["KC"], BEN: [{"card": "KD", "wounded": True, "skin": True}, "QD"]})
    assert squad_cards(attack(again, ANN, 0, 0), BEN)[0] == "KD+"


def test_an_adjacent_ally_of_the_same_race_may_pick_up_a_fallen_artifact():
    state = state_with(squads={ANN: ["KC"], BEN: ["9D", {"card": "6D", "artifact": "AD"}, "JS"]})
    state = attack(state, ANN, 0, 1)
    assert state["pending"]["kind"] == "pickup" and gotm.to_act(state) == [BEN]
    assert [(a["from"], a["to"]) for a in types(state, "pick_up")] == [(1, 0)], "JS is of another race"
    picked = act(state, "pick_up", BEN, **{"from": 1, "to": 0})
    assert squad_cards(picked, BEN) == ["9D@AD", "6D+", "JS"] and picked["turn"] == BEN
    left = act(state, "leave", BEN, **{"from": 1})
    assert squad_cards(left, BEN) == ["9D", "6D+@AD", "JS"]


def test_sixes_are_both_basic_and_advanced():
    shield = state_with(squads={ANN: ["KC"], BEN: ["6D", "QS"]})
    assert types(attack(shield, ANN, 0, 1), "shield"), "a six can shield"
    elite = state_with(squads={ANN: ["6C", "6H", "6S"], BEN: ["JD", "QD"]})
    flanked = attack(elite, ANN, 0, 0)
    assert squad_cards(flanked, BEN)[0] == "JD+", "the other sixes follow the first"
    pair = state_with(squads={ANN: ["6C", "7C"], BEN: ["JD", "QD"]})
    assert types(pair, "assault")
