"""Celery tasks of the archive app: beat's daily backup (archive/backup.py), and an uploaded archive's
import (archive/jobs.py sends ``import_campaign`` by its name when the upload's job is committed; the task
takes the job's id, plain data, and reads the stored file from the database, so any worker can run it).

Beat sends it by name once a day at ``BACKUP_HOUR`` (``CELERY_BEAT_SCHEDULE`` in muster/settings.py);
a worker runs it, so the backup lands on the worker's machine, in ``BACKUP_DIR``. Celery's
autodiscovery registers it on workers. Without ``REDIS_URL`` there is no beat and no daily backup:
the GM runs ``make backup``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from celery import shared_task
from django.conf import settings

from .backup import backup_manifest, backup_run
from .jobs import IMPORT_CAMPAIGN, import_job_run

logger = logging.getLogger(__name__)

DAILY_BACKUP = "archive.daily_backup"


@shared_task(name=DAILY_BACKUP)
def daily_backup() -> dict:
    """Write today's backup and prune old ones; returns the folder and its warnings (plain data)."""
    folder = backup_run(Path(settings.BACKUP_DIR), settings.BACKUP_KEEP)
    manifest = backup_manifest(folder)
    warnings = manifest["warnings"]
    not_copied = "" if manifest["database"].get("copied") else f" ({manifest['database']['reason']})"
    logger.info("Daily backup written to %s%s%s", folder, " with warnings" if warnings else "", not_copied)
    return {"folder": str(folder), "warnings": warnings}


@shared_task(name=IMPORT_CAMPAIGN)
def import_campaign(job_id: int) -> str:
    """Import the job's stored archive; returns the job's status (plain data). Delivered twice, the second
    run finds the job started and leaves it."""
    return import_job_run(job_id)
