"""The day-end schedule: each campaign may end its day automatically at ``Campaign.day_end_time`` (UTC).

Celery beat runs ``run_scheduled_day_ends`` every minute (the entry is added to the app's
``beat_schedule`` when this module is imported, which ``armies.tasks`` does, and Celery
imports ``armies.tasks`` before beat reads its schedule). Each run starts the day end of
every campaign that is due:

- it has a ``day_end_time``;
- its current day was opened before the latest passing of that time (so a day opened by
  today's day end waits for tomorrow's, and a campaign created at 21:00 with a 20:00 time
  first ends tomorrow at 20:00; if beat was down for days, the day is ended once, not once
  per missed day);
- its current day has no ``DayEnd`` yet. One that is queued or running is the worker's; one
  that failed waits for the GM or an operator to start it again (ruling U8), so a broken
  day end is not retried every minute forever.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, time, timedelta

from celery import shared_task
from celery.schedules import crontab
from django.db.models import Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaign.models import Campaign, Day
from muster.celery import app

from .models import DayEnd

logger = logging.getLogger(__name__)

TASK_NAME = "armies.run_scheduled_day_ends"
BEAT_ENTRY = "armies: run scheduled day ends"


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


@shared_task(name=TASK_NAME)
def run_scheduled_day_ends() -> list[int]:
    """Start the day end of every campaign that is due; returns their ids."""
    from .services import ArmyError
    from .services.upkeep import day_end_start

    started = []
    for campaign in due_day_ends(now=timezone.now()):
        try:
            day_end_start(campaign=campaign, day=campaign.current_day, started_by=None)
        except ArmyError as exc:  # the day moved on between the read and the start
            logger.info("Scheduled day end of %s skipped: %s", campaign, exc)
            continue
        logger.info("Scheduled day end of %s, day %s, started", campaign, campaign.current_day)
        started.append(campaign.pk)
    return started


def register_beat(celery_app) -> None:
    """Add the every-minute entry to the app's beat schedule (idempotent)."""
    schedule = dict(celery_app.conf.beat_schedule or {})
    schedule[BEAT_ENTRY] = {"task": TASK_NAME, "schedule": crontab()}
    celery_app.conf.beat_schedule = schedule


register_beat(app)
