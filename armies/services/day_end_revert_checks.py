"""What stands in the way of taking back a day end (``day_end_revert.py``), read before the take-back
shows its confirmation and again, under its locks, before it writes.

The day asked for must be the latest ended day, its end done (``day_end_to_take_back``; else a sentence,
``AlreadyTakenBack`` when it was taken back already). Then nothing that happened on the day after may
depend on it (ruling R1, ``in_the_way``): ledger entries dated N+1, battles of day N+1, unit events of
day N+1, tables with stakes opened since the day end finished, commanders retired on day N+1, or a day
end of N+1 that was not itself taken back. What an earlier take-back wrote, and what it undid, is not in
the way (ruling R2): the GM may step back one day end at a time. ``in_the_way_refusal`` says it all in
one sentence.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from campaign.models import LedgerEntry
from tabletop.models import Table  # armies may read tabletop (campaign <- tabletop <- armies)
from tabletop.services.stakes import CAUSE_TYPE

from ..models import Battle, Commander, DayEnd, Settlement, UnitEvent
from . import ArmyError
from .settlement import SETTLEMENT

REVERT = "day_end_revert"  # cause_type of the correction entries and RETURNED events the take-back writes
SHOWN = 4  # at most this many obstacles are named; the rest are counted


class AlreadyTakenBack(ArmyError):
    """The day end asked for was already taken back: nothing to do (say so, calmly)."""


def day_end_to_take_back(*, campaign_id: int, day: int, current: int) -> DayEnd:
    """The ``DayEnd`` of ``day`` if ``day`` is the latest ended day and its end is done; else a sentence."""
    day_end = DayEnd.objects.filter(campaign_id=campaign_id, day=day).first()
    if day >= current:
        if day == current and day_end is not None and day_end.status == DayEnd.Status.REVERTED:
            raise AlreadyTakenBack(
                gettext("Already taken back: the end of day %(day)s was taken back; the campaign is on day %(day)s.")
                % {"day": day}
            )
        if day == current and day_end is not None and day_end.status == DayEnd.Status.FAILED:
            raise ArmyError(
                gettext(
                    "The end of day %(day)s failed and did not finish, so there is nothing to take back: press End "
                    "day %(day)s to finish it."
                )
                % {"day": day}
            )
        if day == current and day_end is not None:
            raise ArmyError(
                gettext("Day %(day)s is still being settled: let it finish, then take it back if you must.")
                % {"day": day}
            )
        raise ArmyError(
            gettext("Day %(day)s has not ended: the campaign is on day %(current)s, so there is nothing to take back.")
            % {"day": day, "current": current}
        )
    if day < current - 1:
        raise ArmyError(
            gettext(
                "Only the latest day end can be taken back: that is day %(latest)s, not day %(day)s (the campaign is "
                "on day %(current)s)."
            )
            % {"latest": current - 1, "day": day, "current": current}
        )
    if day_end is None or day_end.status != DayEnd.Status.DONE:
        raise ArmyError(gettext("Day %(day)s was closed without a day end that can be taken back.") % {"day": day})
    return day_end


def _undone(campaign_id: int, day: int) -> tuple[Q, Q]:
    """What an earlier take-back of ``day``'s end wrote and undid (ruling R2): (ledger, unit events)."""
    reverted = Settlement.objects.filter(commander__campaign_id=campaign_id, day=day, reverted_at__isnull=False)
    ids = reverted.values("pk")
    ledger = Q(cause_type=REVERT) | Q(cause_type=SETTLEMENT, cause_id__in=ids)
    events = Q(cause_type=REVERT) | Q(cause_type=SETTLEMENT, cause_id__in=ids)
    return ledger, events


# English words (the article "a"/"an" is chosen on them), translated where the sentence is made
KIND_PHRASES = {
    LedgerEntry.Kind.ADJUSTMENT: gettext_noop("GM adjustment"),
    LedgerEntry.Kind.STAKE: gettext_noop("side-event stake"),
}
EVENT_VERBS = {
    UnitEvent.Kind.JOINED: gettext_noop("joined"),
    UnitEvent.Kind.TRAINED: gettext_noop("were trained"),
    UnitEvent.Kind.KILLED: gettext_noop("were killed"),
    UnitEvent.Kind.DESERTED: gettext_noop("deserted"),
    UnitEvent.Kind.DISMISSED: gettext_noop("were dismissed"),
    UnitEvent.Kind.RELEASED: gettext_noop("were released"),
    UnitEvent.Kind.RETURNED: gettext_noop("came back"),
    UnitEvent.Kind.CORRECTED: gettext_noop("had their training corrected"),
}


def _abandoned_stakes(campaign_id: int) -> Q:
    """The fees and refunds of abandoned tables: they cancel out per account (ruling T1), so the GM's
    abandon has already undone them (ruling R1)."""
    abandoned = Table.objects.filter(campaign_id=campaign_id, status=Table.Status.ABANDONED).values("pk")
    return Q(kind=LedgerEntry.Kind.STAKE, cause_type=CAUSE_TYPE, cause_id__in=abandoned)


def in_the_way(*, campaign_id: int, day: int, finished_at) -> list[str]:
    """Everything on day ``day + 1`` that depends on the end of ``day`` (ruling R1), one phrase each. Six queries."""
    new_day = day + 1
    ledger_undone, events_undone = _undone(campaign_id, new_day)
    found: list[str] = []
    entries = (
        LedgerEntry.objects.filter(account__campaign_id=campaign_id, day=new_day)
        .exclude(ledger_undone)
        .exclude(_abandoned_stakes(campaign_id))
        .select_related("account")
        .order_by("pk")[: SHOWN + 1]
    )
    for entry in entries:
        if entry.kind in KIND_PHRASES:
            english, kind = KIND_PHRASES[entry.kind], gettext(KIND_PHRASES[entry.kind])
        else:
            kind = entry.get_kind_display().lower()
            with translation.override(None):
                english = entry.get_kind_display().lower()
        values = {"account": entry.account.name, "kind": kind, "reason": entry.reason, "amount": f"{entry.amount:+}"}
        if english[0] in "aeiou":
            found.append(gettext("%(account)s has an %(kind)s entry (%(reason)s, %(amount)s)") % values)
        else:
            found.append(gettext("%(account)s has a %(kind)s entry (%(reason)s, %(amount)s)") % values)
    events = (
        UnitEvent.objects.filter(unit__commander__campaign_id=campaign_id, day=new_day)
        .exclude(events_undone)
        .select_related("unit__commander", "unit__card")
        .order_by("pk")[: SHOWN + 1]
    )
    for event in events:
        verb = gettext(EVENT_VERBS[event.kind]) if event.kind in EVENT_VERBS else event.kind
        found.append(
            gettext("%(commander)s's %(unit)s %(verb)s")
            % {"commander": event.unit.commander.name, "unit": event.unit.card.name, "verb": verb}
        )
    for battle in Battle.objects.filter(campaign_id=campaign_id, day=new_day).order_by("pk")[: SHOWN + 1]:
        found.append(gettext("battle #%(battle_id)s was opened") % {"battle_id": battle.pk})
    if finished_at is not None:
        staked = Table.objects.filter(
            campaign_id=campaign_id, stake__isnull=False, created_at__gte=finished_at
        ).exclude(status=Table.Status.ABANDONED)
        for table in staked.order_by("pk")[: SHOWN + 1]:
            found.append(gettext("the side event “%(title)s” was opened with stakes") % {"title": table.shown_title})
    for name in Commander.objects.filter(campaign_id=campaign_id, retired_day=new_day).values_list("name", flat=True)[
        : SHOWN + 1
    ]:
        found.append(gettext("%(name)s was retired") % {"name": name})
    later = DayEnd.objects.filter(campaign_id=campaign_id, day=new_day).exclude(status=DayEnd.Status.REVERTED).first()
    if later is not None:
        found.append(
            gettext("day %(day)s has been ended too (%(status)s)")
            % {"day": new_day, "status": later.get_status_display().lower()}
        )
    return found


def in_the_way_refusal(day: int, obstacles: list[str]) -> str:
    shown = obstacles[:SHOWN]
    more = len(obstacles) - len(shown)
    listed = ", ".join(shown[:-1]) + (gettext(" and ") if len(shown) > 1 else "") + shown[-1]
    if more > 0:
        listed += gettext(" (and more)")
    # Translators: listed is one or more clauses ("Ann has a GM adjustment entry (…), battle #3 was opened").
    return gettext("Day %(day)s cannot be taken back: on day %(next)s %(listed)s. Undo those first.") % {
        "day": day,
        "next": day + 1,
        "listed": listed,
    }
