"""Day-end settlement of a big campaign: the real ``day_settle`` against a per-commander ORM loop.

    .venv/bin/python bench/day_end.py --commanders 2000 --units 20

Builds two identical campaigns (same seed): ``N`` commanders with ``M`` units each, every
unit used on day 1, about a quarter of the commanders short of money (so units desert
under the default policy, the most expensive first). Settles day 1 of the first with
``armies.services.settlement.day_settle`` and day 1 of the second with the straightforward
loop (for each commander: read its used units, sum, read the balance, create the
settlement, post the ledger entry, desert units one by one), counting the queries of each
with a ``connection.execute_wrapper``. Checks that both settled every commander alike, and
then takes the first campaign's day end back (``day_end_revert``: every balance must be as before) and
ends the day again (the same settlement), and ends with one line such as
``day-end: 2000 commanders, 40000 units, 1.8 s, 41 queries; per-row loop: 39.0 s, 120000 queries; speed-up 21.7;
take-back 1.2 s, 15 queries``.

Uses a throwaway SQLite file unless DATABASE_URL is set (then that database, which must
be empty of Muster data or disposable: the campaigns it creates are left behind).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BATCH = 5000


def configure(temp_dir: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
    os.environ.setdefault("SECRET_KEY", "benchmark-only-secret")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{temp_dir}/bench.sqlite3")
    os.environ.pop("REDIS_URL", None)
    os.environ["DEBUG"] = "0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class QueryCounter:
    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def build(*, label: str, commanders: int, units: int, seed: int, gm, cards) -> object:
    """A campaign whose every unit was used on day 1; about a quarter of the commanders are short."""
    from armies.models import ArmyUnit, Commander, UnitUse
    from campaign.models import Account, LedgerEntry
    from campaign.services import campaign_create

    rng = random.Random(seed)
    campaign = campaign_create(name=f"Bench {label}", slug=f"bench-{label}", gm=gm)
    membership = campaign.memberships.get()
    accounts = Account.objects.bulk_create(
        [Account(campaign=campaign, name=f"Commander {i}") for i in range(commanders)], batch_size=BATCH
    )
    army = Commander.objects.bulk_create(
        [
            Commander(
                campaign=campaign,
                membership=membership,
                account=account,
                name=account.name,
                kind="npc",
                role="guardian",
                path="steel",
            )
            for account in accounts
        ],
        batch_size=BATCH,
    )
    roster = [[rng.choice(cards) for _ in range(units)] for _ in army]
    openings = []
    for commander, hand in zip(army, roster, strict=True):
        owed = sum(card.upkeep for card in hand)
        short = rng.random() < 0.25
        money = rng.randint(0, owed - 1) if short else owed + rng.randint(0, 40)
        if money:
            openings.append(
                LedgerEntry(
                    account_id=commander.account_id, amount=money, day=1, kind="opening", reason="Opening balance"
                )
            )
    LedgerEntry.objects.bulk_create(openings, batch_size=BATCH)
    made = ArmyUnit.objects.bulk_create(
        [
            ArmyUnit(commander=commander, card=card, joined_day=1)
            for commander, hand in zip(army, roster, strict=True)
            for card in hand
        ],
        batch_size=BATCH,
    )
    UnitUse.objects.bulk_create(
        [UnitUse(unit_id=unit.pk, commander_id=unit.commander_id, day=1) for unit in made], batch_size=BATCH
    )
    return campaign


def per_row_settle(campaign, day: int) -> None:
    """The naive day end: one commander, one unit at a time, through the ORM and ledger_post."""
    from django.db import transaction
    from django.utils import timezone

    from armies.models import ArmyUnit, Commander, Settlement, UnitEvent, UnitUse
    from campaign.ledger import balance_of, ledger_post
    from campaign.models import Campaign, Day, LedgerEntry

    for commander in Commander.objects.filter(campaign=campaign).select_related("account").order_by("pk"):
        uses = list(UnitUse.objects.filter(commander=commander, day=day).select_related("unit__card"))
        if not uses or Settlement.objects.filter(commander=commander, day=day).exists():
            continue
        with transaction.atomic():
            owed = sum(use.unit.card.upkeep for use in uses)
            balance = balance_of(commander.account)
            deserters = []
            paid = owed
            if not campaign.allow_credit and owed > balance:
                affordable, rest = max(balance, 0), owed
                in_army = [use.unit for use in uses if use.unit.status == ArmyUnit.Status.ACTIVE]
                for unit in sorted(in_army, key=lambda u: (-u.card.upkeep, -u.pk)):
                    if rest <= affordable:
                        break
                    if unit.card.upkeep:
                        deserters.append(unit)
                        rest -= unit.card.upkeep
                paid = min(rest, affordable)
            settlement = Settlement.objects.create(
                commander=commander, day=day, owed=owed, paid=paid, deserted=[u.card.name for u in deserters]
            )
            if paid:
                ledger_post(
                    account=commander.account,
                    amount=-paid,
                    kind=LedgerEntry.Kind.UPKEEP,
                    day=day,
                    reason=f"Upkeep for day {day}",
                    cause_type="settlement",
                    cause_id=settlement.pk,
                )
            for unit in deserters:
                unit.status, unit.left_day = ArmyUnit.Status.DESERTED, day
                unit.save(update_fields=["status", "left_day"])
                UnitEvent.objects.create(
                    unit=unit,
                    day=day,
                    kind=UnitEvent.Kind.DESERTED,
                    cause=f"Deserted: unpaid upkeep on day {day}",
                    cause_type="settlement",
                    cause_id=settlement.pk,
                )
    with transaction.atomic():
        if Campaign.objects.filter(pk=campaign.pk, current_day=day).update(current_day=day + 1):
            Day.objects.filter(campaign=campaign, number=day).update(closed_at=timezone.now())
            Day.objects.get_or_create(campaign=campaign, number=day + 1)


def outcome(campaign) -> list[tuple]:
    from armies.models import Settlement

    return list(
        Settlement.objects.filter(commander__campaign=campaign, reverted_at=None)
        .order_by("commander__name")
        .values_list("commander__name", "owed", "paid", "deserted")
    )


def balances(campaign) -> dict[str, int]:
    from django.db.models import Sum

    from campaign.models import Account

    accounts = Account.objects.filter(campaign=campaign).annotate(total=Sum("entries__amount"))
    return dict(accounts.values_list("name", "total"))


def measure(call, *args, **kwargs) -> tuple[float, int]:
    from django.db import connection

    counter = QueryCounter()
    with connection.execute_wrapper(counter):
        started = time.perf_counter()
        call(*args, **kwargs)
        seconds = time.perf_counter() - started
    return seconds, counter.count


def run(commanders: int, units: int, seed: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from armies.models import UnitCard
    from armies.services.day_end_revert import day_end_revert
    from armies.services.settlement import day_settle
    from campaign.models import Campaign

    stamp = int(time.time() * 1000)
    gm = get_user_model().objects.create_user(f"bench-gm-{stamp}")
    cards = UnitCard.objects.bulk_create(
        [
            UnitCard(
                code=f"bench-{stamp}-{n}",
                name=f"Bench card {n}",
                strength=1 + n % 6,
                role="aggressor",
                path="steel",
                upkeep=1 + n % 8,
            )
            for n in range(24)
        ]
    )
    started = time.perf_counter()
    fast = build(label=f"{stamp}-a", commanders=commanders, units=units, seed=seed, gm=gm, cards=cards)
    slow = build(label=f"{stamp}-b", commanders=commanders, units=units, seed=seed, gm=gm, cards=cards)
    print(f"built two campaigns of {commanders} commanders x {units} units in {time.perf_counter() - started:.1f} s")

    opening = balances(fast)
    fast_seconds, fast_queries = measure(day_settle, campaign=fast, day=1)
    slow_seconds, slow_queries = measure(per_row_settle, slow, 1)

    same = outcome(fast) == outcome(slow)
    days = {c.slug: c.current_day for c in Campaign.objects.filter(pk__in=[fast.pk, slow.pk])}
    deserted = sum(len(row[3]) for row in outcome(fast))
    print(
        f"machine: {os.cpu_count()} cores, {cpu_model()}, Python {sys.version.split()[0]}, database {connection.vendor}"
    )
    print(
        f"settled: {len(outcome(fast))} commanders, {deserted} units deserted; both ways alike: {same}; "
        f"days now {sorted(days.values())}"
    )
    if not same or set(days.values()) != {2}:
        raise SystemExit("the two settlements differ: the benchmark is void")
    settled = outcome(fast)
    revert_seconds, revert_queries = measure(day_end_revert, campaign=fast, day=1, gm=gm)
    balances_back = balances(fast) == opening
    again_seconds, _ = measure(day_settle, campaign=Campaign.objects.get(pk=fast.pk), day=1)
    again_alike = outcome(fast) == settled  # the live settlements; the taken-back ones stay, marked reverted
    print(
        f"take-back: {revert_seconds:.1f} s, {revert_queries} queries; balances as before: {balances_back}; "
        f"ended again in {again_seconds:.1f} s with the same settlement: {again_alike}"
    )
    if not (balances_back and again_alike):
        raise SystemExit("taking the day end back did not restore the day: the benchmark is void")
    print(
        f"day-end: {commanders} commanders, {commanders * units} units, {fast_seconds:.1f} s, {fast_queries} queries; "
        f"per-row loop: {slow_seconds:.1f} s, {slow_queries} queries; speed-up {slow_seconds / fast_seconds:.1f}; "
        f"take-back {revert_seconds:.1f} s, {revert_queries} queries"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commanders", type=int, default=2000)
    parser.add_argument("--units", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp_dir:
        configure(temp_dir)
        run(args.commanders, args.units, args.seed)


if __name__ == "__main__":
    main()
