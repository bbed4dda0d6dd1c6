"""Battles between two armies: ``Battle``, its set-up, lock rules and result (the live table is a
``tabletop.Table``)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign

from .commanders import Commander


class Battle(models.Model):
    """A battle between two armies: its set-up, lock rules and result (the live table is a tabletop.Table)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles", verbose_name=_("campaign"))
    attacker = models.ForeignKey(
        Commander, on_delete=models.PROTECT, related_name="battles_as_attacker", verbose_name=_("attacker")
    )
    defender = models.ForeignKey(
        Commander, on_delete=models.PROTECT, related_name="battles_as_defender", verbose_name=_("defender")
    )
    day = models.PositiveIntegerField(verbose_name=_("day"))
    table = models.OneToOneField(
        "tabletop.Table",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="battle",
        verbose_name=_("table"),
    )
    started_at = models.DateTimeField(auto_now_add=True, verbose_name=_("started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    routed = models.ForeignKey(
        Commander, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("routed")
    )
    winner = models.ForeignKey(
        Commander, null=True, blank=True, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner")
    )
    override_reason = models.CharField(
        max_length=240,
        blank=True,
        help_text=_("Why the GM opened it despite a lock."),
        verbose_name=_("override reason"),
    )
    result = models.JSONField(
        null=True,
        blank=True,
        help_text=_("What the campaign took from the table's outcome (battle_tables.py)."),
        verbose_name=_("result"),
    )
    abandoned_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the GM abandoned it before its end (its units were released)."),
        verbose_name=_("abandoned at"),
    )

    class Meta:
        verbose_name = _("battle")
        verbose_name_plural = _("battles")
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"Battle #{self.pk}: {self.attacker} against {self.defender} (day {self.day})"
