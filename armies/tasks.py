"""Celery tasks of the armies app: settling a day's upkeep, and (from ``armies.schedule``) the
every-minute check that starts scheduled day ends.

Start a day end with ``armies.services.upkeep.day_end_start`` (it creates the ``DayEnd`` row
and sends ``settle_day`` when the transaction commits), not by calling the task directly.
Without ``REDIS_URL`` the task runs in-process (settings: ``CELERY_TASK_ALWAYS_EAGER``).

``settle_day`` is idempotent (``day_settle`` skips commanders already settled and closes the
day once), so it is safe to deliver twice: it acknowledges late, is rejected back to the
queue if its worker process dies, and retries on database connection or deadlock errors.

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

from campaign.models import Campaign

from . import schedule  # noqa: F401  (registers run_scheduled_day_ends and its beat entry)
from .services.upkeep import CHUNK_SIZE, day_settle

logger = logging.getLogger(__name__)


def _test_delay() -> float:
    return float(os.environ.get("MUSTER_TEST_SETTLE_DELAY") or 0)


def _chunk_size() -> int:
    return int(os.environ.get("MUSTER_TEST_SETTLE_CHUNK") or 0) or CHUNK_SIZE


@shared_task(
    bind=True,
    name="armies.settle_day",
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
    day_end = day_settle(
        campaign=campaign,
        day=day,
        chunk_size=_chunk_size(),
        after_chunk=(lambda _settled: time.sleep(delay)) if delay else None,
    )
    if day_end is None:
        return None
    logger.info("Day %s of %s settled: %s commanders", day, campaign, day_end.done)
    return {"day_end": day_end.pk, "status": day_end.status, "done": day_end.done, "total": day_end.total}
