"""An offer in the activity log's words (issue 41): each line's English template, marked, with its values, so the
log keeps the English and says the line in each reader's language (``campaign.activity.Line``)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from campaign.activity import QUOTED, Line

from ..models import RecruitOffer

RECRUITED = {  # the price as the activity log says it: 'free', '1 coin', '10 coins'
    0: gettext_noop("Recruited %(card)s for %(commander)s from offer #%(offer)s for free."),
    1: gettext_noop("Recruited %(card)s for %(commander)s from offer #%(offer)s for 1 coin."),
}
RECRUITED_FOR_COINS = gettext_noop("Recruited %(card)s for %(commander)s from offer #%(offer)s for %(price)s coins.")
OFFER_FIELDS = {  # an offer's fields as the activity log names them
    "price": gettext_noop("price"),
    "quantity": gettext_noop("quantity"),
    "until_day": gettext_noop("until day"),
    "quest": gettext_noop("quest"),
}


def recruited(price: int) -> str:
    """The template of a purchase's line at ``price``."""
    return RECRUITED.get(price, RECRUITED_FOR_COINS)


def offer_words(offer: RecruitOffer) -> Line:
    """An offer as its lines name it: "3 × Pikemen (10 coins)", "1 × Wyrm (quest: Slay it)"."""
    what = (
        Line(gettext_noop("quest: %(quest)s"), quest=offer.quest)
        if offer.quest
        else Line(gettext_noop("%(price)s coins"), price=offer.price)
    )
    return Line(
        gettext_noop("%(quantity)s × %(card)s (%(what)s)"), quantity=offer.quantity, card=offer.card.name, what=what
    )


def offer_said(field: str, value) -> str | Line:
    """An offer's value in the activity log's line of an edit."""
    if field == "until_day":
        return Line(gettext_noop("day %(day)s"), day=value) if value else Line(gettext_noop("no limit"))
    return Line(QUOTED, name=value) if field == "quest" else str(value)
