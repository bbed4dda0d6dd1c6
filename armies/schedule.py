"""The day-end schedule: each campaign may end its day automatically at ``Campaign.day_end_time``.

The time is a time of day on the campaign's own clock (``Campaign.time_zone``, an IANA zone read
with zoneinfo), so a campaign that ends at 20:00 in Europe/Berlin ends at 19:00 UTC in winter and
at 18:00 UTC in summer. Where daylight saving moves the clock, each local date passes the time
once: a time the clock skips in spring (02:30 when 02:00 jumps to 03:00) passes that day an hour
later by the new clock (03:30, as zoneinfo reads a skipped time: fold 0); a time the clock shows
twice in autumn passes at its first showing only, so the day is not ended twice that night.

Beat runs ``armies.tasks.run_scheduled_day_ends`` every ``DAY_END_CHECK_SECONDS`` (a minute; the
entry is ``CELERY_BEAT_SCHEDULE`` in muster/settings.py). Each run starts the day end of every
campaign that ``due_day_ends`` lists:

- it has a ``day_end_time``;
- its current day was opened before the latest passing of that time (so a day opened by
  today's day end waits for tomorrow's, and a campaign created at 21:00 with a 20:00 time
  first ends tomorrow at 20:00; if beat was down for days, the day is ended once, not once
  per missed day);
- its current day has no ``DayEnd`` yet. One that is queued or running is the worker's (and
  if its worker went silent, the same check sends it again: armies.services.day_end, the
  lease); one that failed waits for the GM or an operator to start it again (ruling U8), so a
  broken day end is not retried every minute forever.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta, tzinfo

from django.db.models import Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce

from campaign.models import Campaign, Day

from .models import DayEnd


def _passing_on(day, at: time, zone: tzinfo) -> datetime:
    """The moment (in UTC) the clock of ``zone`` shows ``at`` on the local date ``day`` (its first showing)."""
    wall = datetime(day.year, day.month, day.day, at.hour, at.minute, at.second, tzinfo=zone, fold=0)
    return wall.astimezone(UTC)


def last_passing(now: datetime, at: time, zone: tzinfo = UTC) -> datetime:
    """The latest moment, at or before ``now``, when the clock of ``zone`` passed ``at`` (in UTC)."""
    now = now.astimezone(UTC)
    today = now.astimezone(zone).date()
    moment = _passing_on(today, at, zone)
    return moment if moment <= now else _passing_on(today - timedelta(days=1), at, zone)


def due_day_ends(*, now: datetime) -> list[Campaign]:
    """The campaigns whose current day should be ended now, each by its own clock. One query."""
    opened = Day.objects.filter(campaign=OuterRef("pk"), number=OuterRef("current_day")).values("opened_at")[:1]
    ended = DayEnd.objects.filter(campaign=OuterRef("pk"), day=OuterRef("current_day"))
    campaigns = (
        Campaign.objects.filter(day_end_time__isnull=False, importing_at__isnull=True)  # none being imported
        .annotate(day_opened_at=Coalesce(Subquery(opened), "created_at"), day_end_exists=Exists(ended))
        .filter(day_end_exists=False)
        .order_by("pk")
    )
    return [c for c in campaigns if c.day_opened_at < last_passing(now, c.day_end_time, c.zone)]
