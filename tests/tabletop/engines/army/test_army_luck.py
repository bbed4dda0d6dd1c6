"""The luck report of an Army battle (tabletop/engines/army/luck.py): scripted battles whose
rolls are computed by hand in the comments, a physical-dice table with dice the GM set,
and random battles (app and physical dice, GM overrides) that must replay to their end."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from tabletop.engines import get_engine
from tabletop.engines.army import actions, game
from tabletop.engines.army import testing as t
from tabletop.engines.army.luck import LuckError, battle_luck, observe
from tabletop.engines.kernel import GM, ScriptedRng, SeededRng
from tabletop.engines.simulate import SimulationReport, _next_action

ANN, BEN = t.ANN, t.BEN


class Log:
    """A battle played action by action, kept as a table keeps it: config, setup draws, entries."""

    def __init__(self, side0, side1, commanders=None, dice="app"):
        self.config = t.config(side0, side1, commanders, dice)
        self.setup_draws = [ANN]  # the random chooser: Ann
        self.state = game.setup(self.config, ScriptedRng(self.setup_draws))
        self.entries: list[dict] = []
        self.act({"type": "choose_first", "seat": ANN, "first": ANN})

    def act(self, action, dice=()):
        rng = ScriptedRng(list(dice))
        self.state = actions.apply(self.state, action, rng)
        assert rng.remaining == 0, f"{rng.remaining} dice were not used by {action!r}"
        self.entries.append({"seq": len(self.entries) + 1, "action": action, "draws": list(dice)})

    def play(self, card, dice=()):
        self.act({"type": "play", "seat": self.state["step"]["seat"], "card": card}, dice)

    def pass_(self, dice=()):
        self.act({"type": "pass", "seat": self.state["step"]["seat"]}, dice)

    def decline_all(self):
        while self.state["step"] and self.state["step"]["kind"] in ("react", "heal", "power"):
            self.act({"type": "decline", "seat": self.state["step"]["seat"]})

    def luck(self):
        return battle_luck(self.config, self.setup_draws, self.entries, final_state=self.state)


def savant(card_id, strength=3, **fields):
    return t.card(card_id, strength, "savant", **fields)


def test_a_skirmish_3_against_3_with_a_d6_each():
    battle = Log([savant("spear")], [savant("shield")])
    battle.play("spear")
    battle.play("shield", dice=[6, 3])  # Spear rolls 6 (total 9), Shield rolls 3 (total 6)
    luck = battle.luck()
    offense, defense = luck.rolls
    # Offense, Spear 3 + d6 = 6: at least as well is a 6: 1/6.
    assert (offense.seat, offense.kind, offense.dice, offense.value) == (ANN, "skirmish", (6,), 9)
    assert offense.chance == F(1, 6)
    # Before any die, 3 against 3 with equal bases: a tie is re-rolled, so 1/2 by symmetry.
    assert offense.before == F(1, 2)
    # After the 6 (total 9): the Shield needs a 6 to tie (then a re-roll worth 1/2), else loses:
    # 5/6 + 1/6 * 1/2 = 11/12. Swing +5/12.
    assert offense.after == F(11, 12) and offense.swing == F(5, 12)
    # Defense, Shield rolls 3: P(d6 >= 3) = 4/6 = 2/3; its win chance falls from 1 - 11/12 = 1/12 to 0.
    assert (defense.seat, defense.chance, defense.before, defense.after) == (BEN, F(2, 3), F(1, 12), F(0))
    assert defense.swing == F(-1, 12)
    ann, ben = luck.commanders
    # Ann won a skirmish she had 1/2 of winning: +1/2 (her own die +5/12, Ben's die -(-1/12)).
    assert ann.score == F(1, 2) and ann.own_swing == F(5, 12)
    assert ben.score == F(-1, 2) and ben.own_swing == F(-1, 12)
    assert (ann.rolls, ann.mean_chance, ben.mean_chance) == (1, F(1, 6), F(2, 3))


def test_best_of_two_d6_and_a_tie_won_on_base_strength():
    # An Aggressor on Offense rolls 2d6 and keeps the best: a 6 comes up with 11 of 36 pairs.
    # Axe 2 + best of 2d6 against Wall 3 + d6: a tie goes to the Wall (higher base), no re-roll.
    battle = Log([t.card("axe", 2, "aggressor")], [savant("wall", 3)])
    battle.play("axe")
    battle.play("wall", dice=[6, 1, 5])  # Axe keeps 6 (total 8); Wall rolls 5 (total 8): a tie, the Wall wins
    offense, defense = battle.luck().rolls
    assert offense.dice == (6, 1) and offense.value == 8
    assert offense.chance == F(11, 36)
    # Before: P(2 + A > 3 + d) with A the best of 2d6 (k comes up 2k - 1 times in 36):
    # sum over A of (2A - 1)/36 * P(d < A - 1) = (3*0 + 5*1 + 7*2 + 9*3 + 11*4)/216 + 0 = 90/216 = 5/12.
    assert offense.before == F(5, 12)
    # After A = 6 (total 8): the Wall wins on 5 or 6 (a tie is the Wall's), so the Axe keeps 4/6.
    assert offense.after == F(2, 3)
    # The Wall's 5: P(d6 >= 5) = 1/3; its chance goes from 1/3 to 1 (the tie is its own).
    assert (defense.chance, defense.before, defense.after) == (F(1, 3), F(1, 3), F(1))
    assert battle.state["last"]["winner"] == "defense" and battle.state["last"]["tie_break"]


def test_a_tie_with_equal_bases_is_re_rolled_and_each_pair_counts_from_the_odds_again():
    battle = Log([savant("spear")], [savant("shield")])
    battle.play("spear")
    battle.play("shield", dice=[4, 4, 2, 5])  # 7 against 7: re-rolled; then 5 against 8
    first_o, first_d, second_o, second_d = battle.luck().rolls
    # The Spear's 4: P(def < 4) + P(tie) * 1/2 = 3/6 + 1/12 = 7/12.
    assert (first_o.before, first_o.after, first_o.reroll) == (F(1, 2), F(7, 12), 0)
    # The Shield's 4 ties: the re-roll is worth 1/2 again to each (from 5/12 to 1/2).
    assert (first_d.before, first_d.after) == (F(5, 12), F(1, 2))
    # Re-roll: the Spear's 2 (total 5): P(def < 2) + P(tie) * 1/2 = 1/6 + 1/12 = 1/4.
    assert (second_o.reroll, second_o.before, second_o.after, second_o.chance) == (1, F(1, 2), F(1, 4), F(5, 6))
    assert (second_d.before, second_d.after, second_d.chance) == (F(3, 4), F(1), F(1, 3))
    ann, ben = battle.luck().commanders
    # The tied pair sums to 0; the re-roll took Ann from 1/2 to 0: -1/2.
    assert ann.score == F(-1, 2) and ben.score == F(1, 2)
    assert ann.own_swing == F(1, 12) + F(-1, 4)


def test_an_unopposed_roll_counts_its_morale_damage():
    battle = Log([savant("spear"), savant("bow")], [savant("shield")])
    battle.play("spear")
    battle.pass_(dice=[5])  # Unopposed: 3 + 5 = 8: 2 Morale damage
    roll, = battle.luck().rolls
    # At least as well = 2 damage or more = a total of 8 or more = 5 or 6: 1/3. No skirmish, no swing.
    assert (roll.kind, roll.value, roll.chance, roll.before, roll.swing) == ("unopposed", 8, F(1, 3), None, None)
    assert battle.luck().commanders[ANN].score == 0


def test_rout_rolls_succeed_on_5_and_a_miss_is_no_bad_luck_to_measure():
    commanders = [t.commander(name="Ann's commander"), t.commander(name="Ben's commander", morale=1)]
    battle = Log([savant("spear", 5), savant("bow", 5)], [savant("shield", 1), savant("club", 1)], commanders)
    battle.play("spear")
    battle.play("shield", dice=[1, 4])  # 6 against 5: the Shield is Disabled
    battle.decline_all()
    battle.pass_(dice=[6])  # Ben passes on Offense: his last Morale, Routed; Ann rolls for the Shield
    assert battle.state["phase"] == "over"
    rolls = battle.luck().rolls
    rout = rolls[-1]
    assert (rout.kind, rout.seat, rout.value) == ("rout", ANN, 6)
    assert rout.chance == F(1, 3)  # 5+ kills: 2/6, a 6 no better than a 5


def test_a_missed_rout_roll_gets_chance_one():
    commanders = [t.commander(name="Ann's commander"), t.commander(name="Ben's commander", morale=1)]
    battle = Log([savant("spear", 5), savant("bow", 5)], [savant("shield", 1), savant("club", 1)], commanders)
    battle.play("spear")
    battle.play("shield", dice=[1, 4])
    battle.decline_all()
    battle.pass_(dice=[4])
    assert battle.luck().rolls[-1].chance == F(1)


@pytest.mark.parametrize(("die", "chance"), [(5, F(1, 2)), (3, F(1))])
def test_the_rogues_roll_succeeds_on_4(die, chance):
    commanders = [t.commander("savant", "steel", name="Ann's Rogue", options={}), t.commander(name="Ben's commander")]
    battle = Log([savant("spear", 5)], [savant("shield", 1), savant("club", 1)], commanders)
    battle.play("spear")
    battle.play("shield", dice=[4, 1, die])  # 9 against 2: the Shield is Killed, the Rogue rolls
    spear, shield, rogue = battle.luck().rolls
    # Spear 5 + d6 against Shield 1 + d6: the Spear loses only if the Shield's die beats its own by 5 or
    # more (impossible) and a tie goes to the Spear's base 5; it wins unless the Shield rolls 4 or 5
    # more than it: 1 - 3/36 + the 2/36 ties = 35/36. After the Spear's 4 (9 against at most 7): 1.
    assert (spear.before, spear.after, spear.chance) == (F(35, 36), F(1), F(1, 2))
    assert (shield.before, shield.after, shield.swing) == (F(0), F(0), F(0))
    # The Rogue gains a Morale on 4+: P = 3/6 after a success; after a miss nothing does worse: 1.
    assert (rogue.kind, rogue.seat, rogue.value, rogue.chance, rogue.swing) == ("rogue", ANN, die, chance, None)


def test_the_illusionists_d6_is_a_known_modifier_when_the_skirmish_dice_are_rolled():
    commanders = [t.commander("savant", "magic", name="Ann's Illusionist", options={}), t.commander(name="Ben's")]
    battle = Log([savant("spear")], [savant("shield")], commanders)
    battle.play("spear")
    battle.play("shield")
    battle.act({"type": "power", "seat": ANN, "power": "illusionist", "choice": "roll"}, [2])
    battle.act({"type": "power", "seat": ANN, "power": "illusionist", "side": "offense"}, [1, 2])
    illusion, spear, shield = battle.luck().rolls
    # The Illusionist's 2: P(d6 >= 2) = 5/6; no swing (which unit Adds it is chosen after the roll).
    assert (illusion.kind, illusion.chance, illusion.swing) == ("illusionist", F(5, 6), None)
    # Spear 3 + 2 + d6 against Shield 3 + d6, equal bases (ties re-roll): the Spear is 2 ahead.
    # P(lose) = P(b - a >= 3) = 6/36, P(tie) = P(b - a = 2) = 4/36: win = 26/32 = 13/16.
    assert spear.before == F(13, 16)
    # The Spear's 1 (total 6): the Shield wins on 4-6, ties on 3: 2/6 + 1/6 * 13/16 = 15/32.
    assert (spear.after, spear.chance) == (F(15, 32), F(1))
    # The Shield's 2 (total 5): lost; from 17/32 to 0.
    assert (shield.before, shield.after, shield.chance) == (F(17, 32), F(0), F(5, 6))


def test_a_bonus_given_after_the_dice_is_a_choice_not_luck():
    soldier = t.card("soldier", 1, "aggressor", abilities=[t.SOLDIER_BONUS])
    battle = Log([savant("spear")], [t.card("axe", 3, "aggressor"), soldier])
    battle.play("spear")
    battle.play("axe")
    battle.act({"type": "decline", "seat": BEN}, [4, 3])  # 7 against 6: the Spear is winning
    # Ben discards the Soldier: +1 to the Axe, 7 against 7 with equal bases: re-rolled, 6 against 1.
    battle.act({"type": "discard", "seat": BEN, "card": "soldier", "ability": 0, "side": "defense"}, [6, 1])
    first, tied, again, last = battle.luck().rolls
    # At the dice the Spear had won (its chance 1, the Axe's 0): the discard that took it back is not a roll.
    assert (first.before, first.after, tied.before, tied.after) == (F(1, 2), F(7, 12), F(5, 12), F(0))
    # The re-roll counts from the odds with the Axe's +1: P(a - b >= 2) / (1 - P(a - b = 1)) = (10/36) / (31/36).
    assert (again.reroll, again.before) == (1, F(10, 31))
    # After the Spear's 6 (9 against 4 + d6): 4/6 + 1/6 * 10/31 = 67/93.
    assert (again.after, last.before, last.after) == (F(67, 93), F(26, 93), F(0))
    ann, ben = battle.luck().commanders
    # The dice won Ann 1/2 (first pair) + 21/31 (the re-roll): 73/62, more than the one skirmish she won.
    assert ann.score == F(73, 62) == -ben.score


def test_a_roll_the_report_cannot_place_is_listed_with_no_odds():
    state = Log([savant("spear")], [savant("shield")], dice="physical").state
    state = {**state, "step": {"kind": "dice", "seat": GM, "labels": ["A new power's d6 (Ann)"], "given": [],
                               "task": {"do": "roll", "then": {"do": "new_power_rolled", "seat": ANN}}}}
    roll, = observe(state, [3])
    assert (roll.kind, roll.seat, roll.value, roll.chance, roll.swing) == ("other", ANN, 3, None, None)


def test_a_physical_table_with_dice_set_by_the_gm_reads_the_same_rolls():
    battle = Log([savant("spear")], [savant("shield")], dice="physical")
    battle.act({"type": "gm_set_dice", "seat": GM, "values": [6]})
    battle.play("spear")
    battle.play("shield")
    assert battle.state["step"]["kind"] == "dice"  # the Spear's 6 was set; the GM types the Shield's 3
    battle.act({"type": "roll", "seat": GM, "values": "3"})
    offense, defense = battle.luck().rolls
    assert (offense.value, offense.after, defense.value, defense.after) == (9, F(11, 12), 6, F(0))


def test_undone_actions_are_not_rolls():
    battle = Log([savant("spear")], [savant("shield")], dice="physical")
    battle.play("spear")
    battle.play("shield")
    before = copy.deepcopy(battle.state)
    battle.act({"type": "roll", "seat": GM, "values": [1, 1]})
    battle.state = before
    battle.entries.append({"seq": len(battle.entries) + 1, "undo": True})
    battle.act({"type": "roll", "seat": GM, "values": [6, 3]})
    assert [roll.dice for roll in battle.luck().rolls] == [(6,), (3,)]


def test_a_log_that_does_not_reach_the_stored_battle_gets_no_report():
    battle = Log([savant("spear")], [savant("shield")])
    battle.play("spear")
    battle.play("shield", dice=[6, 3])
    battle.entries[-1]["draws"] = [3, 6]
    with pytest.raises(LuckError):
        battle.luck()
    battle.entries[-1]["draws"] = [6]
    with pytest.raises(LuckError):
        battle_luck(battle.config, battle.setup_draws, battle.entries)


def play_random(seed):
    engine = get_engine("army")
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    config = engine.random_config(chooser)
    state = engine.setup(config, rng)
    setup_draws, entries = rng.take_draws(), []
    report = SimulationReport(game="army")
    while engine.outcome(state) is None:
        action = _next_action(engine, state, engine.legal_actions(state), chooser, report)
        state = engine.apply(state, copy.deepcopy(action), rng)
        entries.append({"seq": len(entries) + 1, "action": action, "draws": rng.take_draws()})
    return config, setup_draws, entries, state, report


def test_random_battles_replay_to_their_end_and_the_scores_are_opposite():
    kinds, physical, set_dice = set(), 0, 0
    for seed in range(120):
        config, setup_draws, entries, state, report = play_random(seed)
        physical += config["dice"] == "physical"
        set_dice += report.overrides.get("gm_set_dice", 0)
        luck = battle_luck(config, setup_draws, entries, final_state=state)
        kinds |= {roll.kind for roll in luck.rolls}
        assert luck.commanders[ANN].score == -luck.commanders[BEN].score
        for roll in luck.rolls:
            assert roll.chance is None or 0 < roll.chance <= 1
            assert roll.before is None or 0 <= roll.before <= 1 and 0 <= roll.after <= 1
    assert physical and set_dice
    assert {"skirmish", "unopposed", "rout", "battlemage", "illusionist"} <= kinds
