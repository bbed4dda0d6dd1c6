"""Day-end upkeep: what each commander owes for the day, who deserts, and settling the day.

Rule (Upkeep): "At the end of any Day in which a Commander led an army, they will be assigned
an Upkeep cost based on which units they used. Upkeep is paid per Day, not per Battle [...]
Failing to pay the assigned Upkeep cost will result in some or all of your units deserting."

As implemented (rulings U1-U8 in docs/rulings.md):

- A commander owes, for a day, the upkeep of every unit with a ``UnitUse`` row for that day
  (the database keeps one row per unit per day, so a unit is counted once however many
  battles it fought), at the card's upkeep *at settlement time* (errata apply, U1). A unit
  killed that day was used and is charged (U2).
- Commanders who used no unit that day owe nothing and get no ``Settlement`` (U7).
- A commander who can pay, pays everything. One who cannot loses units by the campaign's
  desertion policy (U3): MOST_EXPENSIVE (default) or CHEAPEST: used units that are still in
  the army desert one at a time, in that order, until the rest is affordable, and the rest
  is paid; ALL_USED: every used unit still in the army deserts and nothing is paid. Ties go
  to the latest recruit first (U4). If even then the rest is more than the treasury (units
  that can no longer desert: killed that day), the treasury is emptied and the remainder
  waived (U5). With ``allow_credit`` nobody deserts and the balance may go negative (U6).

Design of ``day_settle`` (fast and crash-safe):

1. One query lists the commanders who used units that day and whether each is settled.
2. The pending commanders are settled in chunks of ``CHUNK_SIZE``. Each chunk is ONE
   transaction that: locks the ``DayEnd`` row (so two runs of the same day, e.g. a Celery
   retry next to an operator's re-send, settle chunks one after the other, never the same
   commander twice); re-reads which of the chunk's commanders are still unsettled, with
   what they owe (one aggregate query); locks their treasury accounts (the same row lock
   ``ledger_post`` takes, so a purchase cannot slip between the balance check and the
   debit); sums their balances (one aggregate query); reads and locks the used units of the
   commanders who cannot pay (one query); decides every bill in Python (``bill_for``); then
   writes with ``bulk_create`` (settlements, ledger entries, unit events) and one
   ``UPDATE`` for the deserters, and bumps ``DayEnd.done`` with ``F()``. About ten queries
   per chunk, whatever its size. A commander's settlement, debit and desertions therefore
   commit together or not at all, and "at most one settlement per commander per day" is
   guaranteed by the unique constraint: the lock and the re-read only keep a second run from
   tripping over it (if anything bypassed the lock, the chunk would fail and roll back
   whole, charging nobody). Settlements are inserted plainly (no ``ignore_conflicts``), so
   the rows returned are exactly the rows this run created.
3. When no commander is left unsettled (checked under the ``DayEnd`` lock; a commander who
   appeared meanwhile sends us round again), one transaction closes the day: it advances
   ``Campaign.current_day`` only if it still equals the day (a conditional ``UPDATE``, so it
   happens once), closes ``Day`` N, creates ``Day`` N+1 (``get_or_create``) and marks the
   ``DayEnd`` done.

A settlement is final: a use recorded for a commander after their settlement for that day
(a battle of day N finished after day N was settled) is not charged. The battle service should
refuse to record uses for a day whose day end has started.

A crash anywhere leaves whole chunks settled and the rest untouched; running ``day_settle``
again (or a retry of the Celery task) skips the settled commanders and finishes. Do not call
it inside an outer transaction if you want that: it would make the run all-or-nothing.

The run beats a heart: it sets ``DayEnd.heartbeat_at`` when it starts and with every chunk's
``done`` bump, so a queued or running day end whose heartbeat has gone stale has no live worker
and is sent again (armies.services.day_end, the lease).

Ledger entries are bulk-created here instead of going through ``campaign.services.ledger_post``
one by one; this module does what ``ledger_post`` does (lock the account, refuse an overdraft
unless the campaign allows credit, a reason on every entry, no zero amounts), for a chunk at once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Sum
from django.utils import timezone

from campaign.models import Account, Campaign, Day, LedgerEntry

from ..live import day_end_moved
from ..models import ArmyUnit, Commander, DayEnd, Settlement, UnitEvent, UnitUse
from . import ArmyError

CHUNK_SIZE = 500
SETTLEMENT = "settlement"  # cause_type of the ledger entries and unit events written here
Desertion = Campaign.Desertion


# --- deciding a bill (pure) -----------------------------------------------------------------------


@dataclass(frozen=True)
class UsedUnit:
    """A unit used on the day, as the settlement sees it."""

    id: int
    name: str
    upkeep: int
    in_army: bool  # still active: only such a unit can desert


@dataclass(frozen=True)
class Bill:
    """One commander's upkeep for one day: what is owed, what would be paid, who would desert."""

    commander_id: int
    commander_name: str
    account_id: int
    owed: int
    balance: int
    can_pay: bool
    paid: int
    deserters: tuple[UsedUnit, ...] = ()

    @property
    def balance_after(self) -> int:
        return self.balance - self.paid


def _desertion_order(policy: str) -> Callable[[UsedUnit], tuple]:
    # Ties: the latest recruit (highest id) leaves first (ruling U4).
    if policy == Desertion.CHEAPEST:
        return lambda unit: (unit.upkeep, -unit.id)
    return lambda unit: (-unit.upkeep, -unit.id)


def bill_for(
    *,
    commander_id: int,
    commander_name: str,
    account_id: int,
    owed: int,
    balance: int,
    units: Sequence[UsedUnit],
    policy: str,
    allow_credit: bool,
) -> Bill:
    """Decide one commander's bill. ``units`` (the used units) are needed only when they cannot pay."""
    bill = partial(
        Bill,
        commander_id=commander_id,
        commander_name=commander_name,
        account_id=account_id,
        owed=owed,
        balance=balance,
    )
    if allow_credit or owed == 0 or owed <= balance:
        return bill(can_pay=True, paid=owed)
    affordable = max(balance, 0)
    in_army = sorted((unit for unit in units if unit.in_army), key=_desertion_order(policy))
    if policy == Desertion.ALL_USED:
        return bill(can_pay=False, paid=0, deserters=tuple(in_army))
    rest, deserters = owed, []
    for unit in in_army:
        if rest <= affordable:
            break
        if unit.upkeep == 0:
            continue  # deserting would not lower the bill
        deserters.append(unit)
        rest -= unit.upkeep
    return bill(can_pay=False, paid=min(rest, affordable), deserters=tuple(deserters))


# --- the reads both the preview and the settlement use --------------------------------------------


def _unsettled(day: int) -> Exists:
    return ~Exists(Settlement.objects.filter(commander_id=OuterRef("commander_id"), day=day, reverted_at=None))


def _owed_rows(*, campaign_id: int, day: int, commander_ids: Iterable[int] | None = None) -> list[dict]:
    """Per unsettled commander who used units on ``day``: name, account and owed. One aggregate query."""
    uses = UnitUse.objects.filter(commander__campaign_id=campaign_id, day=day).filter(_unsettled(day))
    if commander_ids is not None:
        uses = uses.filter(commander_id__in=list(commander_ids))
    return list(
        uses.values("commander_id", "commander__name", "commander__account_id")
        .annotate(owed=Sum("unit__card__upkeep"))
        .order_by("commander_id")
    )


def _balances(account_ids) -> dict[int, int]:
    """Account id -> balance (sum of its entries). One aggregate query."""
    rows = LedgerEntry.objects.filter(account_id__in=account_ids).values("account_id").annotate(total=Sum("amount"))
    return {row["account_id"]: row["total"] for row in rows.order_by()}


def _used_units(*, day: int, commander_ids: Sequence[int], lock: bool = False) -> dict[int, list[UsedUnit]]:
    """Commander id -> the units they used on ``day`` (locked when settling). One query."""
    if not commander_ids:
        return {}
    used = ArmyUnit.objects.filter(uses__day=day, uses__commander_id__in=list(commander_ids))
    if lock:
        used = used.select_for_update(of=("self",))
    units: dict[int, list[UsedUnit]] = defaultdict(list)
    for commander_id, unit_id, name, upkeep, status in used.values_list(
        "uses__commander_id", "pk", "card__name", "card__upkeep", "status"
    ).order_by("pk"):
        units[commander_id].append(UsedUnit(unit_id, name, upkeep, status == ArmyUnit.Status.ACTIVE))
    return units


def _bills(
    rows: list[dict], balances: dict[int, int], units: dict[int, list[UsedUnit]], policy: str, allow_credit: bool
) -> list[Bill]:
    return [
        bill_for(
            commander_id=row["commander_id"],
            commander_name=row["commander__name"],
            account_id=row["commander__account_id"],
            owed=row["owed"] or 0,
            balance=balances.get(row["commander__account_id"], 0),
            units=units.get(row["commander_id"], ()),
            policy=policy,
            allow_credit=allow_credit,
        )
        for row in rows
    ]


def _short(rows: list[dict], balances: dict[int, int], allow_credit: bool) -> list[int]:
    """The commanders who cannot pay in full."""
    if allow_credit:
        return []
    return [
        row["commander_id"]
        for row in rows
        if (row["owed"] or 0) > 0 and (row["owed"] or 0) > balances.get(row["commander__account_id"], 0)
    ]


# --- preview --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    day: int
    policy: str
    allow_credit: bool
    bills: tuple[Bill, ...]

    @property
    def total_owed(self) -> int:
        return sum(bill.owed for bill in self.bills)

    @property
    def total_paid(self) -> int:
        return sum(bill.paid for bill in self.bills)

    @property
    def deserting(self) -> int:
        return sum(len(bill.deserters) for bill in self.bills)

    def for_commander(self, commander: Commander | int) -> Bill | None:
        pk = getattr(commander, "pk", commander)
        return next((bill for bill in self.bills if bill.commander_id == pk), None)


def day_end_preview(*, campaign: Campaign, day: int) -> Preview:
    """What settling ``day`` would do now, for every commander who used units and is not settled yet.

    At most three queries, whatever the number of commanders: owed, balances, and the used
    units of those who cannot pay.
    """
    rows = _owed_rows(campaign_id=campaign.pk, day=day)
    accounts = UnitUse.objects.filter(commander__campaign_id=campaign.pk, day=day).values("commander__account_id")
    balances = _balances(accounts) if rows else {}
    units = _used_units(day=day, commander_ids=_short(rows, balances, campaign.allow_credit))
    bills = _bills(rows, balances, units, campaign.desertion, campaign.allow_credit)
    return Preview(day=day, policy=campaign.desertion, allow_credit=campaign.allow_credit, bills=tuple(bills))


# --- settlement -----------------------------------------------------------------------------------


REASON_LENGTH = LedgerEntry._meta.get_field("reason").max_length


def _ledger_reason(bill: Bill, day: int) -> str:
    """The entry says what was owed and, on a desertion day, what was paid and who left (ruling W1)."""
    reason = f"Upkeep for day {day}: {bill.owed} owed"
    if not bill.deserters:
        return reason
    reason += f", {bill.paid} paid; could not pay, so "
    names = [unit.name for unit in bill.deserters]
    for shown in range(len(names), 0, -1):
        listed = names[:shown] + ([f"{len(names) - shown} more"] if shown < len(names) else [])
        text = ", ".join(listed[:-1]) + " and " + listed[-1] if len(listed) > 1 else listed[0]
        if len(reason) + len(text) + len(" deserted") <= REASON_LENGTH:
            return f"{reason}{text} deserted"
    return f"{reason}{len(names)} unit{'s' if len(names) != 1 else ''} deserted"[:REASON_LENGTH]


def _settle_chunk(*, campaign: Campaign, day: int, day_end_id: int, commander_ids: Sequence[int]) -> int:
    """Settle the chunk's still-unsettled commanders in one transaction; returns how many."""
    with transaction.atomic():
        list(DayEnd.objects.select_for_update().filter(pk=day_end_id).values_list("pk", flat=True))
        rows = _owed_rows(campaign_id=campaign.pk, day=day, commander_ids=commander_ids)
        if not rows:
            return 0
        account_ids = [row["commander__account_id"] for row in rows]
        list(Account.objects.select_for_update().filter(pk__in=account_ids).order_by("pk").values_list("pk"))
        balances = _balances(account_ids)
        units = _used_units(day=day, commander_ids=_short(rows, balances, campaign.allow_credit), lock=True)
        bills = _bills(rows, balances, units, campaign.desertion, campaign.allow_credit)

        settlements = Settlement.objects.bulk_create(
            [
                Settlement(
                    commander_id=bill.commander_id,
                    day=day,
                    owed=bill.owed,
                    paid=bill.paid,
                    deserted=[unit.name for unit in bill.deserters],
                )
                for bill in bills
            ]
        )
        if any(settlement.pk is None for settlement in settlements):  # a backend that returns no ids
            ids = dict(
                Settlement.objects.filter(
                    day=day, commander_id__in=[b.commander_id for b in bills], reverted_at=None
                ).values_list("commander_id", "pk")
            )
        else:
            ids = {settlement.commander_id: settlement.pk for settlement in settlements}

        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(
                    account_id=bill.account_id,
                    amount=-bill.paid,
                    day=day,
                    kind=LedgerEntry.Kind.UPKEEP,
                    reason=_ledger_reason(bill, day),
                    cause_type=SETTLEMENT,
                    cause_id=ids[bill.commander_id],
                )
                for bill in bills
                if bill.paid
            ]
        )
        deserters = [(bill, unit) for bill in bills for unit in bill.deserters]
        if deserters:
            ArmyUnit.objects.filter(pk__in=[unit.id for _, unit in deserters], status=ArmyUnit.Status.ACTIVE).update(
                status=ArmyUnit.Status.DESERTED, left_day=day
            )
            UnitEvent.objects.bulk_create(
                [
                    UnitEvent(
                        unit_id=unit.id,
                        day=day,
                        kind=UnitEvent.Kind.DESERTED,
                        cause=f"Deserted: unpaid upkeep on day {day}",
                        cause_type=SETTLEMENT,
                        cause_id=ids[bill.commander_id],
                    )
                    for bill, unit in deserters
                ]
            )
        DayEnd.objects.filter(pk=day_end_id).update(done=F("done") + len(bills), heartbeat_at=timezone.now())
        day_end_moved(day_end_id)
        return len(bills)


def _pending(campaign_id: int, day: int) -> list[tuple[int, bool]]:
    """(commander id, settled?) for every commander who used units on ``day``. One query."""
    used = UnitUse.objects.filter(commander_id=OuterRef("pk"), day=day)
    settled = Settlement.objects.filter(commander_id=OuterRef("pk"), day=day, reverted_at=None)
    return list(
        Commander.objects.filter(Exists(used), campaign_id=campaign_id)
        .annotate(settled=Exists(settled))
        .order_by("pk")
        .values_list("pk", "settled")
    )


def _close_day_if_all_settled(*, campaign: Campaign, day: int, day_end_id: int) -> list[int]:
    """Close ``day`` and open the next once nobody is left; else return who is left."""
    with transaction.atomic():
        list(DayEnd.objects.select_for_update().filter(pk=day_end_id).values_list("pk", flat=True))
        pending = _pending(campaign.pk, day)
        left = [pk for pk, settled in pending if not settled]
        if left:
            return left
        now = timezone.now()
        if Campaign.objects.filter(pk=campaign.pk, current_day=day).update(current_day=day + 1):
            if not Day.objects.filter(campaign_id=campaign.pk, number=day).update(closed_at=now):
                Day.objects.create(campaign_id=campaign.pk, number=day, closed_at=now)
            Day.objects.get_or_create(campaign_id=campaign.pk, number=day + 1)
        DayEnd.objects.filter(pk=day_end_id).update(
            status=DayEnd.Status.DONE, total=len(pending), done=len(pending), error="", finished_at=now
        )
        day_end_moved(day_end_id)
        return []


def day_settle(
    *,
    campaign: Campaign,
    day: int,
    chunk_size: int = CHUNK_SIZE,
    after_chunk: Callable[[int], None] | None = None,
) -> DayEnd | None:
    """Settle ``day``'s upkeep for every commander who used units, then close it and open the next.

    Idempotent and crash-safe (see the module docstring). ``after_chunk(settled_so_far)`` is
    called after each committed chunk. Returns the ``DayEnd`` row (None for a day that was
    closed without one).
    """
    fresh = Campaign.objects.only("current_day", "allow_credit", "desertion").get(pk=campaign.pk)
    if day > fresh.current_day:
        raise ArmyError(f"Day {day} has not begun: {campaign.name} is on day {fresh.current_day}.")
    if day < fresh.current_day:  # closed already: a retry or a second run after success
        return DayEnd.objects.filter(campaign_id=campaign.pk, day=day).first()
    day_end, _ = DayEnd.objects.get_or_create(campaign_id=campaign.pk, day=day)
    try:
        pending = _pending(campaign.pk, day)
        DayEnd.objects.filter(pk=day_end.pk).update(
            status=DayEnd.Status.RUNNING,
            total=len(pending),
            done=sum(settled for _, settled in pending),
            error="",
            heartbeat_at=timezone.now(),
        )
        day_end_moved(day_end.pk)
        left = [pk for pk, settled in pending if not settled]
        settled_now = 0
        for _ in range(100):  # a round per wave of late arrivals; in practice one or two
            for start in range(0, len(left), chunk_size):
                settled_now += _settle_chunk(
                    campaign=fresh, day=day, day_end_id=day_end.pk, commander_ids=left[start : start + chunk_size]
                )
                if after_chunk is not None:
                    after_chunk(settled_now)
            left = _close_day_if_all_settled(campaign=fresh, day=day, day_end_id=day_end.pk)
            if not left:
                break
        else:
            raise RuntimeError(f"Day {day} of {campaign.name}: commanders keep appearing; settlement gave up.")
    except Exception as exc:
        day_end_failed(campaign_id=campaign.pk, day=day, failure=exc)
        raise
    campaign.current_day = day + 1  # closed by this run or, a moment earlier, by a concurrent one
    day_end.refresh_from_db()
    return day_end


def day_end_failed(*, campaign_id: int, day: int, failure: BaseException) -> None:
    """Record on the day's ``DayEnd`` (unless it is done) that a run failed, and why."""
    failed = DayEnd.objects.filter(campaign_id=campaign_id, day=day).exclude(status=DayEnd.Status.DONE)
    ids = list(failed.values_list("pk", flat=True))
    failed.update(status=DayEnd.Status.FAILED, error=f"{type(failure).__name__}: {failure}"[:2000])
    for day_end_id in ids:
        day_end_moved(day_end_id)
