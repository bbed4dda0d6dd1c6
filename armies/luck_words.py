"""The luck report of an Army battle in words and as a chart: pure functions of a report
(``tabletop/engines/army/luck.py`` ``BattleLuck.as_json()``), no query (ruling LK6).

What a page shows of a roll (its die, Strength and named modifiers adding up to its total, and where it
stands among the rolls it could have been: ruling LK2), of a commander's luck score, and the chart of the
attacker's chance to win each skirmish, roll by roll (``battle_chart``). The reads that find and cache the
reports are in armies/selectors/luck.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import get_format
from django.utils.translation import gettext, gettext_noop

from tabletop.engines.words import say_text

# Words are made where a page shows them (the cached report holds none): translated with gettext there. The
# commander powers (Rogue, Battlemage, Illusionist) keep their rulebook names, as the rules help does.
KIND_TITLES = {
    "skirmish": gettext_noop("Skirmish die"),
    "unopposed": gettext_noop("Unopposed roll"),
    "rout": gettext_noop("Rout roll"),
    "rogue": gettext_noop("Rogue"),
    "battlemage": gettext_noop("Battlemage"),
    "illusionist": gettext_noop("Illusionist"),
    "other": gettext_noop("Roll"),
}


# ---------------------------------------------------------------- words and figures


def fraction(value: dict | None) -> Fraction | None:
    return None if value is None else Fraction(value["exact"])


def percent(value: Fraction | None) -> str:
    return gettext("no odds") if value is None else f"{round(float(value) * 100)} %"


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def better_than(chance: Fraction | None) -> int | None:
    """Of 100 rolls, how many this one beats: 100 x P(doing worse) = 100 x (1 - P(at least as well)).
    Higher is luckier (ruling LK2)."""
    return None if chance is None else round(float(1 - chance) * 100)


def luck_words(chance: Fraction | None) -> str:
    """``luck: 83rd percentile: better than 83 of 100 rolls`` (a 6 on a d6), or "no odds"."""
    beaten = better_than(chance)
    if beaten is None:
        return gettext("no odds")
    # Translators: ordinal is the English ordinal of beaten ("83rd"); a language may write its own from beaten.
    return gettext("luck: %(ordinal)s percentile: better than %(beaten)s of 100 rolls") % {
        "ordinal": ordinal(beaten),
        "beaten": beaten,
    }


def mean_luck_words(mean_chance: Fraction | None) -> str:
    beaten = better_than(mean_chance)
    if beaten is None:
        return gettext("no rolls with odds")
    return gettext("their rolls on average better than %(beaten)s of 100") % {"beaten": beaten}


def total_words(roll: dict) -> str:
    """``die 2 + Strength 5 + Master of Arms: Aggressor 1 = 8``: a skirmish or Unopposed total and its
    parts, each modifier known when the dice were rolled by its name (ruling LK4); "" for other rolls."""
    if roll.get("kept") is None or roll.get("strength") is None:
        return ""
    dice = roll["dice"]
    if len(dice) == 1:
        die = gettext("die %(kept)s") % {"kept": roll["kept"]}
    else:
        die = gettext("best of %(dice)s: %(kept)s") % {
            "dice": gettext(" and ").join(map(str, dice)),
            "kept": roll["kept"],
        }
    parts = [die, gettext("+ Strength %(strength)s") % {"strength": roll["strength"]}]
    parts += [  # a modifier's name is the engine's English line (a card's name stays as it is)
        f"{'+' if amount >= 0 else '−'} {say_text(name, gettext)} {abs(amount)}"
        for name, amount in roll.get("modifiers", [])
    ]
    return f"{' '.join(parts)} = {roll['value']}"


def signed_percent(value: Fraction | None) -> str:
    if value is None:
        return ""
    points = round(float(value) * 100)
    return f"{'+' if points > 0 else '−' if points < 0 else '±'}{abs(points)} %"


def _two_places(value: float) -> str:
    """``0.42``: two decimal places, with the language's decimal separator (0,42 in German)."""
    return f"{value:.2f}".replace(".", get_format("DECIMAL_SEPARATOR"))


def signed_number(value: Fraction) -> str:
    shown = _two_places(abs(float(value)))
    return f"±{shown}" if f"{abs(float(value)):.2f}" == "0.00" else f"{'+' if value > 0 else '−'}{shown}"


def score_words(score: Fraction) -> str:
    """``+0.78 skirmishes above the odds``: what the dice gave beyond what the odds promised."""
    rounded = f"{abs(float(score)):.2f}"
    if rounded == "0.00":
        return gettext("right at the odds")
    shown = _two_places(abs(float(score)))
    if score > 0:
        if rounded == "1.00":
            return gettext("+%(shown)s skirmish above the odds") % {"shown": shown}
        return gettext("+%(shown)s skirmishes above the odds") % {"shown": shown}
    if rounded == "1.00":
        return gettext("−%(shown)s skirmish below the odds") % {"shown": shown}
    return gettext("−%(shown)s skirmishes below the odds") % {"shown": shown}


@dataclass(frozen=True)
class RollLine:
    who: str
    what: str
    label: str
    dice: str
    value: int
    skirmish: int | None
    reroll: int
    total: str  # the die, Strength and each named modifier adding up to ``value`` (skirmish, Unopposed)
    luck: str  # where the roll stands among those it could have been: higher is luckier (ruling LK2)
    swing: str
    before: str
    after: str


@dataclass(frozen=True)
class CommanderLine:
    seat: int
    name: str
    score: Fraction
    words: str
    own_swing: str
    rolls: int
    mean_luck: str


def _names(battle_names: tuple[str, str], seat) -> str:
    return battle_names[seat] if seat in (0, 1) else gettext("the GM")


def report_lines(report: dict, names: tuple[str, str]) -> tuple[list[RollLine], list[CommanderLine]]:
    rolls = [
        RollLine(
            who=_names(names, roll["seat"]),
            what=gettext(KIND_TITLES.get(roll["kind"], KIND_TITLES["other"])),
            label=roll["label"],
            dice=", ".join(str(d) for d in roll["dice"]),
            value=roll["value"],
            skirmish=roll["skirmish"],
            reroll=roll["reroll"],
            total=total_words(roll),
            luck=luck_words(fraction(roll["chance"])),
            swing=signed_percent(fraction(roll["swing"])),
            before=percent(fraction(roll["before"])) if roll["before"] else "",
            after=percent(fraction(roll["after"])) if roll["after"] else "",
        )
        for roll in report["rolls"]
    ]
    commanders = [
        CommanderLine(
            seat=c["seat"],
            name=names[c["seat"]],
            score=fraction(c["score"]),
            words=score_words(fraction(c["score"])),
            own_swing=signed_number(fraction(c["own_swing"])),
            rolls=c["rolls"],
            mean_luck=mean_luck_words(fraction(c["mean_chance"])),
        )
        for c in report["commanders"]
    ]
    return rolls, commanders


# ---------------------------------------------------------------- the chart

CHART_WIDTH, CHART_HEIGHT = 640, 240
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 44, 8, 20, 30
MIN_LABELLED_STEP = 30  # narrower steps than this (many rolls) leave out the swing figures above the bars


@dataclass(frozen=True)
class ChartStep:
    """One roll that moved a skirmish's win chance: the line at ``y1`` then ``y2`` (the attacker's chance
    before and after it), and a bar of the swing between them (``kind``: "up", "down" or "even")."""

    path: str
    bar_x: float
    bar_y: float
    bar_width: float
    bar_height: float
    kind: str
    swing: str
    label_x: float
    label_y: float


@dataclass(frozen=True)
class ChartMark:
    """Where a skirmish (or a re-roll of its tied pair) starts: a line across the chart and its name."""

    x: float
    label: str
    label_x: float


@dataclass(frozen=True)
class BattleChart:
    title: str
    desc: str
    width: int
    height: int
    steps: list[ChartStep]
    marks: list[ChartMark]
    ticks: list[tuple[float, str]]  # (y, "50 %")
    top: float  # the 100 % line's y, and the 0 % line's
    base: float
    left: int
    tick_x: int
    right: float
    bottom: float


def _y(chance: float) -> float:
    return round(CHART_TOP + (1 - chance) * (CHART_HEIGHT - CHART_TOP - CHART_BOTTOM), 1)


def battle_chart(report: dict, names: tuple[str, str]) -> BattleChart | None:
    """The attacker's chance to win each skirmish, roll by roll, as an SVG's shapes (no script, no style
    attribute: the page's CSP), with its text alternative (``desc``). None when no roll moved a chance."""
    moved = [roll for roll in report["rolls"] if roll["before"] is not None]
    if not moved:
        return None
    step = (CHART_WIDTH - CHART_LEFT - CHART_RIGHT) / len(moved)
    steps, marks, sentences, pair = [], [], [], None
    for i, roll in enumerate(moved):
        mine = (lambda p: p) if roll["seat"] == 0 else (lambda p: 1 - p)
        before, after = mine(fraction(roll["before"])), mine(fraction(roll["after"]))
        x1 = CHART_LEFT + i * step
        middle, x2 = x1 + step / 2, x1 + step
        y1, y2 = _y(float(before)), _y(float(after))
        if (roll["skirmish"], roll["reroll"]) != pair:
            pair = (roll["skirmish"], roll["reroll"])
            names_of = {"skirmish": roll["skirmish"], "reroll": roll["reroll"], "before": percent(before)}
            if roll["reroll"]:
                # Translators: S is the short form of Skirmish on the chart's marks ("S2 re-roll 1").
                label = gettext("S%(skirmish)s re-roll %(reroll)s") % names_of
                sentence = gettext("Skirmish %(skirmish)s, re-roll %(reroll)s: %(before)s before the dice") % names_of
            else:
                label = gettext("S%(skirmish)s") % names_of
                sentence = gettext("Skirmish %(skirmish)s: %(before)s before the dice") % names_of
            marks.append(ChartMark(x=round(x1, 1), label=label, label_x=round(x1 + 3, 1)))
            sentences.append(sentence)
        swing = after - before
        who = _names(names, roll["seat"])
        sentences[-1] += gettext("; %(label)s, %(who)s: %(after)s (%(swing)s)") % {
            "label": roll["label"],
            "who": who,
            "after": percent(after),
            "swing": signed_percent(swing),
        }
        bar_width = max(2.0, min(step * 0.3, 24.0))
        steps.append(
            ChartStep(
                path=f"M{x1:.1f} {y1} H{middle:.1f} V{y2} H{x2:.1f}",
                bar_x=round(middle - bar_width / 2, 1),
                bar_y=min(y1, y2),
                bar_width=round(bar_width, 1),
                bar_height=max(abs(y2 - y1), 1.5),
                kind="up" if swing > 0 else "down" if swing < 0 else "even",
                swing=signed_percent(swing) if step >= MIN_LABELLED_STEP else "",
                label_x=round(middle, 1),
                label_y=round(min(y1, y2) - 5, 1),
            )
        )
    title = gettext("%(attacker)s's chance to win each skirmish, roll by roll") % {"attacker": names[0]}
    desc = gettext(
        "%(title)s, from 0 to 100 %%. %(sentences)s. Bars going up are rolls that raised %(attacker)s's chance, "
        "bars going down rolls that lowered it (and so raised %(defender)s's)."
    ) % {"title": title, "sentences": ". ".join(sentences), "attacker": names[0], "defender": names[1]}
    ticks = [(_y(p), f"{round(p * 100)} %") for p in (0.0, 0.5, 1.0)]
    return BattleChart(
        title=title,
        desc=desc,
        width=CHART_WIDTH,
        height=CHART_HEIGHT,
        steps=steps,
        marks=marks,
        ticks=ticks,
        top=_y(1.0),
        base=_y(0.0),
        left=CHART_LEFT,
        tick_x=CHART_LEFT - 4,
        right=CHART_WIDTH - CHART_RIGHT,
        bottom=CHART_HEIGHT - CHART_BOTTOM + 18,
    )
