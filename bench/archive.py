"""A campaign archive of a big campaign: export it, import it as a new campaign, with time and peak memory.

    .venv/bin/python bench/archive.py                       # 10,000 commanders x 20 units, 365 days, 2,000 tables
    .venv/bin/python bench/archive.py --commanders 500 --tables 100    # a quick look

Builds, in a throwaway database (a SQLite file in a temp dir unless DATABASE_URL is set: then that
database, which must be disposable), one campaign with bulk inserts: ``--commanders`` players, each
with a PC commander, an opening balance and ``--units`` units recruited over a year of ``--days`` days
(from offers, some withdrawn, some quests; a fifth trained), every day ended (a day end, a settlement
and an upkeep entry per commander who used units; three day ends taken back and ended again, with
deserters), and ``--tables`` finished Army Rules battles with real logs: each played to its end by
the engine with seeded random choices, stored as ``table_create``/``table_play`` store them (state,
draws, digests), and recorded as ``battle_table_record`` records them (result, kills, unit uses).

The database is analyzed after the build, as autovacuum would do: a PostgreSQL table never analyzed
(a fresh restore, a bulk load) gets plans that made the export 50 s slower.

``--attack zeros`` and ``--attack lock`` measure the two hostile uploads of issue 34 instead, each in its own
process on a fresh SQLite file, imported with the upload page's limits (archive/upload.py): ``zeros``, ten
activity records whose details are a run of ``[0,0,…]`` just under a line's limit (about 80 KB compressed),
reports the import's peak memory (``ru_maxrss`` above what the process held before) and how far it read;
``lock``, 200,000 small activity records (about 1.2 MB), reports the time the import held SQLite's write
lock (from ``BEGIN IMMEDIATE`` to its commit or rollback: the longest such transaction) and in all. Each
runs twice on the same file: "as before" (every pass in one transaction, only the compressed size bounded
below the command line's limits, as the upload page imported before issue 34) and "now".

Then, each direction in its own process so its peak memory is its own (``ru_maxrss`` of that process,
Django and the database driver included): ``export`` writes the archive (``archive.export.campaign_export``)
and ``import`` reads it into a new campaign (``archive.importer``), which replays every table. Prints
one line per step and ends with e.g. ``export 21.0 s, 140 MB peak; import 48.3 s, 260 MB peak``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import hashlib
import io
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BATCH = 5000
SLUG = "bench-archive"


def configure(database_url: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
    os.environ.setdefault("SECRET_KEY", "benchmark-only-secret")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    os.environ["DEBUG"] = "0"
    import django

    django.setup()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


# ------------------------------------------------------------------------------------------ building


def _play_battle(config: dict, seed: int):
    """The table of a battle played to its end by seeded random choices: (state, setup draws, log, outcome)."""
    from tabletop.engines import army
    from tabletop.engines.kernel import SeededRng, digest

    rng = SeededRng(f"{seed}:setup")
    state = army.setup(config, rng)
    setup_draws = rng.take_draws()
    choose = random.Random(seed)
    log = []
    while army.outcome(state) is None:
        seats = army.to_act(state)
        seat = seats[0]
        action = choose.choice([a for a in army.legal_actions(state) if a.get("seat") == seat])
        seq = len(log) + 1
        rng = SeededRng(f"{seed}:{seq}")
        action = {**action, "seat": seat}
        state = army.apply(state, action, rng)
        log.append((seq, "gm" if seat == "gm" else str(seat), action, rng.take_draws(), digest(state)))
        if seq > 400:
            raise RuntimeError(f"battle {seed} did not end")
    return state, setup_draws, log, army.outcome(state)


def build(*, commanders: int, units: int, days: int, tables: int, seed: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from armies.catalog import unit_catalog_load_starter
    from armies.models import (
        ArmyUnit,
        Battle,
        Commander,
        DayEnd,
        RecruitOffer,
        Settlement,
        UnitCard,
        UnitEvent,
        UnitUse,
    )
    from armies.services.battle_tables import _side_result, unit_card
    from campaign import bounds
    from campaign.models import Account, Campaign, Day, LedgerEntry, Membership
    from campaign.services import campaign_create
    from tabletop.models import Seat, Table, TableAction

    rng = random.Random(seed)
    User = get_user_model()
    unit_catalog_load_starter()
    cards = list(UnitCard.objects.filter(active=True))
    fighters = [card for card in cards if card.strength is not None]
    gm = User.objects.create(username="bench-gm", password="!")
    campaign = campaign_create(name="Bench archive", slug=SLUG, gm=gm)
    start = timezone.now() - dt.timedelta(days=days + 1)

    def at(day: int, hour: float = 12.0) -> dt.datetime:
        return start + dt.timedelta(days=day - 1, hours=hour)

    with transaction.atomic():
        users = User.objects.bulk_create(
            [User(username=f"player{i:05d}", first_name=f"Player {i}", password="!") for i in range(commanders)],
            batch_size=BATCH,
        )
        members = Membership.objects.bulk_create(
            [Membership(user=user, campaign=campaign, role="player") for user in users], batch_size=BATCH
        )
        accounts = Account.objects.bulk_create(
            [Account(campaign=campaign, name=f"Commander {i}", owner=m) for i, m in enumerate(members)],
            batch_size=BATCH,
        )
        army = Commander.objects.bulk_create(
            [
                Commander(campaign=campaign, membership=m, account=a, name=a.name, kind="pc",
                          role=rng.choice(["aggressor", "guardian", "healer", "savant"]),
                          path=rng.choice(["steel", "magic", "faith", "nature", "mind"]),
                          progression=rng.randint(0, 8), favors=rng.randint(0, 3), influence_halves=rng.randint(0, 6),
                          weapons=rng.randint(0, 2), retired_day=days - 3 if i % 997 == 0 else None)
                for i, (m, a) in enumerate(zip(members, accounts, strict=True))
            ],
            batch_size=BATCH,
        )
        LedgerEntry.objects.bulk_create(
            [LedgerEntry(account_id=c.account_id, amount=500, day=1, kind="opening", reason="Opening balance",
                         cause_type="commander", cause_id=c.pk) for c in army],
            batch_size=BATCH,
        )
        Day.objects.bulk_create(
            [Day(campaign=campaign, number=n, closed_at=at(n, 23)) for n in range(2, days + 1)], batch_size=BATCH
        )
        Day.objects.filter(campaign=campaign, number=days).update(closed_at=None)
        Day.objects.filter(campaign=campaign, number=1).update(closed_at=at(1, 23))
        Campaign.objects.filter(pk=campaign.pk).update(current_day=days)

        offers = RecruitOffer.objects.bulk_create(
            [
                RecruitOffer(campaign=campaign, card=rng.choice(cards), price=rng.randint(0, 40),
                             quantity=bounds.MAX_OFFER_QUANTITY, until_day=min(days, 10 + n),
                             quest="Clear the old mill" if n % 25 == 0 else "",
                             withdrawn_at=at(n % days + 1) if n % 10 == 0 else None)
                for n in range(max(1, days // 2))
            ]
        )
        made = ArmyUnit.objects.bulk_create(
            [
                ArmyUnit(commander=c, card=rng.choice(fighters), joined_day=rng.randint(1, days // 2),
                         trained=rng.random() < 0.2)
                for c in army for _ in range(units)
            ],
            batch_size=BATCH,
        )
        sold = defaultdict(int)
        events = []
        for unit in made:
            if rng.random() < 0.5:
                offer = rng.choice(offers)
                sold[offer.pk] += 1
                events.append(UnitEvent(unit_id=unit.pk, day=unit.joined_day, kind="joined",
                                        cause=f"Recruited from offer #{offer.pk} for {offer.price} coins",
                                        cause_type="offer", cause_id=offer.pk))
            else:
                events.append(UnitEvent(unit_id=unit.pk, day=unit.joined_day, kind="joined",
                                        cause="Starting army", cause_type="commander", cause_id=unit.commander_id))
            if unit.trained:
                events.append(UnitEvent(unit_id=unit.pk, day=unit.joined_day + 1, kind="trained",
                                        cause="Trained with a weapon", cause_type="training"))
        for offer in offers:
            offer.sold = sold[offer.pk]
        RecruitOffer.objects.bulk_update(offers, ["sold"])
        UnitEvent.objects.bulk_create(events, batch_size=BATCH)
        del events

        # Battles, in day order: two commanders, up to three of their active units each, played to the end.
        by_commander = defaultdict(list)
        for unit in made:
            by_commander[unit.commander_id].append(unit)
        commander_by_pk = {c.pk: c for c in army}
        seats, actions, uses, killed_events, battles_made = [], [], {}, [], 0
        killed: set[int] = set()
        battle_days = sorted(rng.randint(days // 2, days - 1) for _ in range(tables))
        for number, day in enumerate(battle_days):
            attacker, defender = (commander_by_pk[pk] for pk in rng.sample(list(commander_by_pk), 2))
            sides = []
            for commander in (attacker, defender):
                ready = [u for u in by_commander[commander.pk] if u.pk not in killed and u.joined_day <= day]
                sides.append(rng.sample(ready, min(3, len(ready))))
            for side in sides:
                for unit in side:
                    unit.card = next(card for card in fighters if card.pk == unit.card_id)
            config = {
                "dice": "app",
                "commanders": [
                    {"name": c.name, "kind": c.kind, "progression": c.progression, "favors": c.favors,
                     "influence_halves": c.influence_halves, "role": c.role, "path": c.path,
                     "options": {"cleric_available": True}}
                    for c in (attacker, defender)
                ],
                "units": [[unit_card(unit) for unit in side] for side in sides],
                "players": [attacker.name, defender.name],
            }
            table_seed = seed * 100_000 + number
            state, setup_draws, log, outcome = _play_battle(config, table_seed)
            table = Table.objects.create(
                campaign=campaign, game="army", title=f"Battle: {attacker.name} against {defender.name}",
                config=config, seed=table_seed, setup_draws=setup_draws, state=state, version=len(log),
                status="finished", outcome=outcome, finished_at=at(day, 15), created_by=gm,
            )
            seats += [Seat(table=table, index=i, membership_id=c.membership_id)
                      for i, c in enumerate((attacker, defender))]
            actions += [TableAction(table=table, seq=seq, seat=seat, action=action, draws=draws, digest=digest)
                        for seq, seat, action, draws, digest in log]
            battle = Battle.objects.create(campaign=campaign, attacker=attacker, defender=defender, day=day,
                                           table=table, ended_at=at(day, 15))
            names = {unit.pk: unit.card.name for side in sides for unit in side}
            units_by_pk = {unit.pk: unit for side in sides for unit in side}
            result_sides = [_side_result(outcome["sides"][seat], (attacker, defender)[seat], names, units_by_pk)
                            for seat in (0, 1)]
            winner = outcome["winner"]
            routed = next(((attacker, defender)[s["seat"]] for s in result_sides if s["routed"]), None)
            Battle.objects.filter(pk=battle.pk).update(
                result={"winner": winner, "reason": outcome["reason"], "how": outcome["how"], "sides": result_sides},
                winner=None if winner is None else (attacker, defender)[winner], routed=routed,
            )
            for side_result in result_sides:
                for entry in side_result["used"] + side_result["killed"]:
                    unit = units_by_pk[entry["unit"]]
                    uses.setdefault((unit.pk, day), UnitUse(unit_id=unit.pk, commander_id=unit.commander_id,
                                                            day=day, first_battle_id=battle.pk))
                for entry in side_result["killed"]:
                    if entry["unit"] in killed:
                        continue
                    killed.add(entry["unit"])
                    units_by_pk[entry["unit"]].status, units_by_pk[entry["unit"]].left_day = "killed", day
                    killed_events.append(UnitEvent(unit_id=entry["unit"], day=day, kind="killed",
                                                   cause=f"Killed in battle #{battle.pk}", cause_type="battle",
                                                   cause_id=battle.pk))
            battles_made += 1
        Seat.objects.bulk_create(seats, batch_size=BATCH)
        TableAction.objects.bulk_create(actions, batch_size=BATCH)
        UnitUse.objects.bulk_create(list(uses.values()), batch_size=BATCH)
        UnitEvent.objects.bulk_create(killed_events, batch_size=BATCH)
        ArmyUnit.objects.bulk_update([u for u in made if u.pk in killed], ["status", "left_day"], batch_size=BATCH)

        # Every day ended: a settlement and an upkeep entry per commander who used units that day.
        upkeep = {card.pk: card.upkeep for card in cards}
        unit_card_of = {unit.pk: unit.card_id for unit in made}
        owed = defaultdict(int)
        for (unit_pk, day), use in uses.items():
            owed[(use.commander_id, day)] += upkeep[unit_card_of[unit_pk]]
        taken_back = set(rng.sample(sorted({day for _, day in owed}), min(3, len({day for _, day in owed}))))
        settlements = []
        for (commander_pk, day), amount in sorted(owed.items(), key=lambda item: (item[0][1], item[0][0])):
            if day in taken_back:
                settlements.append(Settlement(commander_id=commander_pk, day=day, owed=amount, paid=0,
                                              deserted=["Ghost"], reverted_at=at(day + 1, 1)))
            settlements.append(Settlement(commander_id=commander_pk, day=day, owed=amount, paid=amount))
        Settlement.objects.bulk_create(settlements, batch_size=BATCH)
        LedgerEntry.objects.bulk_create(
            [LedgerEntry(account_id=commander_by_pk[s.commander_id].account_id, amount=-s.paid, day=s.day,
                         kind="upkeep", reason=f"Upkeep for day {s.day}", cause_type="settlement", cause_id=s.pk)
             for s in settlements if s.paid],
            batch_size=BATCH,
        )
        DayEnd.objects.bulk_create(
            [DayEnd(campaign=campaign, day=day, status="done", total=commanders, done=commanders, started_by=gm,
                    heartbeat_at=at(day, 23), finished_at=at(day, 23)) for day in range(1, days)],
            batch_size=BATCH,
        )
    counts = {
        "commanders": len(army), "units": len(made), "unit events": UnitEvent.objects.count(),
        "battles": battles_made, "table actions": len(actions), "unit uses": len(uses),
        "settlements": len(settlements), "ledger entries": LedgerEntry.objects.count(),
    }
    return counts


# ------------------------------------------------------------------------------------------ the steps


def step_export(path: str) -> dict:
    from archive.export import campaign_export
    from campaign.models import Campaign

    campaign = Campaign.objects.get(slug=SLUG)
    started, cpu = time.perf_counter(), time.process_time()
    with open(path, "wb") as fileobj:
        summary = campaign_export(campaign, fileobj)
    result = {"seconds": time.perf_counter() - started, "cpu_seconds": time.process_time() - cpu,
              "peak_mb": peak_mb(), "records": summary.records, "compressed_mb": summary.compressed_bytes / 2**20}
    return {**result, **archive_sizes(path)}


def archive_sizes(path: str) -> dict:
    """What the archive needs of the limits (archive/upload.py is fitted to them): its decompressed size,
    its longest line and the most JSON values in one line (``archive.format._values``, as the reader counts)."""
    from archive.format import _values

    decompressed = longest = most_values = 0
    with gzip.open(path, "rb") as lines:
        for line in lines:
            decompressed += len(line)
            longest = max(longest, len(line))
            most_values = max(most_values, _values(line, 0))
    return {"decompressed_mb": decompressed / 2**20, "longest_line_kb": longest / 1024, "most_values": most_values}


def step_import(path: str) -> dict:
    from django.contrib.auth import get_user_model

    from archive.importer import campaign_import

    importer = get_user_model().objects.get(username="bench-gm")
    started, cpu = time.perf_counter(), time.process_time()
    with open(path, "rb") as fileobj:
        campaign = campaign_import(fileobj, importer=importer, by_operator=True)
    return {"seconds": time.perf_counter() - started, "cpu_seconds": time.process_time() - cpu,
            "peak_mb": peak_mb(), "campaign": campaign.slug}


# ------------------------------------------------------------------------------------------ issue 34's attacks


def attack_archive(kind: str, path: str) -> dict:
    """A campaign's archive with hostile activity records added and signed again (anyone can sign: the
    digest only shows a file was not changed after it was written): ``zeros`` or ``lock``."""
    from django.contrib.auth import get_user_model

    from archive.export import campaign_export
    from archive.format import encode_line
    from campaign.services import campaign_create

    gm = get_user_model().objects.create(username="bench-gm", password="!")
    out = io.BytesIO()
    campaign_export(campaign_create(name="Bench attack", slug=SLUG, gm=gm), out)
    lines = [json.loads(line) for line in gzip.decompress(out.getvalue()).splitlines()]
    header, records = lines[0], lines[1:-1]
    model = next(record for record in records if record["kind"] == "activity")
    if kind == "zeros":
        per_line = (8 * 1024 * 1024 - 1024) // 2  # a run of "0," just under the 8 MB a line may be
        extra = [{**model, "id": 10**6 + n, "details": {"x": [0] * per_line}} for n in range(10)]
    else:
        extra = [{**model, "id": 10**6 + n, "summary": f"Line {n}"} for n in range(200_000)]
    records += extra
    body = b"".join(encode_line(line) for line in [header, *records])
    trailer = {"kind": "end", "records": len(records), "digest": "sha256:" + hashlib.sha256(body).hexdigest()}
    data = gzip.compress(body + encode_line(trailer))
    Path(path).write_bytes(data)
    return {"records": len(records), "compressed_kb": len(data) / 1024, "decompressed_mb": len(body) / 2**20}


class LockWatch:
    """The SQLite write transactions of this connection, timed from BEGIN IMMEDIATE to commit or rollback
    (what another writer waits for), by wrapping the connection's own three steps."""

    def __init__(self):
        from django.db import connection

        self.holds: list[float] = []
        self._began = None
        begin, commit, rollback = (connection._start_transaction_under_autocommit, connection._commit,
                                   connection._rollback)

        def start():
            begin()
            self._began = time.perf_counter()

        def end(step):
            def ended():
                step()
                if self._began is not None:
                    self.holds.append(time.perf_counter() - self._began)
                    self._began = None
            return ended

        connection._start_transaction_under_autocommit = start
        connection._commit, connection._rollback = end(commit), end(rollback)


def step_attack(kind: str, path: str, as_before: bool) -> dict:
    """``as_before``: the import as it was before issue 34, every pass inside one write transaction and only
    the compressed size bounded more tightly than the command line's limits."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from archive.format import DEFAULT_LIMITS, ArchiveRefused
    from archive.importer import campaign_import
    from archive.upload import MAX_UPLOAD_BYTES, UPLOAD_LIMITS
    from campaign.models import Campaign

    importer = get_user_model().objects.get(username="bench-gm")
    before_mb, campaigns = peak_mb(), Campaign.objects.count()
    watch = LockWatch()
    started = time.perf_counter()
    limits = replace(DEFAULT_LIMITS, max_compressed_bytes=MAX_UPLOAD_BYTES) if as_before else UPLOAD_LIMITS
    try:
        with open(path, "rb") as fileobj, transaction.atomic() if as_before else nullcontext():
            campaign_import(fileobj, importer=importer, limits=limits, by_operator=True)
        answer = "imported"
    except ArchiveRefused as refusal:
        answer = f"refused: {refusal.sentence}"
    return {"seconds": time.perf_counter() - started, "before_mb": before_mb, "peak_mb": peak_mb(),
            "longest_lock_s": max(watch.holds, default=0.0), "total_lock_s": sum(watch.holds),
            "transactions": len(watch.holds), "answer": answer,
            "campaigns_made": Campaign.objects.count() - campaigns}


def run_attack(kind: str) -> None:
    with tempfile.TemporaryDirectory(prefix="muster-bench-attack-") as temp_dir:
        database_url = f"sqlite:///{temp_dir}/bench.sqlite3"
        path = f"{temp_dir}/attack.muster.gz"
        print(f"{cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}; SQLite; "
              f"{dt.date.today().isoformat()}")
        made = run_step("attack-build", database_url, ["--file", path, "--attack", kind])
        print(f"{kind}: {made['records']:,} records, {made['compressed_kb']:.0f} KB compressed, "
              f"{made['decompressed_mb']:.1f} MB decompressed")
        for how in ("as before", "now"):
            extra = ["--as-before"] if how == "as before" else []
            got = run_step("attack", database_url, ["--file", path, "--attack", kind, *extra])
            print(f"{kind}, {how}: {got['answer']} after {got['seconds']:.1f} s; write lock held at most "
                  f"{got['longest_lock_s']:.2f} s at a time, {got['total_lock_s']:.1f} s in all over "
                  f"{got['transactions']:,} transactions; memory {got['before_mb']:.0f} MB before, "
                  f"{got['peak_mb']:.0f} MB "
                  f"peak (+{got['peak_mb'] - got['before_mb']:.0f} MB); campaigns made: {got['campaigns_made']}")


def run_step(step: str, database_url: str, extra: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--step", step, "--database-url", database_url, *extra],
        check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commanders", type=int, default=10_000)
    parser.add_argument("--units", type=int, default=20)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--tables", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--attack", choices=["zeros", "lock"], help="measure one of issue 34's hostile uploads")
    parser.add_argument("--step", choices=["build", "export", "import", "attack-build", "attack"],
                        help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--as-before", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.step:
        configure(args.database_url)
        if args.step == "build":
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            started = time.perf_counter()
            counts = build(commanders=args.commanders, units=args.units, days=args.days, tables=args.tables,
                           seed=args.seed)
            # the statistics autovacuum would gather within a minute: on tables never analyzed PostgreSQL
            # plans the unit events' join as a nested loop (50 s instead of 2 s for the export)
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
            result = {"seconds": time.perf_counter() - started, "counts": counts}
        elif args.step == "attack-build":
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            result = attack_archive(args.attack, args.file)
        elif args.step == "attack":
            result = step_attack(args.attack, args.file, args.as_before)
        elif args.step == "export":
            result = step_export(args.file)
        else:
            result = step_import(args.file)
        print(json.dumps(result))
        return

    if args.attack:
        run_attack(args.attack)
        return
    with tempfile.TemporaryDirectory(prefix="muster-bench-archive-") as temp_dir:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{temp_dir}/bench.sqlite3"
        engine = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
        path = f"{temp_dir}/campaign.muster.gz"
        print(f"{cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}; {engine}; "
              f"{dt.date.today().isoformat()}")
        sizes = ["--commanders", str(args.commanders), "--units", str(args.units), "--days", str(args.days),
                 "--tables", str(args.tables), "--seed", str(args.seed)]
        built = run_step("build", database_url, sizes)
        print(f"built in {built['seconds']:.1f} s: " + ", ".join(f"{v:,} {k}" for k, v in built["counts"].items()))
        exported = run_step("export", database_url, ["--file", path])
        print(f"export: {exported['seconds']:.1f} s ({exported['cpu_seconds']:.1f} s CPU), "
              f"{exported['peak_mb']:.0f} MB peak, {exported['records']:,} records, "
              f"{exported['compressed_mb']:.1f} MB compressed, {exported['decompressed_mb']:.1f} MB decompressed; "
              f"longest line {exported['longest_line_kb']:.1f} KB, most values in a line {exported['most_values']:,}")
        imported = run_step("import", database_url, ["--file", path])
        print(f"import: {imported['seconds']:.1f} s ({imported['cpu_seconds']:.1f} s CPU), "
              f"{imported['peak_mb']:.0f} MB peak (campaign {imported['campaign']})")
        print(f"export {exported['seconds']:.1f} s, {exported['peak_mb']:.0f} MB peak; "
              f"import {imported['seconds']:.1f} s, {imported['peak_mb']:.0f} MB peak")


if __name__ == "__main__":
    main()
