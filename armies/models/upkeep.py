"""What a day costs and the day end that settles it: ``UnitUse`` (a unit used on a day, what upkeep is
charged for), ``Settlement`` (a commander's upkeep for one day) and ``DayEnd`` (one run of the day-end job)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign

from .commanders import ArmyUnit, Commander


class UnitUse(models.Model):
    """A unit was used on this day (in any number of battles): what upkeep is charged for."""

    unit = models.ForeignKey(ArmyUnit, on_delete=models.CASCADE, related_name="uses", verbose_name=_("unit"))
    commander = models.ForeignKey(
        Commander, on_delete=models.CASCADE, related_name="unit_uses", verbose_name=_("commander")
    )
    day = models.PositiveIntegerField(verbose_name=_("day"))
    first_battle = models.ForeignKey(
        "Battle", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("first battle")
    )

    class Meta:
        verbose_name = _("unit use")
        verbose_name_plural = _("unit uses")
        constraints = [models.UniqueConstraint(fields=["unit", "day"], name="one_use_per_unit_per_day")]
        indexes = [models.Index(fields=["commander", "day"])]

    def __str__(self) -> str:
        return f"unit {self.unit_id} used on day {self.day}"


class Settlement(models.Model):
    """A commander's upkeep for one day: at most one, enforced by the database."""

    commander = models.ForeignKey(
        Commander, on_delete=models.PROTECT, related_name="settlements", verbose_name=_("commander")
    )
    day = models.PositiveIntegerField(verbose_name=_("day"))
    owed = models.PositiveIntegerField(verbose_name=_("owed"))
    paid = models.PositiveIntegerField(verbose_name=_("paid"))
    deserted = models.JSONField(
        default=list, help_text=_("Names of the units that deserted."), verbose_name=_("deserted")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    reverted_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the GM took its day end back; kept for the history, no longer counted."),
        verbose_name=_("reverted at"),
    )

    class Meta:
        verbose_name = _("settlement")
        verbose_name_plural = _("settlements")
        ordering = ["day", "commander"]
        constraints = [
            models.UniqueConstraint(
                fields=["commander", "day"],
                condition=Q(reverted_at__isnull=True),
                name="one_settlement_per_commander_day",
            )
        ]

    def __str__(self) -> str:
        return f"{self.commander} day {self.day}: paid {self.paid} of {self.owed}"

    @property
    def taken_back(self) -> bool:
        """Its day end was taken back: kept for the history, no longer counted (ruling R3)."""
        return self.reverted_at is not None


class DayEnd(models.Model):
    """One run of the day-end job for a campaign day, with its progress for the GM page."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")
        REVERTED = "reverted", _("Taken back")  # the GM took it back; ending the day again reuses this row

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="day_ends", verbose_name=_("campaign")
    )
    day = models.PositiveIntegerField(verbose_name=_("day"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, verbose_name=_("status"))
    total = models.PositiveIntegerField(default=0, verbose_name=_("total"))
    done = models.PositiveIntegerField(default=0, verbose_name=_("done"))
    error = models.TextField(blank=True, verbose_name=_("error"))
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("started by")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Last sign of life of the worker running it; a stale one may be resumed."),
        verbose_name=_("heartbeat at"),
    )
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("day end")
        verbose_name_plural = _("day ends")
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["campaign", "day"], name="one_day_end_per_day")]

    def __str__(self) -> str:
        return f"{self.campaign} day {self.day} end ({self.status})"
