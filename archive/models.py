"""The archive app's one table: an uploaded archive being imported (archive/jobs.py).

The upload page does not import while the request waits: it stores the file in an ``ImportJob`` and sends
the import to Celery, and the importer watches the job's page. The stored bytes are emptied once the job
ends, whatever its end; the row stays as the record of what the upload became (the campaign, or the
sentence that refused it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .format import said


class ImportJob(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting to start")
        CHECKING = "checking", _("Checking the file and its digest")
        REPLAYING = "replaying", _("Replaying every table")
        WRITING = "writing", _("Writing the campaign")
        DONE = "done", _("Imported")
        REFUSED = "refused", _("Refused")
        FAILED = "failed", _("Failed")

    importer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs")
    file_name = models.CharField(max_length=200, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    data = models.BinaryField(default=b"", help_text=_("The uploaded file, until the job ends."))
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0, help_text=_("Records read in the current phase."))
    total = models.PositiveIntegerField(null=True, blank=True, help_text=_("The archive's records, once checked."))
    refusal = models.TextField(blank=True)  # in English, as the record of what refused it
    # the refusal's sentences as plain data, [[message, params], ...] (archive.format.said): the page says them
    # in its reader's language; empty for a job that ended before there were words (its page shows ``refusal``)
    refusal_words = models.JSONField(default=list, blank=True)
    campaign = models.ForeignKey("campaign.Campaign", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    claims = models.JSONField(default=list, blank=True, help_text=_("The members given an invite to claim."))
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # moved with each progress report: a running job quiet for long has lost its worker (archive/discard.py)
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    ENDED = (Status.DONE, Status.REFUSED, Status.FAILED)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        if self.file_name:
            return gettext("Import of %(name)s (%(status)s)") % {
                "name": self.file_name,
                "status": self.get_status_display(),
            }
        return gettext("Import of an archive (%(status)s)") % {"status": self.get_status_display()}

    @property
    def refusal_sentence(self) -> str:
        """The refusal in the active language (the job's page)."""
        if not self.refusal_words:
            return self.refusal
        return " ".join(said(words) for words in self.refusal_words)

    @property
    def ended(self) -> bool:
        return self.status in self.ENDED
