"""Exact skirmish odds (tabletop/engines/army/odds.py): hand counts, an independent
brute-force enumeration of the dice, properties, and a million-skirmish Monte Carlo."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction as F
from operator import add, sub

import pytest

from tabletop.engines.army.odds import SideDice, skirmish_odds, total_distribution, unopposed_odds

FACES = range(1, 7)


def brute_force(offense: SideDice, defense: SideDice) -> dict:
    """Every face of every die enumerated, the rules applied roll by roll, ties re-rolled."""

    def totals(side):
        dice = {"d6": 1, "best2": 2, "none": 0}[side.dice]
        for faces in itertools.product(FACES, repeat=dice + side.extra_d6):
            rolled = max(faces[:dice]) if dice else 0
            yield side.base_strength + side.modifier + rolled + sum(faces[dice:])

    wins = Counter()
    margins = Counter()
    for a, b in itertools.product(list(totals(offense)), list(totals(defense))):
        m = a - b
        if m == 0 and offense.base_strength == defense.base_strength:
            continue  # re-rolled: this roll decides nothing
        winner = "offense" if m > 0 or (m == 0 and offense.base_strength > defense.base_strength) else "defense"
        wins[winner] += 1
        margins[m] += 1
        if abs(m) >= 3:
            wins[("defense" if m > 0 else "offense") + "_killed"] += 1
    decided = sum(margins.values())
    return {
        "offense_wins": F(wins["offense"], decided),
        "defense_wins": F(wins["defense"], decided),
        "offense_killed": F(wins["offense_killed"], decided),
        "defense_killed": F(wins["defense_killed"], decided),
        "margin": {m: F(w, decided) for m, w in margins.items()},
    }


FIELDS = ("offense_wins", "defense_wins", "offense_killed", "defense_killed", "margin")


def as_dict(odds) -> dict:
    return {name: getattr(odds, name) for name in FIELDS}


# --- hand-computed cases ------------------------------------------------------------


def test_equal_strength_d6_against_d6_is_an_even_fight_after_rerolls():
    odds = skirmish_odds(SideDice(2), SideDice(2))
    assert odds.offense_wins == odds.defense_wins == F(1, 2)
    # of the 30 non-tied rolls, a difference of 3, 4 or 5 one way: 3 + 2 + 1 = 6
    assert odds.defense_killed == odds.offense_killed == F(6, 30)
    assert 0 not in odds.margin  # ties are re-rolled, never decide
    assert odds.margin[1] == F(5, 30) and odds.margin[-5] == F(1, 30)
    assert sum(odds.margin.values()) == 1


def test_strength_3_against_2_counts_the_36_rolls_and_ties_go_to_the_higher_base():
    odds = skirmish_odds(SideDice(3), SideDice(2))
    # offense 3+a, defense 2+b: offense wins when b <= a + 1 (ties included): 2+3+4+5+6+6 = 26
    assert odds.offense_wins == F(26, 36)
    assert odds.defense_wins == F(10, 36)
    assert odds.margin[0] == F(5, 36)  # b = a + 1 for a = 1..5, all won by the offense
    assert odds.defense_killed == F(1 + 2 + 3 + 4, 36)  # b <= a - 2
    assert odds.offense_killed == F(2 + 1, 36)  # b >= a + 4
    assert odds.defense_disabled == F(26 - 10, 36)
    assert odds.offense_disabled == F(10 - 3, 36)
    assert sum(odds.margin.values()) == 1


def test_best_of_two_d6():
    assert total_distribution(SideDice(0, dice="best2")) == {k: F(2 * k - 1, 36) for k in FACES}
    assert total_distribution(SideDice(2, modifier=1, dice="best2"))[9] == F(11, 36)


def test_extra_d6_adds_a_rolled_die():
    dist = total_distribution(SideDice(1, dice="d6", extra_d6=1))
    assert dist == {t: F(6 - abs(t - 8), 36) for t in range(3, 14)}
    assert total_distribution(SideDice(0, dice="none", extra_d6=2))[7] == F(6, 36)


def test_equipment_rolls_no_die():
    assert total_distribution(SideDice(3, modifier=1, dice="none")) == {4: F(1)}
    odds = skirmish_odds(SideDice(3, dice="none"), SideDice(1))
    # offense 3 against 1+b: wins on b = 1, and on the tie b = 2 (base 3 > 1)
    assert odds.offense_wins == F(2, 6)
    assert odds.defense_killed == 0
    assert odds.offense_killed == F(2, 6)  # 1+b >= 6
    assert odds.margin == {1: F(1, 6), 0: F(1, 6), -1: F(1, 6), -2: F(1, 6), -3: F(1, 6), -4: F(1, 6)}


def test_zero_strength_equipment_is_killed_whatever_the_dice_and_the_other_unit_wins():
    equipment = SideDice(0, modifier=9, dice="none", auto_killed=True)
    odds = skirmish_odds(equipment, SideDice(1))
    assert (odds.offense_killed, odds.offense_wins, odds.defense_wins, odds.defense_killed) == (1, 0, 1, 0)
    assert odds.margin == {} and not odds.undecidable
    odds = skirmish_odds(SideDice(5, dice="best2"), equipment)
    assert (odds.defense_killed, odds.offense_wins, odds.defense_disabled) == (1, 1, 0)
    both = skirmish_odds(equipment, equipment)
    assert (both.offense_killed, both.defense_killed, both.offense_wins, both.defense_wins) == (1, 1, 0, 0)


def test_a_win_on_the_base_strength_tie_break_has_margin_0_and_only_disables():
    # Strength 4 (no die) against Strength 1 + 3: always a tie, always the higher base
    odds = skirmish_odds(SideDice(4, dice="none"), SideDice(1, modifier=3, dice="none"))
    assert (odds.offense_wins, odds.defense_killed, odds.defense_disabled, odds.margin) == (1, 0, 1, {0: 1})
    # the modifier does not count towards the base: Strength 1 + 5 loses the tie to Strength 2 + 4
    odds = skirmish_odds(SideDice(1, modifier=5, dice="none"), SideDice(2, modifier=4, dice="none"))
    assert odds.defense_wins == 1


def test_a_stand_off_that_no_reroll_can_break_is_reported_not_looped():
    odds = skirmish_odds(SideDice(2, modifier=1, dice="none"), SideDice(2, modifier=1, dice="none"))
    assert odds.undecidable
    assert odds.offense_wins == odds.defense_wins == odds.offense_killed == odds.defense_killed == 0
    # unequal totals or bases are decided without dice
    assert skirmish_odds(SideDice(2, 1, "none"), SideDice(3, 0, "none")).defense_wins == 1
    assert skirmish_odds(SideDice(5, 0, "none"), SideDice(1, 0, "none")).defense_killed == 1


def test_the_mediating_chaplain_neither_deals_nor_receives_damage():
    chaplain = SideDice(2, no_damage=True)
    for odds in (skirmish_odds(chaplain, SideDice(6, dice="best2")), skirmish_odds(SideDice(6), chaplain)):
        assert odds.no_damage
        assert odds.offense_killed == odds.defense_killed == odds.offense_disabled == odds.defense_disabled == 0
        assert odds.offense_wins + odds.defense_wins == 1  # the dice still pick who is Exhausted
    assert skirmish_odds(chaplain, SideDice(6)).offense_wins == skirmish_odds(SideDice(2), SideDice(6)).offense_wins
    # 0-Strength Equipment dies by its own rule, not by the Chaplain's hand
    assert skirmish_odds(chaplain, SideDice(0, dice="none", auto_killed=True)).defense_killed == 1


def test_unopposed_morale_damage_is_every_four_whole_points():
    # Strength 2 + d6: totals 3..8 -> damage 0,1,1,1,1,2
    assert unopposed_odds(SideDice(2)) == {0: F(1, 6), 1: F(4, 6), 2: F(1, 6)}
    assert unopposed_odds(SideDice(1, modifier=2, dice="none")) == {0: F(1)}
    assert unopposed_odds(SideDice(4, dice="none")) == {1: F(1)}
    assert unopposed_odds(SideDice(1, modifier=-5)) == {0: F(1)}  # never negative
    best = unopposed_odds(SideDice(3, dice="best2"))  # totals 4..9: damage 1 for 4..7, 2 for 8..9
    assert best == {1: F(1 + 3 + 5 + 7, 36), 2: F(9 + 11, 36)}
    assert unopposed_odds(SideDice(9, no_damage=True)) == {0: F(1)}
    # 0-Strength Equipment unopposed fights no skirmish, so it is not Killed and deals its points
    assert unopposed_odds(SideDice(0, modifier=4, dice="none", auto_killed=True)) == {1: F(1)}


def test_the_rulebook_skirmish_spearmen_against_a_soldier():
    # Spearmen (Strength 2, Aggressor on Offense: best of 2d6, Reach +1) against a
    # Soldier (Strength 2, one d6). The book's roll: 2 + 1 + 4 = 7 against 2 + 2 = 4.
    spearmen, soldier = SideDice(2, modifier=1, dice="best2"), SideDice(2)
    assert max(total_distribution(spearmen)) >= 7 and 4 in total_distribution(soldier)
    odds = skirmish_odds(spearmen, soldier)
    # ties (best = d - 1) re-roll: 1+3+5+7+9 = 25 of 216, so 191 rolls decide;
    # the Spearmen win when d <= best: sum (2k-1)k = 161
    assert odds.offense_wins == F(161, 191)
    assert odds.defense_killed == F(90, 191)  # what the GM saw: Soldier Killed 47.1%
    assert odds.offense_killed == F(5, 191)
    assert odds.as_json()["defense_killed"] == {"p": 0.4712, "exact": "90/191"}
    # the discarded Soldier's +1 turns margin 3 (Killed) into 2 (Disabled)
    after = skirmish_odds(spearmen, SideDice(2, modifier=1))
    assert after.offense_wins == F(25, 36)
    assert after.defense_killed == F(29, 90)


# --- against an independent enumeration, and properties -----------------------------


def random_side(rng: random.Random, extra_max: int = 1) -> SideDice:
    return SideDice(
        base_strength=rng.randint(0, 5),
        modifier=rng.randint(-2, 3),
        dice=rng.choice(["d6", "best2", "none"]),
        extra_d6=rng.choice([0, 0, 0, extra_max]),
    )


def test_matches_a_brute_force_enumeration_of_every_die():
    rng = random.Random(7)
    for _ in range(150):
        offense, defense = random_side(rng), random_side(rng)
        odds = skirmish_odds(offense, defense)
        if odds.undecidable:
            assert offense.dice == defense.dice == "none" and not offense.extra_d6 and not defense.extra_d6
            continue
        assert as_dict(odds) == brute_force(offense, defense), (offense, defense)


def test_probabilities_are_consistent_and_swapping_sides_mirrors_the_result():
    rng = random.Random(11)
    for _ in range(400):
        offense, defense = random_side(rng, extra_max=2), random_side(rng, extra_max=2)
        odds, swapped = skirmish_odds(offense, defense), skirmish_odds(defense, offense)
        if odds.undecidable:
            continue
        values = [odds.offense_wins, odds.defense_wins, odds.offense_killed, odds.defense_killed, *odds.margin.values()]
        assert all(0 <= p <= 1 for p in values)
        assert odds.offense_wins + odds.defense_wins == 1
        assert sum(odds.margin.values()) == 1
        assert odds.offense_killed + odds.offense_disabled == odds.defense_wins
        assert odds.defense_killed + odds.defense_disabled == odds.offense_wins
        assert swapped.offense_wins == odds.defense_wins and swapped.defense_killed == odds.offense_killed
        assert swapped.margin == {-m: p for m, p in odds.margin.items()}


def test_cached_results_are_not_shared_between_callers():
    first = skirmish_odds(SideDice(3), SideDice(2))
    first.margin.clear()
    assert sum(skirmish_odds(SideDice(3), SideDice(2)).margin.values()) == 1
    assert skirmish_odds(SideDice(4, 1), SideDice(3, 1)).margin == skirmish_odds(SideDice(3), SideDice(2)).margin


def test_as_json_is_plain_json():
    data = skirmish_odds(SideDice(3, dice="best2", extra_d6=1), SideDice(2)).as_json()
    assert json.loads(json.dumps(data)) == data
    assert all(isinstance(key, str) for key in data["margin"])
    assert data["offense_wins"]["exact"].count("/") == 1
    assert skirmish_odds(SideDice(0, dice="none", auto_killed=True), SideDice(1)).as_json()["offense_killed"] == {
        "p": 1.0,
        "exact": "1/1",
    }


def test_bad_dice_are_refused():
    with pytest.raises(ValueError):
        SideDice(2, dice="2d6")
    with pytest.raises(ValueError):
        SideDice(2, extra_d6=-1)


# --- Monte Carlo: a million skirmishes per configuration, dice rolled one by one ----


def roll(rng: random.Random, side: SideDice, n: int) -> list[int]:
    """n independent totals: each die is its own draw (C-level map, no Python loop per roll)."""
    totals = [side.base_strength + side.modifier] * n
    if side.dice == "d6":
        totals = list(map(add, totals, rng.choices(FACES, k=n)))
    elif side.dice == "best2":
        totals = list(map(add, totals, map(max, rng.choices(FACES, k=n), rng.choices(FACES, k=n))))
    for _ in range(side.extra_d6):
        totals = list(map(add, totals, rng.choices(FACES, k=n)))
    return totals


def simulate(rng: random.Random, offense: SideDice, defense: SideDice, n: int) -> dict:
    """n skirmishes; a tie between equal bases is fought again with fresh dice until decided."""
    margins: Counter = Counter()
    remaining = n
    while remaining:
        rolled = Counter(map(sub, roll(rng, offense, remaining), roll(rng, defense, remaining)))
        remaining = rolled.pop(0, 0) if offense.base_strength == defense.base_strength else 0
        margins.update(rolled)
    tie_to_offense = offense.base_strength > defense.base_strength
    return {
        "offense_wins": sum(w for m, w in margins.items() if m > 0 or (m == 0 and tie_to_offense)) / n,
        "defense_wins": sum(w for m, w in margins.items() if m < 0 or (m == 0 and not tie_to_offense)) / n,
        "offense_killed": sum(w for m, w in margins.items() if m <= -3) / n,
        "defense_killed": sum(w for m, w in margins.items() if m >= 3) / n,
        "margin": {m: w / n for m, w in margins.items()},
    }


MONTE_CARLO = [
    pytest.param(SideDice(2, 1, "best2"), SideDice(2), id="best2-vs-d6-rulebook"),
    pytest.param(SideDice(3, 0, "d6", extra_d6=1), SideDice(4, 1, "best2"), id="extra-d6-vs-best2"),
    pytest.param(SideDice(2), SideDice(2), id="tie-heavy-equal-bases"),
    pytest.param(SideDice(4, 0, "none"), SideDice(2, 1), id="equipment-vs-d6"),
    pytest.param(SideDice(3, 0, "best2", 1), SideDice(3, 0, "best2", 1), id="best2-extra-both-sides"),
]


@pytest.mark.parametrize(("offense", "defense"), MONTE_CARLO)
def test_a_million_simulated_skirmishes_agree_within_a_fifth_of_a_point(offense, defense):
    simulated = simulate(random.Random(20261121), offense, defense, 1_000_000)
    exact = as_dict(skirmish_odds(offense, defense))
    for name in ("offense_wins", "defense_wins", "offense_killed", "defense_killed"):
        assert abs(simulated[name] - exact[name]) < 0.002, name
    assert set(simulated["margin"]) <= set(exact["margin"])
    for m, p in exact["margin"].items():
        assert abs(simulated["margin"].get(m, 0) - p) < 0.002, m
