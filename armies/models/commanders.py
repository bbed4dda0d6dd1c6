"""Commanders and their rosters: ``Commander`` (its treasury is a ledger ``Account``; nothing here stores a
balance), ``ArmyUnit`` (one unit of a roster) and ``UnitEvent`` (its history, with day and cause)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.bounds import between, check_between
from campaign.models import Account, Campaign, Membership

from .cards import Path, Role, UnitCard

COMMANDER_ROLES = [(key, label) for key, label in Role.choices if key in {"aggressor", "guardian", "healer", "savant"}]


class Commander(models.Model):
    class Kind(models.TextChoices):
        PC = "pc", _("Player character")
        NPC = "npc", _("Non-player character")

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="commanders", verbose_name=_("campaign")
    )
    membership = models.ForeignKey(
        Membership,
        on_delete=models.PROTECT,
        related_name="commanders",
        help_text=_("Who runs it (the GM for an NPC)."),
        verbose_name=_("membership"),
    )
    account = models.OneToOneField(
        Account, on_delete=models.PROTECT, related_name="commander", verbose_name=_("account")
    )
    name = models.CharField(max_length=120, verbose_name=_("name"))
    kind = models.CharField(max_length=3, choices=Kind.choices, default=Kind.PC, verbose_name=_("kind"))
    progression = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Non-bonus progression."),
        validators=between(0, bounds.MAX_PROGRESSION),
        verbose_name=_("progression"),
    )
    favors = models.PositiveSmallIntegerField(
        default=0, validators=between(0, bounds.MAX_FAVORS), verbose_name=_("favors")
    )
    influence_halves = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Influence counted in halves."),
        validators=between(0, bounds.MAX_INFLUENCE_HALVES),
        verbose_name=_("influence halves"),
    )
    role = models.CharField(max_length=10, choices=COMMANDER_ROLES, verbose_name=_("role"))
    path = models.CharField(max_length=10, choices=Path.choices, verbose_name=_("path"))
    weapons = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Weapon item cards held for training."),
        validators=between(0, bounds.MAX_ITEM_CARDS),
        verbose_name=_("weapons"),
    )
    shields = models.PositiveSmallIntegerField(
        default=0, validators=between(0, bounds.MAX_ITEM_CARDS), verbose_name=_("shields")
    )
    alchemy = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Each counts as 2 item cards."),
        validators=between(0, bounds.MAX_ITEM_CARDS),
        verbose_name=_("alchemy"),
    )
    build_points = models.PositiveIntegerField(
        default=0, validators=between(0, bounds.MAX_BUILD_POINTS), verbose_name=_("build points")
    )
    retired_day = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("The day the GM retired it: kept with its history, out of play."),
        verbose_name=_("retired day"),
    )

    class Meta:
        verbose_name = _("commander")
        verbose_name_plural = _("commanders")
        ordering = ["campaign", "name"]
        constraints = [
            check_between("progression", 0, bounds.MAX_PROGRESSION, name="commander_progression_bounded"),
            check_between("favors", 0, bounds.MAX_FAVORS, name="commander_favors_bounded"),
            check_between("influence_halves", 0, bounds.MAX_INFLUENCE_HALVES, name="commander_influence_bounded"),
            check_between("weapons", 0, bounds.MAX_ITEM_CARDS, name="commander_weapons_bounded"),
            check_between("shields", 0, bounds.MAX_ITEM_CARDS, name="commander_shields_bounded"),
            check_between("alchemy", 0, bounds.MAX_ITEM_CARDS, name="commander_alchemy_bounded"),
            check_between("build_points", 0, bounds.MAX_BUILD_POINTS, name="commander_build_points_bounded"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def influence(self) -> float:
        return self.influence_halves / 2


class ArmyUnit(models.Model):
    """One unit in a commander's roster; ``history`` records every change with its day and cause."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        KILLED = "killed", _("Killed")
        DESERTED = "deserted", _("Deserted")
        DISMISSED = "dismissed", _("Dismissed")
        RELEASED = "released", _("Released")

    commander = models.ForeignKey(
        Commander, on_delete=models.CASCADE, related_name="units", verbose_name=_("commander")
    )
    card = models.ForeignKey(UnitCard, on_delete=models.PROTECT, related_name="+", verbose_name=_("card"))
    trained = models.BooleanField(default=False, verbose_name=_("trained"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status"))
    joined_day = models.PositiveIntegerField(verbose_name=_("joined day"))
    left_day = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("left day"))

    class Meta:
        verbose_name = _("army unit")
        verbose_name_plural = _("army units")
        ordering = ["commander", "id"]
        indexes = [models.Index(fields=["commander", "status"])]

    def __str__(self) -> str:
        return f"{self.card.name} ({self.commander})"

    @property
    def strength(self) -> int | None:
        if self.card.strength is None:
            return None
        return self.card.strength + (1 if self.trained else 0)


class UnitEvent(models.Model):
    class Kind(models.TextChoices):
        JOINED = "joined", _("Joined")
        TRAINED = "trained", _("Trained")
        KILLED = "killed", _("Killed")
        DESERTED = "deserted", _("Deserted")
        DISMISSED = "dismissed", _("Dismissed")
        RELEASED = "released", _("Released")
        RETURNED = "returned", _("Returned")  # back in the roster: the day end it deserted at was taken back
        CORRECTED = "corrected", _("Corrected")  # the GM corrected its training

    unit = models.ForeignKey(ArmyUnit, on_delete=models.CASCADE, related_name="history", verbose_name=_("unit"))
    day = models.PositiveIntegerField(verbose_name=_("day"))
    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=_("kind"))
    cause = models.CharField(max_length=240, verbose_name=_("cause"))
    cause_type = models.CharField(max_length=40, blank=True, verbose_name=_("cause type"))
    cause_id = models.PositiveBigIntegerField(null=True, blank=True, verbose_name=_("cause id"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("unit event")
        verbose_name_plural = _("unit events")
        ordering = ["unit", "id"]

    def __str__(self) -> str:
        return f"day {self.day}: {self.get_kind_display()} ({self.cause})"
