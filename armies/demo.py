"""Demo armies for the demo campaign (called by ``load_demo``): idempotent, safe to run every time."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from campaign.models import Campaign, Membership

from .catalog import unit_catalog_load_starter
from .models import Commander, RecruitOffer, UnitCard
from .services.commanders import commander_create, unit_add
from .services.recruiting import offer_post

# (member key or None for the GM, name, kind, role, path, progression, opening balance, units)
COMMANDERS = [
    ("ann", "Captain Annika Vey", Commander.Kind.PC, "guardian", "steel", 4, 60, 6),
    ("ben", "Lord Benedikt Marr", Commander.Kind.PC, "aggressor", "magic", 3, 45, 5),
    ("cara", "Cara of the Reeds", Commander.Kind.PC, "healer", "faith", 2, 40, 4),
    (None, "The Bandit King", Commander.Kind.NPC, "savant", "mind", 6, 80, 7),
]
DEMO_QUEST = "Drive the wolves out of the Distel woods"


def _pick_cards(cards: list[UnitCard], path: str, count: int) -> list[UnitCard]:
    """The commander's own path first, then the rest; units, not rituals or equipment, first."""
    ranked = sorted(cards, key=lambda card: (card.path != path, card.role in {"ritual", "equipment"}, card.code))
    return [ranked[index % len(ranked)] for index in range(count)]


@transaction.atomic
def demo_armies(campaign: Campaign, members: Mapping[str, Membership]) -> list[Commander]:
    """One commander per demo player and the GM's Bandit King, with money and units; two offers and a quest."""
    if not UnitCard.objects.filter(active=True).exists():
        unit_catalog_load_starter()
    cards = list(UnitCard.objects.filter(active=True).order_by("code"))
    gm = Membership.objects.select_related("user").get(campaign=campaign, role=Membership.Role.GM)
    day = campaign.current_day
    commanders = []
    for key, name, kind, role, path, progression, balance, unit_count in COMMANDERS:
        commander = Commander.objects.filter(campaign=campaign, name=name).first()
        if commander is None:
            commander = commander_create(
                campaign=campaign,
                membership=gm if key is None else members[key],
                name=name,
                kind=kind,
                progression=progression,
                role=role,
                path=path,
                favors=1,
                influence_halves=2,
                opening_balance=balance,
                created_by=gm.user,
            )
            for card in _pick_cards(cards, path, unit_count):
                unit_add(commander=commander, card=card, day=day, cause="Starting army (demo)")
        commanders.append(commander)

    if not RecruitOffer.objects.filter(campaign=campaign).exists():
        cheapest = sorted(cards, key=lambda card: (card.price, card.code))
        offer_post(campaign=campaign, card=cheapest[0], price=cheapest[0].price, quantity=3, until_day=day + 3)
        offer_post(campaign=campaign, card=cheapest[-1], price=cheapest[-1].price, quantity=1)
        offer_post(campaign=campaign, card=cheapest[len(cheapest) // 2], price=0, quantity=1, quest=DEMO_QUEST)
    return commanders
