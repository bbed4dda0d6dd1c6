"""Exact odds of one Army Rules skirmish, and of an Unopposed unit's Morale damage.

Pure: standard library only. Every probability is an exact ``fractions.Fraction``.

Rules as implemented (Army Rules: Skirmishes, Killing a Unit, Morale, Roles), for one
skirmish after both units are revealed and every modifier is known:

- Each side's total is base Strength + modifiers + its dice. Dice are ``"d6"`` (one
  d6), ``"best2"`` (2d6 keep the best: an Aggressor on Offense or a Guardian on
  Defense; the caller applies the negations), ``"none"`` (Equipment), plus
  ``extra_d6`` rolled d6s added to the total (e.g. the Illusionist's power).
- The higher total wins. A tie goes to the higher *base* Strength (printed +
  training, no modifiers), a win by margin 0, so the loser is Disabled (ruling AO2);
  with equal bases everything is re-rolled, so the odds are those of the first roll
  that is not a tie (the geometric series summed). If no roll can ever break the tie
  (no dice on either side, equal totals, equal bases) the result is a stand-off:
  ``undecidable=True``, nobody wins, nobody is harmed (ruling AO1).
- The winner is Exhausted; the loser is Disabled, or Killed when the winner's total
  exceeds it by 3 or more. ``*_killed`` is before any payment to save the unit.
- 0-Strength Equipment (``auto_killed``) is Killed in any skirmish whatever the dice,
  and the other unit wins it without a roll (``margin`` is empty); two of them are
  both Killed and nobody wins (ruling AO3).
- A ``no_damage`` unit (the Mediating Chaplain) neither deals nor receives damage:
  the dice still pick the winner (Exhausted) but the loser is neither Killed nor
  Disabled, flagged by ``no_damage=True`` in the result (ruling AO4). 0-Strength
  Equipment facing it is still Killed (its own rule, not the Chaplain's damage); an
  ``auto_killed`` side that is itself ``no_damage`` is not: it rolls as usual.
- Unopposed: the unit rolls its dice + modifiers and deals floor(total / 4) Morale
  damage, never negative; a ``no_damage`` unit deals none (ruling AO5); 0-Strength
  Equipment is not Killed, since no skirmish is fought (ruling AO6).

Rulings AO1-AO6 are in docs/rulings.md ("Army: skirmish odds").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

DICE = ("d6", "best2", "none")
KILL_MARGIN = 3
MORALE_POINTS = 4
ZERO = Fraction(0)
ONE = Fraction(1)


@dataclass(frozen=True)
class SideDice:
    base_strength: int  # printed Strength (+ training), used for tie-breaks
    modifier: int = 0  # every known modifier summed (Reach +1, discards, powers, GM)
    dice: str = "d6"  # "d6" | "best2" | "none"
    extra_d6: int = 0
    auto_killed: bool = False  # 0-Strength Equipment
    no_damage: bool = False  # Mediating Chaplain

    def __post_init__(self) -> None:
        if self.dice not in DICE:
            raise ValueError(f"dice must be one of {DICE}, not {self.dice!r}")
        if not isinstance(self.extra_d6, int) or self.extra_d6 < 0:
            raise ValueError(f"extra_d6 must be a whole number of dice, not {self.extra_d6!r}")


@dataclass(frozen=True)
class SkirmishOdds:
    offense_wins: Fraction
    defense_wins: Fraction
    offense_killed: Fraction  # probability the offense unit ends Killed (before any kill-saving payment)
    defense_killed: Fraction
    margin: dict[int, Fraction]  # signed margin offense_total - defense_total of the deciding roll -> probability
    undecidable: bool = False
    no_damage: bool = False  # a no_damage unit is engaged: the loser is neither Killed nor Disabled
    offense_disabled: Fraction = field(default=ZERO)
    defense_disabled: Fraction = field(default=ZERO)

    def as_json(self) -> dict:
        """Plain JSON: each probability as ``{"p": float to 4 places, "exact": "p/q"}``."""
        result: dict = {
            name: _json_fraction(getattr(self, name))
            for name in (
                "offense_wins",
                "defense_wins",
                "offense_killed",
                "defense_killed",
                "offense_disabled",
                "defense_disabled",
            )
        }
        result["margin"] = {str(m): _json_fraction(p) for m, p in sorted(self.margin.items())}
        result["undecidable"] = self.undecidable
        result["no_damage"] = self.no_damage
        return result


def _json_fraction(value: Fraction) -> dict:
    return {"p": round(float(value), 4), "exact": f"{value.numerator}/{value.denominator}"}


@lru_cache(maxsize=64)
def _dice_counts(dice: str, extra_d6: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """((roll, ways), ...) sorted by roll, and the number of equally likely outcomes."""
    if dice == "d6":
        counts, outcomes = {k: 1 for k in range(1, 7)}, 6
    elif dice == "best2":
        counts, outcomes = {k: 2 * k - 1 for k in range(1, 7)}, 36
    else:
        counts, outcomes = {0: 1}, 1
    for _ in range(extra_d6):
        grown: dict[int, int] = {}
        for roll, ways in counts.items():
            for face in range(1, 7):
                grown[roll + face] = grown.get(roll + face, 0) + ways
        counts, outcomes = grown, outcomes * 6
    return tuple(sorted(counts.items())), outcomes


def total_distribution(side: SideDice) -> dict[int, Fraction]:
    """Each possible skirmish total of ``side`` (Strength + modifier + dice) -> probability."""
    counts, outcomes = _dice_counts(side.dice, side.extra_d6)
    offset = side.base_strength + side.modifier
    return {offset + roll: Fraction(ways, outcomes) for roll, ways in counts}


@lru_cache(maxsize=1024)
def _decided(offense_dice: tuple[str, int], defense_dice: tuple[str, int], lead: int, tie_winner: int) -> tuple:
    """The odds of a dice-decided skirmish, from what they depend on alone.

    ``lead`` is (offense Strength + modifier) - (defense Strength + modifier);
    ``tie_winner`` is the sign of offense base - defense base (0: ties re-roll).
    Returns (offense_wins, defense_wins, offense_killed, defense_killed, margin items),
    or None when no roll can break the tie.
    """
    offense_counts, offense_outcomes = _dice_counts(*offense_dice)
    defense_counts, defense_outcomes = _dice_counts(*defense_dice)
    ways_by_margin: dict[int, int] = {}
    for a, a_ways in offense_counts:
        for b, b_ways in defense_counts:
            m = a - b + lead
            ways_by_margin[m] = ways_by_margin.get(m, 0) + a_ways * b_ways
    outcomes = offense_outcomes * defense_outcomes
    if tie_winner == 0:
        outcomes -= ways_by_margin.pop(0, 0)  # ties re-roll: condition on the deciding roll
        if outcomes == 0:
            return None
    offense_ways = sum(w for m, w in ways_by_margin.items() if m > 0 or (m == 0 and tie_winner > 0))
    defense_ways = sum(w for m, w in ways_by_margin.items() if m < 0 or (m == 0 and tie_winner < 0))
    defense_killed_ways = sum(w for m, w in ways_by_margin.items() if m >= KILL_MARGIN)
    offense_killed_ways = sum(w for m, w in ways_by_margin.items() if m <= -KILL_MARGIN)
    margin = tuple((m, Fraction(w, outcomes)) for m, w in sorted(ways_by_margin.items()))
    return (
        Fraction(offense_ways, outcomes),
        Fraction(defense_ways, outcomes),
        Fraction(offense_killed_ways, outcomes),
        Fraction(defense_killed_ways, outcomes),
        margin,
    )


def skirmish_odds(offense: SideDice, defense: SideDice) -> SkirmishOdds:
    """Exact odds of one skirmish between two revealed units with every modifier known."""
    offense_doomed = offense.auto_killed and not offense.no_damage
    defense_doomed = defense.auto_killed and not defense.no_damage
    if offense_doomed or defense_doomed:  # ruling AO3: decided at reveal, no roll
        return SkirmishOdds(
            offense_wins=ZERO if offense_doomed else ONE,
            defense_wins=ZERO if defense_doomed else ONE,
            offense_killed=ONE if offense_doomed else ZERO,
            defense_killed=ONE if defense_doomed else ZERO,
            margin={},
        )
    lead = offense.base_strength + offense.modifier - defense.base_strength - defense.modifier
    tie_winner = (offense.base_strength > defense.base_strength) - (offense.base_strength < defense.base_strength)
    decided = _decided((offense.dice, offense.extra_d6), (defense.dice, defense.extra_d6), lead, tie_winner)
    if decided is None:  # ruling AO1: a stand-off
        return SkirmishOdds(ZERO, ZERO, ZERO, ZERO, {0: ONE}, undecidable=True)
    offense_wins, defense_wins, offense_killed, defense_killed, margin = decided
    if offense.no_damage or defense.no_damage:  # ruling AO4: the loser is unharmed
        return SkirmishOdds(offense_wins, defense_wins, ZERO, ZERO, dict(margin), no_damage=True)
    return SkirmishOdds(
        offense_wins,
        defense_wins,
        offense_killed,
        defense_killed,
        dict(margin),
        offense_disabled=defense_wins - offense_killed,
        defense_disabled=offense_wins - defense_killed,
    )


def unopposed_odds(side: SideDice) -> dict[int, Fraction]:
    """Morale damage an Unopposed unit deals -> probability (floor(total / 4), never negative)."""
    if side.no_damage:  # ruling AO5
        return {0: ONE}
    damage: dict[int, Fraction] = {}
    for total, p in total_distribution(side).items():
        points = max(0, total // MORALE_POINTS)
        damage[points] = damage.get(points, ZERO) + p
    return dict(sorted(damage.items()))


def clear_caches() -> None:
    """Forget cached dice and skirmish odds (benchmarks)."""
    _dice_counts.cache_clear()
    _decided.cache_clear()
