"""Taking back the latest day end: the GM's "Take back the end of day N".

``day_end_revert`` undoes what ``settlement.day_settle`` did for day N (the latest ended day), in one
transaction, and writes a line in the activity log:

- every UPKEEP entry of the day's live settlements gets a compensating CORRECTION entry of the
  opposite amount (the ledger stays append-only: nothing is edited or deleted);
- every unit that deserted at those settlements and is still deserted is back in its roster as it
  was (ACTIVE, no ``left_day``; its training untouched), with a RETURNED event;
- the settlements are kept for the history with ``reverted_at`` set (they no longer count, so
  ending the day again settles it afresh);
- the campaign is on day N again: ``Day`` N reopened, ``Day`` N+1 deleted (nothing refers to a day
  row: entries, events and battles carry day numbers), the ``DayEnd`` of N marked REVERTED (ending
  the day again reuses it, ``day_end.day_end_start``).

Offers (``until_day``) and battle locks (routed that day, the rematch cooldown) are computed from
the campaign's day and the clock, so they are as they were once the day number is back.

It is refused, with one sentence saying what is in the way, while anything that happened on day N+1
depends on it (rulings R1, R2): those checks are ``day_end_revert_checks.py``. This module holds what
taking back gives back (the preview of the confirmation page) and the take-back itself.

Locks, in the ledger's order (campaign/ledger.py): the campaign row (``campaign_day_locked``, the
lock ``day_end_start`` and the battle checks take), the ``DayEnd`` row, every treasury account of the
campaign (``campaign.ledger.accounts_locked``, the lock every payment takes, so a payment in flight
on one of them finishes before we look, and is then seen in the way), the settlements, the deserters.
The refunds are CORRECTION entries written by ``campaign.ledger.ledger_post_many``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from campaign.activity import COINS, UNITS, Line, activity_record, counted
from campaign.ledger import Posting, accounts_locked, ledger_post_many
from campaign.models import Activity, Campaign, Day, LedgerEntry
from campaign.submissions import applied_once

from ..models import ArmyUnit, Commander, DayEnd, Settlement, UnitEvent
from . import ArmyError
from .battles import campaign_day_locked
from .day_end_revert_checks import REVERT, AlreadyTakenBack, day_end_to_take_back, in_the_way, in_the_way_refusal
from .settlement import SETTLEMENT


@dataclass(frozen=True)
class Refund:
    """What taking back the day end gives one commander: coins back and units back."""

    commander_id: int
    name: str
    refund: int
    units: tuple[tuple[int, str], ...] = ()  # (unit id, card name)


@dataclass(frozen=True)
class RevertPreview:
    """What taking back the end of ``day`` would do, or (``refusal``) why it cannot."""

    day: int | None
    refunds: tuple[Refund, ...] = ()
    refusal: str = ""
    already: bool = False  # the refusal is "already taken back"
    details: dict = field(default_factory=dict)

    @property
    def total_refund(self) -> int:
        return sum(refund.refund for refund in self.refunds)

    @property
    def returned(self) -> int:
        return sum(len(refund.units) for refund in self.refunds)

    def summary(self) -> Line:
        """The activity line of the take-back (its English: "Day 3 end taken back: 2 commanders refunded 5
        coins, 3 units returned")."""
        refunded = [refund for refund in self.refunds if refund.refund]
        coins = (
            Line(
                gettext_noop("%(commanders)s refunded %(coins)s"),
                commanders=counted(len(refunded), gettext_noop("1 commander"), gettext_noop("%(count)s commanders")),
                coins=counted(self.total_refund, *COINS),
            )
            if refunded
            else Line(gettext_noop("no upkeep to refund"))
        )
        units = (
            Line(
                gettext_noop("%(units)s returned"),
                units=counted(self.returned, *UNITS),
            )
            if self.returned
            else Line(gettext_noop("no unit to return"))
        )
        return Line(
            gettext_noop("Day %(day)s end taken back: %(coins)s, %(units)s"), day=self.day, coins=coins, units=units
        )


# --- what it gives back ---------------------------------------------------------------------------


def _settlements(campaign_id: int, day: int, *, lock: bool = False) -> list[Settlement]:
    live = Settlement.objects.filter(commander__campaign_id=campaign_id, day=day, reverted_at=None).order_by("pk")
    if lock:
        live = live.select_for_update()
    return list(live)


def _refunds(settlements: list[Settlement], *, lock: bool = False) -> tuple[list[Refund], dict[int, int]]:
    """Per commander: the upkeep paid at these settlements and the deserters still deserted. Three queries.

    Also returns account id -> coins to give back.
    """
    ids = [s.pk for s in settlements]
    by_settlement = {s.pk: s.commander_id for s in settlements}
    paid = (
        LedgerEntry.objects.filter(kind=LedgerEntry.Kind.UPKEEP, cause_type=SETTLEMENT, cause_id__in=ids)
        .values("account_id", "cause_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    coins: dict[int, int] = defaultdict(int)
    per_account: dict[int, int] = defaultdict(int)
    for row in paid:
        coins[by_settlement[row["cause_id"]]] -= row["total"]
        per_account[row["account_id"]] -= row["total"]
    deserted = ArmyUnit.objects.filter(
        status=ArmyUnit.Status.DESERTED,
        pk__in=UnitEvent.objects.filter(kind=UnitEvent.Kind.DESERTED, cause_type=SETTLEMENT, cause_id__in=ids).values(
            "unit_id"
        ),
    )
    if lock:
        deserted = deserted.select_for_update(of=("self",))
    units: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for unit_id, commander_id, name in deserted.values_list("pk", "commander_id", "card__name").order_by("pk"):
        units[commander_id].append((unit_id, name))
    names = dict(Commander.objects.filter(pk__in=by_settlement.values()).values_list("pk", "name"))
    refunds = [
        Refund(commander_id=pk, name=names[pk], refund=coins.get(pk, 0), units=tuple(units.get(pk, ())))
        for pk in sorted(set(by_settlement.values()), key=lambda pk: (names[pk], pk))
    ]
    return refunds, {account: amount for account, amount in per_account.items() if amount}


def day_end_revert_preview(campaign: Campaign, day: int | None = None) -> RevertPreview:
    """What "Take back the end of day N" would do now (N = ``day``, by default the latest ended day).

    A pure read for the confirmation page: the refunds and returned units, or the sentence saying
    what is in the way.
    """
    current = Campaign.objects.values_list("current_day", flat=True).get(pk=campaign.pk)
    day = current - 1 if day is None else day
    if day < 1:
        return RevertPreview(
            day=None,
            refusal=gettext("No day has ended yet: the campaign is on day %(current)s.") % {"current": current},
        )
    try:
        day_end = day_end_to_take_back(campaign_id=campaign.pk, day=day, current=current)
    except AlreadyTakenBack as refusal:
        return RevertPreview(day=day, refusal=str(refusal), already=True)
    except ArmyError as refusal:
        return RevertPreview(day=day, refusal=str(refusal))
    refunds, _ = _refunds(_settlements(campaign.pk, day))
    obstacles = in_the_way(campaign_id=campaign.pk, day=day, finished_at=day_end.finished_at)
    return RevertPreview(
        day=day, refunds=tuple(refunds), refusal=in_the_way_refusal(day, obstacles) if obstacles else ""
    )


# --- taking it back -------------------------------------------------------------------------------


@applied_once("day_end_revert")
@transaction.atomic
def day_end_revert(*, campaign: Campaign, day: int, gm) -> Activity:
    """Take back the end of ``day`` (the latest ended day). One transaction; returns its activity line.

    Raises ``ArmyError`` with a sentence when it may not (``AlreadyTakenBack`` when it was).
    Who may do it is checked by the caller (the GM's page).
    """
    current = campaign_day_locked(campaign.pk)
    if day < 1:
        raise ArmyError(gettext("No day has ended yet: the campaign is on day %(current)s.") % {"current": current})
    day_end_to_take_back(campaign_id=campaign.pk, day=day, current=current)
    day_end = DayEnd.objects.select_for_update().get(campaign_id=campaign.pk, day=day)
    locked = accounts_locked(campaign_id=campaign.pk)
    obstacles = in_the_way(campaign_id=campaign.pk, day=day, finished_at=day_end.finished_at)
    if obstacles:
        raise ArmyError(in_the_way_refusal(day, obstacles))

    settlements = _settlements(campaign.pk, day, lock=True)
    refunds, per_account = _refunds(settlements, lock=True)
    preview = RevertPreview(day=day, refunds=tuple(refunds))
    activity = activity_record(
        campaign=campaign,
        actor=gm,
        kind=Activity.Kind.DAY_END_REVERT,
        summary=preview.summary(),
        target=day_end,
        day=day,
        details={
            "day": day,
            "refunded": preview.total_refund,
            "returned": preview.returned,
            "settlements": [s.pk for s in settlements],
            "commanders": [
                {
                    "id": refund.commander_id,
                    "name": refund.name,
                    "refund": refund.refund,
                    "units": [{"id": pk, "name": name} for pk, name in refund.units],
                }
                for refund in refunds
            ],
        },
    )
    ledger_post_many(
        [
            Posting(
                account_id=account_id,
                amount=amount,
                day=day,
                kind=LedgerEntry.Kind.CORRECTION,
                reason=f"Day {day} end taken back: upkeep of {amount} refunded",
                cause_type=REVERT,
                cause_id=activity.pk,
                created_by_id=gm.pk if gm is not None else None,
            )
            for account_id, amount in sorted(per_account.items())
        ],
        locked=locked,
    )
    returned = [pk for refund in refunds for pk, _ in refund.units]
    if returned:
        ArmyUnit.objects.filter(pk__in=returned, status=ArmyUnit.Status.DESERTED).update(
            status=ArmyUnit.Status.ACTIVE, left_day=None
        )
        UnitEvent.objects.bulk_create(
            [
                UnitEvent(
                    unit_id=pk,
                    day=day,
                    kind=UnitEvent.Kind.RETURNED,
                    cause=f"Back in the army: the end of day {day} was taken back",
                    cause_type=REVERT,
                    cause_id=activity.pk,
                )
                for pk in returned
            ]
        )
    now = timezone.now()
    Settlement.objects.filter(pk__in=[s.pk for s in settlements]).update(reverted_at=now)
    if not Campaign.objects.filter(pk=campaign.pk, current_day=day + 1).update(current_day=day):
        # not reachable under the campaign lock; kept so a change of locking cannot go unnoticed
        raise ArmyError(gettext("Day %(day)s is no longer the latest ended day: reload the page.") % {"day": day})
    Day.objects.filter(campaign_id=campaign.pk, number=day).update(closed_at=None)
    Day.objects.filter(campaign_id=campaign.pk, number=day + 1).delete()
    DayEnd.objects.filter(pk=day_end.pk).update(status=DayEnd.Status.REVERTED, error="", total=0, done=0)
    campaign.current_day = day
    return activity
