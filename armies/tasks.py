"""Celery tasks of the armies app: settling a day's upkeep, and beat's periodic day-end check.

The task module imports the services, never the other way round: services send ``settle_day``
by its name (``armies.services.day_end.SETTLE_DAY``), and ``ArmiesConfig.ready`` imports this
module so every process (web, worker, beat) has the tasks registered. Beat's entry is
``CELERY_BEAT_SCHEDULE`` in muster/settings.py.

Start a day end with ``armies.services.day_end.day_end_start`` (it creates the ``DayEnd`` row
and sends ``settle_day`` when the transaction commits), not by calling the task directly.
Without ``REDIS_URL`` the task runs in-process (settings: ``CELERY_TASK_ALWAYS_EAGER``).

``settle_day`` is idempotent (``day_settle`` skips commanders already settled and closes the
day once), so it is safe to deliver twice: it acknowledges late, is rejected back to the
queue if its worker process dies, and retries on database connection or deadlock errors.
A worker killed outright (SIGKILL, a lost machine) acknowledges nothing: the broker hands the
message out again after ``CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]``, and sooner,
beat's ``run_scheduled_day_ends`` sends a day end whose heartbeat is older than the lease again.

Two environment variables exist for the worker tests only (tests/armies/test_celery_worker.py)
and are never set in production: ``MUSTER_TEST_SETTLE_DELAY`` (seconds to sleep after each
committed chunk, so a test can kill the worker mid-run) and ``MUSTER_TEST_SETTLE_CHUNK``
(commanders per chunk).
"""

from __future__ import annotations

import logging
import os
import time

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from campaign.models import Campaign

from .schedule import due_day_ends
from .services import ArmyError
from .services.day_end import SETTLE_DAY, _commanders, day_end_start, stale_day_ends
from .services.settlement import CHUNK_SIZE, day_end_failed, day_settle

logger = logging.getLogger(__name__)

RUN_SCHEDULED_DAY_ENDS = "armies.run_scheduled_day_ends"


def _test_delay() -> float:
    return float(os.environ.get("MUSTER_TEST_SETTLE_DELAY") or 0)


def _chunk_size() -> int:
    return int(os.environ.get("MUSTER_TEST_SETTLE_CHUNK") or 0) or CHUNK_SIZE


@shared_task(
    bind=True,
    name=SETTLE_DAY,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=10,
)
def settle_day(self, campaign_id: int, day: int) -> dict | None:
    """Settle ``day`` of the campaign and open the next; safe to run any number of times."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        logger.warning("settle_day: campaign %s is gone", campaign_id)
        return None
    delay = _test_delay()
    settled_here = [0]  # by this run: a redelivered run may find the day settled already

    def after_chunk(settled_so_far: int) -> None:
        settled_here[0] = settled_so_far
        if delay:
            time.sleep(delay)

    try:
        day_end = day_settle(campaign=campaign, day=day, chunk_size=_chunk_size(), after_chunk=after_chunk)
    except Exception as failure:  # day_settle records its own; this covers what failed around it
        day_end_failed(campaign_id=campaign_id, day=day, failure=failure)
        raise
    if day_end is None:
        return None
    if settled_here[0]:
        logger.info("Day %s of %s settled: %s by this run (%s in all)", day, campaign,
                    _commanders(settled_here[0]), day_end.done)
    else:
        logger.info("Day %s of %s: nothing left to settle (%s settled before this run)", day, campaign,
                    _commanders(day_end.done))
    return {"day_end": day_end.pk, "status": day_end.status, "done": day_end.done, "total": day_end.total}


@shared_task(name=RUN_SCHEDULED_DAY_ENDS)
def run_scheduled_day_ends() -> list[int]:
    """Beat's periodic check: start every day end that is due by the schedule, and send again every
    queued or running one whose worker went silent; returns the ids of the campaigns concerned."""
    now = timezone.now()
    sent = []
    for campaign in due_day_ends(now=now):
        try:
            day_end_start(campaign=campaign, day=campaign.current_day, started_by=None)
        except ArmyError as exc:  # the day moved on, or a battle is still being fought
            logger.info("Scheduled day end of %s skipped: %s", campaign, exc)
            continue
        logger.info("Scheduled day end of %s, day %s, started", campaign, campaign.current_day)
        sent.append(campaign.pk)
    for stale in stale_day_ends(now=now):
        try:
            day_end_start(campaign=stale.campaign, day=stale.day, started_by=None)
        except ArmyError as exc:  # it finished or came back to life meanwhile
            logger.info("Stale day end %s left alone: %s", stale, exc)
            continue
        logger.warning("Day end %s showed no life since %s: sent again", stale, stale.heartbeat_at)
        sent.append(stale.campaign_id)
    return sent
