"""The recruiting offers: ``RecruitOffer``, units for sale or granted for a quest."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.bounds import between, check_between
from campaign.models import Campaign

from .cards import UnitCard


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
