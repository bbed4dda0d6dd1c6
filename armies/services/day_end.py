"""Starting a day end, sending it again when its worker went silent, and saying where it stands.

A day end is the day's ``DayEnd`` row plus the Celery task ``settle_day`` (armies.tasks) that runs
``armies.services.settlement.day_settle``. This module sends the task by its name, so the services
never import the task module (the task module imports the services, one way).

- ``day_end_start`` (the GM's "End day N", and the schedule) is pinned to its day: it ends day N or
  nothing. A day that is over or has not begun is refused with a sentence; a day end that is
  queued or running and whose worker showed life within the lease is left to it
  (``DayEndUnderway``); a failed one, or a stale one, is sent again.
- The lease: ``day_settle`` refreshes ``DayEnd.heartbeat_at`` when it starts and after every chunk.
  A queued or running day end whose last heartbeat (or, before the first, its creation) is older
  than ``settings.DAY_END_LEASE_SECONDS`` has no live worker: its worker was killed, or its
  message was lost. Beat's periodic check (``stale_day_ends``, run by armies.tasks) and the GM's
  button send it again. Sending renews the heartbeat, so while every worker is down a day end is
  sent again once per lease, not at every check. A second run next to a slow but living one is
  harmless: ``day_settle`` is idempotent under the ``DayEnd`` row lock (rulings U8, U9).
- ``day_end_report`` reads what actually happened, the ``DayEnd`` row and the campaign's day, and
  says it: after a failure the day may well have been settled by a concurrent run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from campaign.activity import Line, activity_record
from campaign.models import Activity, Campaign, Membership

from ..live import day_end_moved
from ..models import Battle, DayEnd
from . import ArmyError

SETTLE_DAY = "armies.settle_day"  # the task's name (armies.tasks.settle_day)
UNDERWAY = (DayEnd.Status.QUEUED, DayEnd.Status.RUNNING)


class DayOver(ArmyError):
    """The day asked for has already ended."""


class DayEndUnderway(ArmyError):
    """The day end is queued or running, and its worker showed life within the lease."""


def lease() -> timedelta:
    return timedelta(seconds=settings.DAY_END_LEASE_SECONDS)


def day_end_check(*, day: int, current: int) -> None:
    """Refuse, with a sentence, a day that is not the campaign's current ``day``."""
    if day < current:
        raise DayOver(
            gettext("Day %(day)s is already over: the campaign is on day %(current)s.")
            % {"day": day, "current": current}
        )
    if day > current:
        raise ArmyError(
            gettext("Day %(day)s has not begun: the campaign is on day %(current)s.") % {"day": day, "current": current}
        )


def _send(campaign_id: int, day: int) -> None:
    # Looked up by name: a KeyError here means armies.tasks was not imported (ArmiesConfig.ready does).
    # Nobody reads its result (day_end_report reads the database), so none is subscribed to: with Redis
    # down the result backend's subscription was what took 20 s and logged "must be restarted". A failed
    # send raises (within the bound of muster/settings.py) and leaves the day end queued for beat's check.
    current_app.tasks[SETTLE_DAY].apply_async((campaign_id, day), ignore_result=True)


def _is_stale(day_end: DayEnd, now: datetime) -> bool:
    return (day_end.heartbeat_at or day_end.created_at) < now - lease()


def day_end_start(*, campaign: Campaign, day: int, started_by=None) -> DayEnd:
    """Start (or send again) the day end of ``day``, the campaign's current day; returns its ``DayEnd``.

    ``started_by`` is the GM pressing the button (None for the schedule). The task is sent when
    the transaction commits (without Redis it runs right there, in-process).
    """
    with transaction.atomic():
        current = Campaign.objects.select_for_update().values_list("current_day", flat=True).get(pk=campaign.pk)
        if (
            started_by is not None
            and not Membership.objects.filter(
                campaign_id=campaign.pk, user_id=started_by.pk, role=Membership.Role.GM
            ).exists()
        ):
            raise PermissionDenied(gettext("Only the GM can end the day."))
        day_end_check(day=day, current=current)
        day_end = DayEnd.objects.select_for_update().filter(campaign_id=campaign.pk, day=day).first()
        now = timezone.now()
        sent_again = day_end is not None and day_end.status != DayEnd.Status.REVERTED
        if day_end is None or day_end.status == DayEnd.Status.REVERTED:
            fighting = (
                Battle.objects.filter(campaign_id=campaign.pk, day=day, ended_at__isnull=True, table__status="active")
                .select_related("attacker", "defender")
                .first()
            )
            if fighting is not None:
                raise ArmyError(
                    gettext(
                        "Battle #%(battle_id)s: %(attacker)s against %(defender)s (day %(day)s) is still being "
                        "fought: finish it (or undo it away) before ending the day."
                    )
                    % {
                        "battle_id": fighting.pk,
                        "attacker": fighting.attacker,
                        "defender": fighting.defender,
                        "day": fighting.day,
                    }
                )
        if day_end is None:
            day_end = DayEnd.objects.create(campaign_id=campaign.pk, day=day, started_by=started_by, heartbeat_at=now)
        elif day_end.status in UNDERWAY and not _is_stale(day_end, now):
            raise DayEndUnderway(gettext("Day %(day)s is already being settled.") % {"day": day})
        elif day_end.status == DayEnd.Status.DONE:
            return day_end  # a day closed with its current_day update: not reachable while day == current
        else:  # failed, taken back (day_end_revert), or stale: send it again
            if day_end.status == DayEnd.Status.REVERTED:  # ended again: by whoever ends it now
                day_end.started_by = started_by
            if day_end.status in (DayEnd.Status.FAILED, DayEnd.Status.REVERTED):
                day_end.status, day_end.error = DayEnd.Status.QUEUED, ""
            day_end.heartbeat_at = now
            day_end.save(update_fields=["status", "error", "heartbeat_at", "started_by"])
            day_end_moved(day_end.pk)
        activity_record(
            campaign=campaign.pk,
            actor=started_by,
            kind=Activity.Kind.DAY_END,
            summary=Line(
                gettext_noop("Day %(day)s end sent again") if sent_again else gettext_noop("Day %(day)s ended"), day=day
            ),
            target=day_end,
            day=day,
        )
        transaction.on_commit(partial(_send, campaign.pk, day))
    return day_end


def stale_day_ends(*, now: datetime) -> list[DayEnd]:
    """Queued or running day ends whose worker has shown no life for longer than the lease. One query."""
    last_sign = Coalesce("heartbeat_at", "created_at")
    return list(
        DayEnd.objects.filter(status__in=UNDERWAY)
        .alias(last_sign=last_sign)
        .filter(last_sign__lt=now - lease())
        .select_related("campaign")
        .order_by("pk")
    )


# --- what happened --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    tone: str  # "success", "info" or "error"
    sentence: str


def _resend_minutes() -> int:
    """At most how long until beat's check sends a silent day end again: the lease, then one check."""
    return math.ceil((settings.DAY_END_LEASE_SECONDS + settings.DAY_END_CHECK_SECONDS) / 60)


def _commanders(count: int) -> str:
    """For the log (tasks.py): English, as every log line."""
    return f"{count} commander{'s' if count != 1 else ''}"


def _settled(done: int, total: int) -> str:
    return ngettext("%(done)s of %(total)s commander", "%(done)s of %(total)s commanders", total) % {
        "done": done,
        "total": total,
    }


def day_end_report(*, campaign_id: int, day: int, failure: BaseException | None = None) -> Report:
    """Where the day end of ``day`` stands, read from the database (two queries).

    ``failure`` is what the caller's own attempt raised, if anything: it is only the story when the
    database shows no other outcome (a concurrent run may have settled the day meanwhile).
    """
    current = Campaign.objects.values_list("current_day", flat=True).get(pk=campaign_id)
    day_end = DayEnd.objects.filter(campaign_id=campaign_id, day=day).first()
    if current > day:
        if day_end:
            settled = ngettext("%(n)s commander settled", "%(n)s commanders settled", day_end.done) % {
                "n": day_end.done
            }
        else:
            settled = gettext("nobody owed upkeep")
        return Report(
            "success",
            gettext("Day %(day)s is over: %(settled)s. The campaign is on day %(current)s.")
            % {"day": day, "settled": settled, "current": current},
        )
    retry = gettext("The campaign is still on day %(day)s: press End day %(day)s to try again.") % {"day": day}
    if day_end is not None and day_end.status == DayEnd.Status.REVERTED:
        return Report(
            "info",
            gettext("The end of day %(day)s was taken back: the campaign is on day %(day)s again.") % {"day": day},
        )
    if day_end is None:
        return Report(
            "error",
            gettext("Day %(day)s was not ended (%(failure)s): nothing changed. %(retry)s")
            % {"day": day, "failure": failure, "retry": retry},
        )
    if day_end.status == DayEnd.Status.FAILED:
        error = day_end.error or f"{type(failure).__name__}: {failure}"
        return Report(
            "error",
            gettext(
                "Settling day %(day)s failed (%(error)s). %(settled)s are settled; nobody is charged twice. %(retry)s"
            )
            % {"day": day, "error": error, "settled": _settled(day_end.done, day_end.total), "retry": retry},
        )
    if failure is not None and day_end.status == DayEnd.Status.QUEUED:  # no run began: the send itself failed
        return Report(
            "error",
            gettext(
                "Day %(day)s is queued, but no worker has it yet (%(failure)s). It is sent again automatically within "
                "%(minutes)s minutes; or press End day %(day)s again then."
            )
            % {"day": day, "failure": failure, "minutes": _resend_minutes()},
        )
    if day_end.total:
        return Report(
            "info",
            gettext("Day %(day)s is being settled: %(settled)s so far.")
            % {"day": day, "settled": _settled(day_end.done, day_end.total)},
        )
    return Report("info", gettext("Day %(day)s is being settled.") % {"day": day})
