"""The unit catalog: the roles and paths of the cards, and ``UnitCard``, a unit card as the GM's admin
keeps it."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.bounds import between, check_between
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
