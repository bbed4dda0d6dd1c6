"""Recruiting: the GM posts offers; players buy units from them, or the GM grants quest units.

A purchase is one transaction that locks the offer row first (``select_for_update``), so two
buyers at the same moment cannot both take the last unit: the second one waits, then sees
the offer sold out. The count goes up with ``F("sold") + 1`` and the database's
``offer_not_oversold`` constraint is the last line of defence. Rulings E4-E6 are in
docs/rulings.md.

The GM edits an offer (``offer_edit``: price, quantity never below what was sold, last day,
quest), withdraws it (no longer offered; a stale Buy is refused, nothing charged) and
restores it. Each locks the offer row like a purchase, so an edit racing a purchase
waits for it and sees its count; each writes one activity line (ruling K6).

A purchase is pinned to the price the buyer's page showed (ruling E14): the Recruit button carries
it, and once the offer row is locked a different price is refused (``StaleForm``) with the new
one, so a GM's edit between the page and the tap never charges what the player did not see.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from campaign import bounds
from campaign.activity import Line, activity_record, change, in_parts
from campaign.ledger import ledger_post
from campaign.models import Activity, Campaign, LedgerEntry, Membership
from campaign.submissions import applied_once
from muster.forms import values_digest

from ..catalog import unit_catalog_load_starter
from ..models import ArmyUnit, Commander, RecruitOffer, UnitCard
from . import ArmyError, StaleForm
from .battles import refuse_taken_back_day
from .commanders import require_bounded, require_commander_or_gm, require_gm, require_in_service, unit_add
from .offer_lines import OFFER_FIELDS, offer_said, offer_words, recruited

WITHDRAWN = gettext_noop("This offer was withdrawn by the GM.")
CATALOG_NOT_EMPTY = gettext_noop("The unit catalog has its cards already: staff edit or replace them in the admin.")


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
    posted_by=None,
) -> RecruitOffer:
    """Put ``quantity`` units of ``card`` up for sale (or, with ``quest``, up for a quest).

    Who may post is checked by the caller (the GM's page); the rules are checked here.
    ``posted_by`` is named in the activity log (without it: the campaign's GM).
    """
    quest = quest.strip()
    if not card.active:
        raise ArmyError(gettext("%(card)s is retired from the catalog and cannot be offered.") % {"card": card.name})
    if quantity < 1:
        raise ArmyError(gettext("An offer holds at least one unit, not %(quantity)s.") % {"quantity": quantity})
    if price < 0:
        raise ArmyError(gettext("A price cannot be negative (got %(price)s).") % {"price": price})
    require_bounded(gettext("An offer's quantity"), quantity, 1, bounds.MAX_OFFER_QUANTITY)
    require_bounded(gettext("A price"), price, 0, bounds.MAX_COINS)
    if until_day is not None:
        require_bounded(gettext("The last day of an offer"), until_day, 1, bounds.MAX_DAY)
    if quest and price:
        raise ArmyError(gettext("A quest unit is granted, not sold: leave its price at 0."))
    if until_day is not None and until_day < campaign.current_day:
        raise ArmyError(
            gettext("This offer would end on day %(until_day)s, before today (day %(current_day)s).")
            % {"until_day": until_day, "current_day": campaign.current_day}
        )
    offer = RecruitOffer.objects.create(
        campaign=campaign, card=card, price=price, quantity=quantity, until_day=until_day, quest=quest
    )
    if posted_by is None:
        gm = Membership.objects.filter(campaign=campaign, role=Membership.Role.GM).select_related("user").first()
        posted_by = gm.user if gm else None
    activity_record(
        campaign=campaign,
        actor=posted_by,
        kind=Activity.Kind.OFFER_NEW,
        summary=Line(
            gettext_noop("Posted an offer: %(offer)s, until day %(day)s.")
            if until_day
            else gettext_noop("Posted an offer: %(offer)s."),
            offer=offer_words(offer),
            **({"day": until_day} if until_day else {}),
        ),
        target=offer,
        details={"after": offer_values(offer)},
    )
    return offer


def offer_values(offer: RecruitOffer) -> dict:
    """The values the offer edit form shows and ``offer_edit`` compares."""
    return {"price": offer.price, "quantity": offer.quantity, "until_day": offer.until_day, "quest": offer.quest}


def offer_digest(offer: RecruitOffer) -> str:
    """What the offer edit form carries of the values it was made from (rulings K1, E14)."""
    return values_digest(offer_values(offer))


@applied_once("offer_edit")
@transaction.atomic
def offer_edit(
    *,
    offer: RecruitOffer,
    gm,
    price: int,
    quantity: int,
    until_day: int | None,
    quest: str = "",
    based_on: str | None = None,
) -> RecruitOffer:
    """The GM changes an offer's price, quantity (never below what was sold), last day and quest text.

    ``based_on`` is the ``offer_digest`` the form was made from: if the offer changed since (another
    tab, a co-GM), the edit is refused and nothing is saved, as for commanders (ruling K1).
    """
    locked = _lock_offer(offer)
    campaign = Campaign.objects.get(pk=locked.campaign_id)
    require_gm(campaign, gm, gettext("edit offers"))
    if based_on is not None and based_on != offer_digest(locked):
        raise StaleForm(
            gettext(
                "The offer of %(card)s was changed meanwhile (by someone else or another tab): here it is as it is "
                "now; nothing was saved, make your change again."
            )
            % {"card": locked.card.name}
        )
    quest = (quest or "").strip()
    if price < 0:
        raise ArmyError(gettext("A price cannot be negative (got %(price)s).") % {"price": price})
    require_bounded(gettext("A price"), price, 0, bounds.MAX_COINS)
    require_bounded(gettext("An offer's quantity"), quantity, 1, bounds.MAX_OFFER_QUANTITY)
    if quantity < locked.sold:
        raise ArmyError(
            gettext("%(sold)s %(card)s were recruited from this offer already: its quantity cannot go below %(sold)s.")
            % {"sold": locked.sold, "card": locked.card.name}
        )
    if until_day is not None:
        require_bounded(gettext("The last day of an offer"), until_day, 1, bounds.MAX_DAY)
        if until_day < campaign.current_day:
            raise ArmyError(
                gettext("This offer would end on day %(until_day)s, before today (day %(current_day)s).")
                % {"until_day": until_day, "current_day": campaign.current_day}
            )
    if quest and price:
        raise ArmyError(gettext("A quest unit is granted, not sold: leave its price at 0."))
    if len(quest) > 200:
        raise ArmyError(gettext("A quest's text has at most 200 characters."))
    before = offer_values(locked)
    after = {"price": price, "quantity": quantity, "until_day": until_day, "quest": quest}
    changed = [field for field in after if after[field] != before[field]]
    if not changed:
        raise ArmyError(gettext("Nothing to change: the form holds the values the offer has already."))
    RecruitOffer.objects.filter(pk=locked.pk).update(**{field: after[field] for field in changed})

    words = in_parts(
        change(OFFER_FIELDS[field], offer_said(field, before[field]), offer_said(field, after[field]))
        for field in changed
    )
    activity_record(
        campaign=campaign,
        actor=gm,
        kind=Activity.Kind.OFFER_EDIT,
        summary=Line(
            gettext_noop("Edited the offer of %(card)s (#%(offer)s): %(changes)s."),
            card=locked.card.name,
            offer=locked.pk,
            changes=words,
        ),
        target=locked,
        details={"before": {f: before[f] for f in changed}, "after": {f: after[f] for f in changed}},
    )
    locked.refresh_from_db()
    return locked


@applied_once("offer_withdraw")
@transaction.atomic
def offer_withdraw(*, offer: RecruitOffer, gm, reason: str = "") -> RecruitOffer:
    """The GM takes an offer off the market: no longer offered, bought or granted."""
    locked = _lock_offer(offer)
    campaign = Campaign.objects.get(pk=locked.campaign_id)
    require_gm(campaign, gm, gettext("withdraw offers"))
    if locked.withdrawn_at is not None:
        raise ArmyError(gettext("The offer of %(card)s was withdrawn already.") % {"card": locked.card.name})
    reason = (reason or "").strip()[:200]
    locked.withdrawn_at = timezone.now()
    RecruitOffer.objects.filter(pk=locked.pk).update(withdrawn_at=locked.withdrawn_at)
    activity_record(
        campaign=campaign,
        actor=gm,
        kind=Activity.Kind.OFFER_WITHDRAW,
        summary=Line(
            gettext_noop("Withdrew the offer of %(offer)s, %(sold)s sold: %(reason)s")
            if reason
            else gettext_noop("Withdrew the offer of %(offer)s, %(sold)s sold."),
            offer=offer_words(locked),
            sold=locked.sold,
            **({"reason": reason} if reason else {}),
        ),
        target=locked,
        details={"withdrawn": True, "reason": reason, "sold": locked.sold},
    )
    return locked


@applied_once("offer_restore")
@transaction.atomic
def offer_restore(*, offer: RecruitOffer, gm) -> RecruitOffer:
    """The GM puts a withdrawn offer back on the market as it was."""
    locked = _lock_offer(offer)
    campaign = Campaign.objects.get(pk=locked.campaign_id)
    require_gm(campaign, gm, gettext("restore offers"))
    if locked.withdrawn_at is None:
        raise ArmyError(gettext("The offer of %(card)s is not withdrawn.") % {"card": locked.card.name})
    locked.withdrawn_at = None
    RecruitOffer.objects.filter(pk=locked.pk).update(withdrawn_at=None)
    activity_record(
        campaign=campaign,
        actor=gm,
        kind=Activity.Kind.OFFER_WITHDRAW,
        summary=Line(gettext_noop("Restored the offer of %(offer)s."), offer=offer_words(locked)),
        target=locked,
        details={"restored": True},
    )
    return locked


def _lock_offer(offer: RecruitOffer) -> RecruitOffer:
    return RecruitOffer.objects.select_related("card").select_for_update(of=("self",)).get(pk=offer.pk)


def _refuse_unavailable(offer: RecruitOffer, *, commander: Commander, day: int) -> None:
    if commander.campaign_id != offer.campaign_id:
        raise ArmyError(gettext("%(commander)s is not in the campaign of this offer.") % {"commander": commander.name})
    if offer.withdrawn_at is not None:
        raise ArmyError(gettext(WITHDRAWN))
    if offer.until_day is not None and day > offer.until_day:
        raise ArmyError(gettext("This offer ended on day %(until_day)s.") % {"until_day": offer.until_day})
    if offer.sold >= offer.quantity:
        if offer.quantity == 1:
            raise ArmyError(gettext("The only %(card)s on offer has been recruited.") % {"card": offer.card.name})
        raise ArmyError(
            gettext("All %(quantity)s %(card)s have been recruited.")
            % {"quantity": offer.quantity, "card": offer.card.name}
        )


@applied_once("recruit")
@transaction.atomic
def recruit_buy(
    *, offer: RecruitOffer, commander: Commander, day: int, bought_by, price: int | None = None
) -> ArmyUnit:
    """Buy one unit from the offer for the commander: count it, debit the treasury, add the unit.

    ``price`` is the price the buyer's page showed: if the offer's price is another one now, the
    purchase is refused with the new price (``StaleForm``, ruling E14). Every view passes it; code
    without a page (tests, the demo) may leave it out and pays the current price.
    All or nothing: a refused payment (``InsufficientFunds``) leaves the offer as it was.
    """
    commander = Commander.objects.select_related("campaign", "membership", "account").get(pk=commander.pk)
    require_commander_or_gm(commander, bought_by, gettext("recruit"))
    require_in_service(commander, gettext("recruit"))
    refuse_taken_back_day(commander.campaign_id, day)
    locked = _lock_offer(offer)
    if locked.quest:
        raise ArmyError(
            gettext("%(card)s cannot be bought: the GM grants it for a quest (%(quest)s).")
            % {"card": locked.card.name, "quest": locked.quest}
        )
    _refuse_unavailable(locked, commander=commander, day=day)
    if price is not None and price != locked.price:
        raise StaleForm(
            gettext(
                "The price of %(card)s changed from %(price)s to %(new_price)s while you were choosing; nothing was "
                "charged. Recruit again for %(new_price)s?"
            )
            % {"card": locked.card.name, "price": price, "new_price": locked.price}
        )

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
    unit = unit_add(
        commander=commander,
        card=locked.card,
        day=day,
        cause=f"Recruited from offer #{locked.pk} for {locked.price} coins",
        cause_type="offer",
        cause_id=locked.pk,
    )
    activity_record(
        campaign=commander.campaign,
        actor=bought_by,
        kind=Activity.Kind.RECRUIT,
        summary=Line(
            recruited(locked.price),
            card=locked.card.name,
            commander=commander.name,
            offer=locked.pk,
            **({"price": locked.price} if locked.price > 1 else {}),
        ),
        target=commander,
        details={"offer": locked.pk, "unit": unit.pk, "price": locked.price},
        day=day,
    )
    return unit


@applied_once("quest_grant")
@transaction.atomic
def quest_grant(*, offer: RecruitOffer, commander: Commander, day: int, gm) -> ArmyUnit:
    """The GM grants a quest unit: no charge; it counts against the offer's quantity."""
    commander = Commander.objects.select_related("campaign").get(pk=commander.pk)
    require_gm(commander.campaign, gm, gettext("grant quest units"))
    require_in_service(commander, gettext("be granted units"))
    refuse_taken_back_day(commander.campaign_id, day)
    locked = _lock_offer(offer)
    if not locked.quest:
        raise ArmyError(
            gettext("%(card)s is for sale, not a quest reward: recruit it instead.") % {"card": locked.card.name}
        )
    _refuse_unavailable(locked, commander=commander, day=day)
    RecruitOffer.objects.filter(pk=locked.pk).update(sold=F("sold") + 1)
    unit = unit_add(
        commander=commander,
        card=locked.card,
        day=day,
        cause=f"Granted for the quest: {locked.quest}",
        cause_type="offer",
        cause_id=locked.pk,
    )
    activity_record(
        campaign=commander.campaign,
        actor=gm,
        kind=Activity.Kind.QUEST_GRANT,
        summary=Line(
            gettext_noop("Granted %(card)s to %(commander)s for the quest: %(quest)s"),
            card=locked.card.name,
            commander=commander.name,
            quest=locked.quest,
        ),
        target=unit,
        details={"offer": locked.pk, "commander": commander.pk, "day": day},
        day=day,
    )
    return unit


@transaction.atomic
def unit_catalog_start(*, campaign: Campaign, gm) -> int:
    """Muster's starter units into an empty unit catalog, by any GM (ruling AC2); how many were made.

    The first GM of a fresh instance is not staff (ruling AC1), and without a unit card there is no
    offer, no roster and no battle. An empty catalog holds nothing anyone made, so filling it with the
    starter data needs no staff; once it holds a card (a GM loaded it, or staff did, or imported their
    own) it is staff's, in the admin, and this is refused. Two GMs at once: the second is refused.
    """
    require_gm(campaign, gm, gettext("load the starter units"))
    if UnitCard.objects.exists():
        raise ArmyError(gettext(CATALOG_NOT_EMPTY))
    try:
        with transaction.atomic():
            report = unit_catalog_load_starter()
    except IntegrityError:  # another GM's load committed between our look and our insert
        raise ArmyError(gettext(CATALOG_NOT_EMPTY)) from None
    return report.created
