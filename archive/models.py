"""The archive app's one table: an uploaded archive being imported (archive/jobs.py).

The upload page does not import while the request waits: it stores the file in an ``ImportJob`` and sends
the import to Celery, and the importer watches the job's page. The stored bytes are emptied once the job
ends, whatever its end; the row stays as the record of what the upload became (the campaign, or the
sentence that refused it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting to start"
        CHECKING = "checking", "Checking the file and its digest"
        REPLAYING = "replaying", "Replaying every table"
        WRITING = "writing", "Writing the campaign"
        DONE = "done", "Imported"
        REFUSED = "refused", "Refused"
        FAILED = "failed", "Failed"

    importer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs")
    file_name = models.CharField(max_length=200, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    data = models.BinaryField(default=b"", help_text="The uploaded file, until the job ends.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0, help_text="Records read in the current phase.")
    total = models.PositiveIntegerField(null=True, blank=True, help_text="The archive's records, once checked.")
    refusal = models.TextField(blank=True)
    campaign = models.ForeignKey("campaign.Campaign", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    claims = models.JSONField(default=list, blank=True, help_text="The members given an invite to claim.")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # moved with each progress report: a running job quiet for long has lost its worker (archive/discard.py)
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    ENDED = (Status.DONE, Status.REFUSED, Status.FAILED)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Import of {self.file_name or 'an archive'} ({self.get_status_display()})"

    @property
    def ended(self) -> bool:
        return self.status in self.ENDED
