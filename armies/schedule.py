"""The day-end schedule: each campaign may end its day automatically at ``Campaign.day_end_time`` (UTC).

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

from datetime import UTC, datetime, time, timedelta

from django.db.models import Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce

from campaign.models import Campaign, Day

from .models import DayEnd


def last_passing(now: datetime, at: time) -> datetime:
    """The latest moment, at or before ``now``, when the UTC clock showed ``at``."""
    now = now.astimezone(UTC)
    moment = now.replace(hour=at.hour, minute=at.minute, second=at.second, microsecond=0)
    return moment if moment <= now else moment - timedelta(days=1)


def due_day_ends(*, now: datetime) -> list[Campaign]:
    """The campaigns whose current day should be ended now. One query."""
    opened = Day.objects.filter(campaign=OuterRef("pk"), number=OuterRef("current_day")).values("opened_at")[:1]
    ended = DayEnd.objects.filter(campaign=OuterRef("pk"), day=OuterRef("current_day"))
    campaigns = (
        Campaign.objects.filter(day_end_time__isnull=False)
        .annotate(day_opened_at=Coalesce(Subquery(opened), "created_at"), day_end_exists=Exists(ended))
        .filter(day_end_exists=False)
        .order_by("pk")
    )
    return [c for c in campaigns if c.day_opened_at < last_passing(now, c.day_end_time)]
