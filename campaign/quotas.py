"""Quotas on making things: at most so many in the last hour and the last day (issue 34: one account
started 20 campaigns in 0.8 s; open sign-up made 15 accounts in 5.2 s from one address).

The counts come from rows the database keeps anyway (a campaign's "started" line in its activity log;
an open sign-up's record, people.OpenSignup), not from the cache: the cache is each process's own
memory under ``make run``, so every process would count apart, while the database is shared by all of
them and rolls a refused write back with its count. A check and the write after it are not one lock:
two posts at the same instant may both pass at the last free place, which a quota can live with.

``quota_wait`` is pure: the times of the latest things made (newest first) and the limits, in, and how
long until one more is allowed, out. A limit of 0 is no limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muster.refusals import Refusal

from .models import Activity

HOUR, DAY = timedelta(hours=1), timedelta(days=1)


class QuotaExceeded(Refusal):
    """Too many made lately: the sentence says how many are allowed and when to try again (429)."""

    status = 429


def quota_wait(latest: Sequence[datetime], limits: Sequence[tuple[timedelta, int]], now: datetime):
    """``(window, limit)`` of the limit reached, and how long until one more is allowed; None when none is.
    ``latest`` holds the newest times first, at least as many as the largest limit."""
    reached = None
    for window, limit in limits:
        recent = [moment for moment in latest if moment > now - window]
        if limit and len(recent) >= limit:
            wait = recent[limit - 1] + window - now
            if reached is None or wait > reached[1]:
                reached = ((window, limit), wait)
    return reached


def wait_words(wait: timedelta) -> str:
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    if minutes <= 90:
        return ngettext("%(minutes)d minute", "%(minutes)d minutes", minutes) % {"minutes": minutes}
    hours = math.ceil(minutes / 60)
    return ngettext("%(hours)d hour", "%(hours)d hours", hours) % {"hours": hours}


def quota_refusal(what: Callable[[int], str], latest: Sequence[datetime],
                  limits: Sequence[tuple[timedelta, int]]) -> str | None:
    """The sentence for one more of ``what`` (the things counted, for a number: "3 new campaigns"), or None
    when it is allowed."""
    reached = quota_wait(latest, limits, timezone.now())
    if reached is None:
        return None
    (window, limit), wait = reached
    words = {"what": what(limit), "wait": wait_words(wait)}
    if window == HOUR:
        # Translators: what is a count and its noun ("3 new campaigns"); wait a time ("5 minutes").
        return _("This site allows at most %(what)s an hour; try again in %(wait)s.") % words
    return _("This site allows at most %(what)s a day; try again in %(wait)s.") % words


def new_campaigns(count: int) -> str:
    return ngettext("%(count)d new campaign", "%(count)d new campaigns", count) % {"count": count}


def quota_check(what: Callable[[int], str], made: QuerySet, limits: Sequence[tuple[timedelta, int]]) -> None:
    """``QuotaExceeded`` when the rows of ``made`` (each with its ``created_at``) reach one of ``limits``
    in its window (the longest window is a day); ``what`` names them in the sentence."""
    most = max(limit for _, limit in limits)
    if not most:
        return
    latest = list(
        made.filter(created_at__gt=timezone.now() - DAY)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:most]
    )
    refusal = quota_refusal(what, latest, limits)
    if refusal:
        raise QuotaExceeded(refusal)


def campaign_quota_check(creator) -> None:
    """``QuotaExceeded`` when ``creator`` started settings.CAMPAIGNS_PER_HOUR campaigns in the last hour
    or CAMPAIGNS_PER_DAY in the last day. Staff have none: they run the site."""
    if creator.is_staff:
        return
    started = Activity.objects.filter(kind=Activity.Kind.CAMPAIGN_NEW, actor=creator)
    limits = [(HOUR, settings.CAMPAIGNS_PER_HOUR), (DAY, settings.CAMPAIGNS_PER_DAY)]
    quota_check(new_campaigns, started, limits)
