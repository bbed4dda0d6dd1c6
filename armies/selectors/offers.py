"""Reads of the recruiting offers: those open on a day, those a commander can pay for now, every offer for
the GM's list, and whether the unit catalog is empty. Each is one query.
"""

from __future__ import annotations

from django.db.models import F, Q, QuerySet

from campaign.ledger import balance_of

from ..models import Commander, RecruitOffer, UnitCard


def unit_catalog_empty() -> bool:
    """No unit card at all (a fresh instance): the GM's armies page offers the starter units (AC2)."""
    return not UnitCard.objects.exists()


def offers_open(campaign_id: int, day: int) -> QuerySet[RecruitOffer]:
    """Offers that can still be bought or granted on ``day`` (not withdrawn by the GM)."""
    return (
        RecruitOffer.objects.filter(campaign_id=campaign_id, withdrawn_at__isnull=True)
        .filter(Q(until_day__isnull=True) | Q(until_day__gte=day))
        .filter(sold__lt=F("quantity"))
        .select_related("card")
    )


def offers_affordable(commander: Commander) -> list[RecruitOffer]:
    """Offers for sale today that the commander can pay for now (all of them when credit is allowed).

    None for a retired commander: it is out of play (ruling K3).
    """
    if commander.retired_day is not None:
        return []
    campaign = commander.campaign
    offers = offers_open(commander.campaign_id, campaign.current_day).filter(quest="").order_by("price", "pk")
    if campaign.allow_credit:
        return list(offers)
    return list(offers.filter(price__lte=balance_of(commander.account)))


def offers_all(campaign_id: int) -> list[RecruitOffer]:
    """Every offer of the campaign for the GM's offer list, newest first: one query."""
    offers = RecruitOffer.objects.filter(campaign_id=campaign_id).select_related("card")
    return list(offers.order_by("-created_at", "-pk"))
