"""Luck reports of finished Army battles for the pages: reads only, nothing new stored (ruling LK6).

The report itself is pure (``tabletop/engines/army/luck.py``): it replays the battle's log.
Here it is read for three pages, always from battles that count (a finished battle whose
table is not a what-if: ``Table.objects.counted()``):

* the battle result page: every roll (its die, Strength and named modifiers adding up to its total,
  and where it stands among the rolls it could have been: ruling LK2), each commander's luck score,
  and a chart of the attacker's chance to win each skirmish, roll by roll (``battle_chart``);
* the commander page: their luck over the campaign, a line per battle;
* the GM's armies page (``armies:list``, the GM's view of the whole campaign's armies and
  battles): every commander's luck, luckiest first. Not the campaign home: its panels share a
  pinned query budget that one more read would break.

A replay costs a few milliseconds a battle, so each report is cached in Django's cache,
keyed by the table, its version and its creation time (a table's log only grows with its
version, and an undo makes a new version). A page does a fixed number of queries: one to
list its battles, and two more (the tables' logs and their actions, for every battle at
once) only when some report is not cached yet. A log that does not replay to its table's
state is reported as such (``{"error": ...}``), never as figures. What a page shows of a report, in
words and as a chart, is armies/luck_words.py.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Q

from tabletop.engines.army.luck import LuckError, battle_luck
from tabletop.models import Table, TableAction

from ..luck_words import (
    BattleChart,
    CommanderLine,
    RollLine,
    battle_chart,
    fraction,
    mean_luck_words,
    report_lines,
    score_words,
)
from ..models import Battle, Commander

CACHE_PREFIX = "army-luck:2"  # 2: each roll carries its die, Strength and named modifiers
CACHE_SECONDS = 60 * 60 * 24 * 30


def _key(table_id: int, version: int, created_at) -> str:
    return f"{CACHE_PREFIX}:{table_id}:{version}:{created_at.timestamp():.6f}"


def _entries(table_ids: list[int]) -> dict[int, list[dict]]:
    """Each table's log entries in order, as ``battle_luck`` reads them: one query."""
    rows = (TableAction.objects.filter(table_id__in=table_ids).order_by("table_id", "seq")
            .values_list("table_id", "seq", "kind", "action", "draws"))
    entries: dict[int, list[dict]] = defaultdict(list)
    for table_id, seq, kind, action, draws in rows:
        if kind == TableAction.Kind.UNDO:
            entries[table_id].append({"seq": seq, "undo": True})
        else:
            entries[table_id].append({"seq": seq, "action": action, "draws": draws})
    return entries


def reports(tables: list[tuple[int, int, object]]) -> dict[int, dict]:
    """Table id -> its luck report (``BattleLuck.as_json()``, or ``{"error": ...}``), for
    ``(table id, version, created_at)`` triples: cached ones from the cache, the others
    replayed (two queries, whatever their number) and cached."""
    keys = {table_id: _key(table_id, version, created_at) for table_id, version, created_at in tables}
    found = cache.get_many(list(keys.values())) if keys else {}
    result = {table_id: found[key] for table_id, key in keys.items() if key in found}
    missing = [table_id for table_id in keys if table_id not in result]
    if not missing:
        return result
    logs = Table.objects.filter(pk__in=missing).values_list("pk", "config", "setup_draws", "state")
    entries = _entries(missing)
    fresh = {}
    for table_id, config, setup_draws, state in logs:
        try:
            fresh[table_id] = battle_luck(config, setup_draws, entries[table_id], final_state=state).as_json()
        except LuckError as error:
            fresh[table_id] = {"error": str(error)}
    cache.set_many({keys[table_id]: report for table_id, report in fresh.items()}, CACHE_SECONDS)
    return {**result, **fresh}


@dataclass(frozen=True)
class BattleReport:
    rolls: list[RollLine]
    commanders: list[CommanderLine]
    error: str = ""
    chart: BattleChart | None = None
    attacker: str = ""


def battle_report(battle: Battle) -> BattleReport | None:
    """The luck report of a finished battle that counts (None otherwise): one query, two more uncached."""
    if battle.result is None or battle.table_id is None:
        return None
    table = Table.objects.counted().filter(pk=battle.table_id).values_list("pk", "version", "created_at").first()
    if table is None:
        return None
    report = reports([table])[table[0]]
    if "error" in report:
        return BattleReport(rolls=[], commanders=[], error=report["error"])
    names = (battle.attacker.name, battle.defender.name)
    rolls, commanders = report_lines(report, names)
    return BattleReport(rolls=rolls, commanders=commanders, chart=battle_chart(report, names), attacker=names[0])


# ---------------------------------------------------------------- over the campaign

def _battle_reports(battles: list[dict]) -> dict[int, dict]:
    return reports([(b["table_id"], b["table__version"], b["table__created_at"]) for b in battles])


@dataclass
class Tally:
    """One commander's luck summed over battles."""

    commander_id: int
    name: str
    battles: int = 0
    score: Fraction = Fraction(0)
    chance_sum: Fraction = Fraction(0)
    odds_rolls: int = 0
    unreplayed: int = 0

    def add(self, seat_report: dict) -> None:
        self.battles += 1
        self.score += fraction(seat_report["score"])
        odds_rolls = seat_report.get("odds_rolls", 0)
        if odds_rolls:
            self.chance_sum += fraction(seat_report["mean_chance"]) * odds_rolls
            self.odds_rolls += odds_rolls

    @property
    def words(self) -> str:
        return score_words(self.score)

    @property
    def mean_luck(self) -> str:
        return mean_luck_words(self.chance_sum / self.odds_rolls if self.odds_rolls else None)


@dataclass(frozen=True)
class BattleLuckLine:
    battle_id: int
    day: int
    opponent: str
    words: str
    score: Fraction | None
    rolls: int
    mean_luck: str
    error: str = ""


@dataclass(frozen=True)
class CommanderReport:
    tally: Tally
    lines: list[BattleLuckLine]


def commander_report(commander: Commander) -> CommanderReport:
    """The commander's luck over the campaign, a line per battle: one query, two more uncached."""
    battles = _counted_battles(Q(attacker_id=commander.pk) | Q(defender_id=commander.pk))
    found = _battle_reports(battles)
    tally, lines = Tally(commander_id=commander.pk, name=commander.name), []
    for battle in battles:
        seat = 0 if battle["attacker_id"] == commander.pk else 1
        opponent = battle["defender__name"] if seat == 0 else battle["attacker__name"]
        report = found[battle["table_id"]]
        if "error" in report:
            tally.unreplayed += 1
            lines.append(BattleLuckLine(battle["pk"], battle["day"], opponent, "", None, 0, "",
                                        error=report["error"]))
            continue
        mine = report["commanders"][seat]
        tally.add(mine)
        score = fraction(mine["score"])
        lines.append(BattleLuckLine(battle["pk"], battle["day"], opponent, score_words(score), score, mine["rolls"],
                                    mean_luck_words(fraction(mine["mean_chance"]))))
    return CommanderReport(tally=tally, lines=lines)


def _counted_battles(where: Q) -> list[dict]:
    """Finished battles that count, with what the luck pages need: one query."""
    return list(
        Battle.objects.filter(where, result__isnull=False, table__isnull=False,
                              table_id__in=Table.objects.counted().values("pk"))
        .order_by("day", "started_at", "pk")
        .values("pk", "day", "attacker_id", "defender_id", "attacker__name", "defender__name",
                "table_id", "table__version", "table__created_at")
    )


def campaign_report(campaign_id: int) -> list[Tally]:
    """Every commander who fought a battle that counts, luckiest first: one query, two more uncached."""
    battles = _counted_battles(Q(campaign_id=campaign_id))
    found = _battle_reports(battles)
    tallies: dict[int, Tally] = {}
    for battle in battles:
        report = found[battle["table_id"]]
        for seat, side in enumerate(("attacker", "defender")):
            commander_id = battle[f"{side}_id"]
            tally = tallies.setdefault(commander_id, Tally(commander_id=commander_id, name=battle[f"{side}__name"]))
            if "error" in report:
                tally.unreplayed += 1
            else:
                tally.add(report["commanders"][seat])
    return sorted(tallies.values(), key=lambda t: (-t.score, t.name))
