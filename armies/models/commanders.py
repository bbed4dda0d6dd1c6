"""Army Rules between battles: the unit catalog, commanders, rosters, offers, upkeep and battles.

Money lives in the campaign ledger (``campaign.LedgerEntry``): a commander's treasury is
an ``Account``; nothing here stores a balance.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.bounds import between, check_between
from campaign.models import Account, Campaign, Membership
from tabletop.models import CatalogEntry


class Role(models.TextChoices):
    AGGRESSOR = "aggressor", "Aggressor"
    GUARDIAN = "guardian", "Guardian"
    HEALER = "healer", "Healer"
    SAVANT = "savant", "Savant"
    EQUIPMENT = "equipment", "Equipment"
    RITUAL = "ritual", "Ritual"


class Path(models.TextChoices):
    STEEL = "steel", "Steel"
    MAGIC = "magic", "Magic"
    FAITH = "faith", "Faith"
    NATURE = "nature", "Nature"
    MIND = "mind", "Mind"


COMMANDER_ROLES = [(key, label) for key, label in Role.choices if key in {"aggressor", "guardian", "healer", "savant"}]


class UnitCard(CatalogEntry):
    """A unit card of the catalog. Errata change this row; battles keep their own snapshot."""

    code = models.SlugField(max_length=40, unique=True, verbose_name=_("code"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    strength = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Empty: the card cannot fight (Rituals, support cards)."),
        validators=between(0, bounds.MAX_STRENGTH),
        verbose_name=_("strength"),
    )
    role = models.CharField(max_length=10, choices=Role.choices, verbose_name=_("role"))
    path = models.CharField(max_length=10, choices=Path.choices, verbose_name=_("path"))
    traits = models.JSONField(
        default=list, blank=True, help_text=_('e.g. ["reach", "undead"]'), verbose_name=_("traits")
    )
    abilities = models.JSONField(
        default=list, blank=True, help_text=_("In the army engine's vocabulary."), verbose_name=_("abilities")
    )
    upkeep = models.PositiveIntegerField(
        default=1,
        help_text=_("Coins per day the unit is used."),
        validators=between(0, bounds.MAX_COINS),
        verbose_name=_("upkeep"),
    )
    price = models.PositiveIntegerField(
        default=0, help_text=_("Usual recruit price."), validators=between(0, bounds.MAX_COINS), verbose_name=_("price")
    )
    text = models.CharField(
        max_length=240, blank=True, help_text=_("The card's special text, as printed."), verbose_name=_("text")
    )

    class Meta:
        verbose_name = _("unit card")
        verbose_name_plural = _("unit cards")
        ordering = ["name"]
        constraints = [
            check_between("strength", 0, bounds.MAX_STRENGTH, name="unitcard_strength_bounded", nullable=True),
            check_between("upkeep", 0, bounds.MAX_COINS, name="unitcard_upkeep_bounded"),
            check_between("price", 0, bounds.MAX_COINS, name="unitcard_price_bounded"),
        ]

    def __str__(self) -> str:
        return self.name


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


class RecruitOffer(models.Model):
    """Units for sale (or, with ``quest``, granted by the GM when a quest is done)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="offers", verbose_name=_("campaign"))
    card = models.ForeignKey(UnitCard, on_delete=models.PROTECT, related_name="+", verbose_name=_("card"))
    price = models.PositiveIntegerField(validators=between(0, bounds.MAX_COINS), verbose_name=_("price"))
    quantity = models.PositiveIntegerField(validators=between(1, bounds.MAX_OFFER_QUANTITY), verbose_name=_("quantity"))
    sold = models.PositiveIntegerField(default=0, verbose_name=_("sold"))
    until_day = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=_("Last day it can be bought."),
        validators=between(1, bounds.MAX_DAY),
        verbose_name=_("until day"),
    )
    quest = models.CharField(
        max_length=200, blank=True, help_text=_("For quest units: what must be done."), verbose_name=_("quest")
    )
    withdrawn_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the GM withdrew it: no longer offered."),
        verbose_name=_("withdrawn at"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("recruit offer")
        verbose_name_plural = _("recruit offers")
        ordering = ["campaign", "-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(sold__lte=models.F("quantity")), name="offer_not_oversold"),
            check_between("price", 0, bounds.MAX_COINS, name="offer_price_bounded"),
            check_between("quantity", 1, bounds.MAX_OFFER_QUANTITY, name="offer_quantity_bounded"),
            check_between("until_day", 1, bounds.MAX_DAY, name="offer_until_day_bounded", nullable=True),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.card} at {self.price}"

    @property
    def remaining(self) -> int:
        return self.quantity - self.sold


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
