"""Recruiting: the GM posts offers; players buy units from them, or the GM grants quest units.

A purchase is one transaction that locks the offer row first (``select_for_update``), so two
buyers at the same moment cannot both take the last unit: the second one waits, then sees
the offer sold out. The count goes up with ``F("sold") + 1`` and the database's
``offer_not_oversold`` constraint is the last line of defence. Rulings E4-E6 are in
docs/rulings.md.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from campaign import bounds
from campaign.models import Campaign, LedgerEntry
from campaign.services import ledger_post
from campaign.submissions import applied_once

from ..models import ArmyUnit, Commander, RecruitOffer, UnitCard
from . import ArmyError
from .commanders import require_bounded, require_commander_or_gm, require_gm, unit_add


@applied_once("offer_post")
@transaction.atomic
def offer_post(
    *,
    campaign: Campaign,
    card: UnitCard,
    price: int,
    quantity: int,
    until_day: int | None = None,
    quest: str = "",
) -> RecruitOffer:
    """Put ``quantity`` units of ``card`` up for sale (or, with ``quest``, up for a quest).

    Who may post is checked by the caller (the GM's page); the rules are checked here.
    """
    quest = quest.strip()
    if not card.active:
        raise ArmyError(f"{card.name} is retired from the catalog and cannot be offered.")
    if quantity < 1:
        raise ArmyError(f"An offer holds at least one unit, not {quantity}.")
    if price < 0:
        raise ArmyError(f"A price cannot be negative (got {price}).")
    require_bounded("An offer's quantity", quantity, 1, bounds.MAX_OFFER_QUANTITY)
    require_bounded("A price", price, 0, bounds.MAX_COINS)
    if until_day is not None:
        require_bounded("The last day of an offer", until_day, 1, bounds.MAX_DAY)
    if quest and price:
        raise ArmyError("A quest unit is granted, not sold: leave its price at 0.")
    if until_day is not None and until_day < campaign.current_day:
        raise ArmyError(f"This offer would end on day {until_day}, before today (day {campaign.current_day}).")
    return RecruitOffer.objects.create(
        campaign=campaign, card=card, price=price, quantity=quantity, until_day=until_day, quest=quest
    )


def _lock_offer(offer: RecruitOffer) -> RecruitOffer:
    return RecruitOffer.objects.select_related("card").select_for_update(of=("self",)).get(pk=offer.pk)


def _refuse_unavailable(offer: RecruitOffer, *, commander: Commander, day: int) -> None:
    if commander.campaign_id != offer.campaign_id:
        raise ArmyError(f"{commander.name} is not in the campaign of this offer.")
    if offer.until_day is not None and day > offer.until_day:
        raise ArmyError(f"This offer ended on day {offer.until_day}.")
    if offer.sold >= offer.quantity:
        if offer.quantity == 1:
            raise ArmyError(f"The only {offer.card.name} on offer has been recruited.")
        raise ArmyError(f"All {offer.quantity} {offer.card.name} have been recruited.")


@applied_once("recruit")
@transaction.atomic
def recruit_buy(*, offer: RecruitOffer, commander: Commander, day: int, bought_by) -> ArmyUnit:
    """Buy one unit from the offer for the commander: count it, debit the treasury, add the unit.

    All or nothing: a refused payment (``InsufficientFunds``) leaves the offer as it was.
    """
    commander = Commander.objects.select_related("campaign", "membership", "account").get(pk=commander.pk)
    require_commander_or_gm(commander, bought_by, "recruit")
    locked = _lock_offer(offer)
    if locked.quest:
        raise ArmyError(f"{locked.card.name} cannot be bought: the GM grants it for a quest ({locked.quest}).")
    _refuse_unavailable(locked, commander=commander, day=day)

    RecruitOffer.objects.filter(pk=locked.pk).update(sold=F("sold") + 1)
    if locked.price:
        ledger_post(
            account=commander.account,
            amount=-locked.price,
            kind=LedgerEntry.Kind.RECRUITMENT,
            reason=f"Recruited {locked.card.name}",
            day=day,
            cause_type="offer",
            cause_id=locked.pk,
            created_by=bought_by,
        )
    return unit_add(
        commander=commander,
        card=locked.card,
        day=day,
        cause=f"Recruited from offer #{locked.pk} for {locked.price} coins",
        cause_type="offer",
        cause_id=locked.pk,
    )


@applied_once("quest_grant")
@transaction.atomic
def quest_grant(*, offer: RecruitOffer, commander: Commander, day: int, gm) -> ArmyUnit:
    """The GM grants a quest unit: no charge; it counts against the offer's quantity."""
    commander = Commander.objects.select_related("campaign").get(pk=commander.pk)
    require_gm(commander.campaign, gm, "grant quest units")
    locked = _lock_offer(offer)
    if not locked.quest:
        raise ArmyError(f"{locked.card.name} is for sale, not a quest reward: recruit it instead.")
    _refuse_unavailable(locked, commander=commander, day=day)
    RecruitOffer.objects.filter(pk=locked.pk).update(sold=F("sold") + 1)
    return unit_add(
        commander=commander,
        card=locked.card,
        day=day,
        cause=f"Granted for the quest: {locked.quest}",
        cause_type="offer",
        cause_id=locked.pk,
    )
