"""Settling a day's upkeep: ``day_settle``, chunk by chunk, fast and crash-safe.

What each commander owes and who deserts is decided by ``upkeep.py`` (rulings U1-U8); this module
writes those bills: settlements, the ledger's debits (through ``campaign.ledger``), desertions,
the ``DayEnd`` row's progress, and closes the day.

Design of ``day_settle``:

1. One query lists the commanders who used units that day and whether each is settled.
2. The pending commanders are settled in chunks of ``CHUNK_SIZE``. Each chunk is ONE
   transaction that: locks the ``DayEnd`` row (so two runs of the same day, e.g. a Celery
   retry next to an operator's re-send, settle chunks one after the other, never the same
   commander twice); re-reads which of the chunk's commanders are still unsettled, with
   what they owe (one aggregate query); locks their treasury accounts
   (``campaign.ledger.accounts_locked``, the lock every payment takes, so a purchase cannot
   slip between the balance check and the debit); sums their balances (one aggregate query);
   reads and locks the used units of the commanders who cannot pay (one query); decides every
   bill in Python (``bill_for``); then writes with ``bulk_create`` (settlements, unit events;
   the ledger entries with ``ledger_post_many``, one insert) and one
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

The ledger's debits go through ``campaign.ledger.ledger_post_many`` with the accounts this chunk
locked and the balances it read under that lock: the ledger checks every entry as ``ledger_post``
does (a reason, no zero amount, no overdraft unless the campaign allows credit) without reading
them again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.translation import gettext

from campaign.ledger import Posting, accounts_locked, ledger_post_many
from campaign.models import Campaign, Day, LedgerEntry

from ..live import day_end_moved
from ..models import ArmyUnit, Commander, DayEnd, Settlement, UnitEvent, UnitUse
from . import ArmyError
from .upkeep import Bill, bills_decided, commanders_short, owed_rows, used_units

CHUNK_SIZE = 500
SETTLEMENT = "settlement"  # cause_type of the ledger entries and unit events written here


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
        rows = owed_rows(campaign_id=campaign.pk, day=day, commander_ids=commander_ids)
        if not rows:
            return 0
        locked = accounts_locked(row["commander__account_id"] for row in rows)
        balances = locked.balances()
        units = used_units(day=day, commander_ids=commanders_short(rows, balances, campaign.allow_credit), lock=True)
        bills = bills_decided(rows, balances, units, campaign.desertion, campaign.allow_credit)

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

        ledger_post_many(
            [
                Posting(
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
            ],
            locked=locked,
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
        raise ArmyError(
            gettext("Day %(day)s has not begun: %(campaign)s is on day %(current_day)s.")
            % {"day": day, "campaign": campaign.name, "current_day": fresh.current_day}
        )
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
