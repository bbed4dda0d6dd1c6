"""The upload page's import, off the request (issue 34): stored, sent to Celery by name, watched.

``import_job_start`` stores the uploaded bytes in an ``ImportJob`` (one transaction, under the form's
one-time token: a double submit gives back the first job, ``AlreadyDone``) and, once that commits, sends
``archive.import_campaign`` (archive/tasks.py) with the job's id. The task calls ``import_job_run``,
which runs ``campaign_import`` with the upload limits and writes each phase's progress to the job (records
checked, replayed, then written), so the job's page can show it. The transaction that reveals the campaign
marks the job done, so a campaign is never shown without its job saying so; a write pass that fails removes
what it wrote before the job says "Nothing was imported.", and a job whose worker died mid-way (quiet past
``archive.discard.IMPORT_STALE``) is ended by the sweep with its half-written campaign. Any end empties the
stored bytes.

Always a job, whatever the file's size: one path to test and to reason about, and the page that shows
progress is the page that shows the result (the campaign, the claim invites, or the refusal).

Without ``REDIS_URL`` Celery runs the task eagerly, in the request that uploaded (muster/settings.py):
the request does the work and the job's page then shows the result at once. That is acceptable for
``make run``'s one process because the import holds SQLite's write lock a batch at a time (the checking
and replaying passes hold no transaction, the write pass commits every thousand records: docs/benchmarks.md
has the figures), so the other GMs' writes go on meanwhile; with a worker the request returns at once and
the page polls.
"""

from __future__ import annotations

import logging
import time
from io import BytesIO

from celery import current_app
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from campaign.models import Campaign
from campaign.quotas import QuotaExceeded, campaign_quota_check
from campaign.submissions import applied_once

from .format import ArchiveRefused
from .importer import CHECKING, REPLAYING, WRITING, campaign_import
from .models import ImportJob
from .upload import UPLOAD_LIMITS

log = logging.getLogger(__name__)

IMPORT_CAMPAIGN = "archive.import_campaign"  # the task's name (archive.tasks.import_campaign)
PROGRESS_SECONDS = 0.5  # the job's row is updated at most this often within a phase
PHASES = {CHECKING: ImportJob.Status.CHECKING, REPLAYING: ImportJob.Status.REPLAYING,
          WRITING: ImportJob.Status.WRITING}
FAILED = gettext_noop(
    "The import stopped on an error of this site, not of the file. Nothing was imported; try again later."
)
STILL_RUNNING = gettext_noop(
    "An import of yours is still running: wait until its page says how it ended, then try again."
)
NOTHING_IMPORTED = gettext_noop("Nothing was imported.")


@applied_once("campaign_import")
def import_job_start(*, importer, data: bytes, file_name: str) -> ImportJob:
    """Store the upload as a job and send its import once the job is committed; returns the job.

    An import starts a campaign: it counts against the importer's quota of new campaigns (campaign/quotas.py,
    ``QuotaExceeded``), and one account runs one import at a time, so nobody queues a worker's day of them."""
    campaign_quota_check(importer)
    if ImportJob.objects.filter(importer=importer).exclude(status__in=ImportJob.ENDED).exists():
        raise QuotaExceeded(gettext(STILL_RUNNING))  # said now, in the request's language
    job = ImportJob.objects.create(importer=importer, data=data, size=len(data), file_name=file_name[:200])
    job_id = job.pk
    # Looked up by name: a KeyError means archive.tasks was not imported (ArchiveConfig.ready does).
    transaction.on_commit(lambda: current_app.tasks[IMPORT_CAMPAIGN].delay(job_id))
    return job


class _Watch:
    """``campaign_import``'s progress, written to the job: each new phase at once, counts twice a second."""

    def __init__(self, job_id: int):
        self.job_id, self.phase, self.last = job_id, None, 0.0

    def __call__(self, phase: str, done: int, total: int | None) -> None:
        now = time.monotonic()
        if phase == self.phase and now - self.last < PROGRESS_SECONDS:
            return
        self.phase, self.last = phase, now
        fields = {"status": PHASES[phase], "done": done, "heartbeat_at": timezone.now()}
        if total is not None:
            fields["total"] = total
        ImportJob.objects.filter(pk=self.job_id).update(**fields)


def import_job_run(job_id: int) -> str:
    """Run the job's import (the task's body); returns the job's status. A job already started is left
    alone (a second delivery of the task)."""
    with transaction.atomic():
        started = ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.QUEUED).update(
            status=ImportJob.Status.CHECKING, heartbeat_at=timezone.now())
    if not started:
        return ImportJob.objects.filter(pk=job_id).values_list("status", flat=True).first() or "gone"
    job = ImportJob.objects.select_related("importer").get(pk=job_id)
    data, job.data = bytes(job.data), b""

    def written(campaign: Campaign) -> None:  # inside the transaction that reveals the campaign
        _end(job_id, ImportJob.Status.DONE, campaign=campaign, claims=campaign.import_claims)

    try:
        campaign_import(BytesIO(data), importer=job.importer, limits=UPLOAD_LIMITS, progress=_Watch(job_id),
                        on_written=written)
    except ArchiveRefused as refusal:
        # the English sentence for the record, its words for the page to say in the reader's language
        _end(job_id, ImportJob.Status.REFUSED, refusal=f"{refusal.sentence} {NOTHING_IMPORTED}",
             refusal_words=[refusal.words(), [NOTHING_IMPORTED, {}]])
        return ImportJob.Status.REFUSED
    except Exception:
        log.exception("archive import job %s failed", job_id)
        _end(job_id, ImportJob.Status.FAILED, refusal=FAILED, refusal_words=[[FAILED, {}]])
        return ImportJob.Status.FAILED
    return ImportJob.Status.DONE


def _end(job_id: int, status: str, **fields) -> None:
    """The job's end: its status and result, and the stored upload emptied."""
    ImportJob.objects.filter(pk=job_id).update(status=status, data=b"", finished_at=timezone.now(), **fields)


def import_job_for(user, job_id: int) -> ImportJob | None:
    """The job ``user`` may watch: their own, or any for staff; None otherwise (the page answers 404)."""
    jobs = ImportJob.objects.defer("data").select_related("campaign")
    if not (user.is_staff and user.is_active):
        jobs = jobs.filter(importer=user)
    return jobs.filter(pk=job_id).first()
