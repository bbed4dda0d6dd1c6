"""Offers are pinned to what the page showed (issue 22; CONVENTIONS 14b; rulings E14 and K1).

The Recruit button carries the price it shows; ``recruit_buy`` compares it with the offer's price
after locking the offer row, and refuses a changed one with the new price, writing nothing. The GM's
offer edit form carries a digest of the values it shows and is refused the same way when stale.
"""

import pytest
from django.urls import reverse

from armies.models import ArmyUnit, RecruitOffer
from armies.services import StaleForm
from armies.services.recruiting import WITHDRAWN, offer_digest, offer_edit, offer_withdraw, recruit_buy
from campaign.ledger import balance_of
from campaign.models import LedgerEntry, Submission
from campaign.submissions import new_token

from tests.armies._helpers import form_as_shown
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.forms import once

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=100)


@pytest.fixture
def offer(world):
    return RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikemen"), price=5, quantity=3)


def url(world, name, *args):
    return reverse(f"armies:{name}", args=[world.campaign.slug, *args])


def written(vey, offer) -> dict:
    """Everything a purchase writes, read fresh."""
    return {
        "balance": balance_of(vey.account),
        "entries": LedgerEntry.objects.filter(account=vey.account).count(),
        "units": ArmyUnit.objects.filter(commander=vey).count(),
        "sold": RecruitOffer.objects.get(pk=offer.pk).sold,
    }


def gm_sets_price(world, offer, price):
    offer_edit(offer=offer, gm=world.gm.user, price=price, quantity=offer.quantity, until_day=None, quest="")


def test_a_price_raised_after_the_page_was_shown_is_refused_and_nothing_is_charged(client, world, vey, offer):
    client.force_login(world.ann.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    assert "Recruit for 5" in page
    shown = form_as_shown(page, url(world, "buy", vey.pk, offer.pk))
    before = written(vey, offer)
    gm_sets_price(world, offer, 30)  # the GM edits the offer while Ann is choosing

    response = client.post(url(world, "buy", vey.pk, offer.pk), shown, follow=True)

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "The price of Pikemen changed from 5 to 30 while you were choosing; nothing was charged. "
        "Recruit again for 30?" in html
    )
    assert "Recruit for 30" in html  # the page shows the fresh offer
    assert written(vey, offer) == before


def test_the_page_price_is_charged_when_it_has_not_changed(client, world, vey, offer):
    client.force_login(world.ann.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    shown = form_as_shown(page, url(world, "buy", vey.pk, offer.pk))
    assert shown["price"] == "5"

    response = client.post(url(world, "buy", vey.pk, offer.pk), shown, follow=True)

    assert "Pikemen joined Lady Vey&#x27;s army for 5 coins." in response.content.decode()
    assert written(vey, offer) == {"balance": 95, "entries": 2, "units": 1, "sold": 1}


def test_a_lowered_price_is_refused_too_with_the_new_price(client, world, vey, offer):
    client.force_login(world.ann.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    shown = form_as_shown(page, url(world, "buy", vey.pk, offer.pk))
    before = written(vey, offer)
    gm_sets_price(world, offer, 2)

    html = client.post(url(world, "buy", vey.pk, offer.pk), shown, follow=True).content.decode()

    assert "changed from 5 to 2 while you were choosing; nothing was charged. Recruit again for 2?" in html
    assert "Recruit for 2" in html
    assert written(vey, offer) == before


def test_a_recruit_post_without_its_price_asks_to_reload_and_charges_nothing(client, world, vey, offer):
    client.force_login(world.ann.user)
    before = written(vey, offer)

    response = client.post(url(world, "buy", vey.pk, offer.pk), once(), follow=True)

    assert response.status_code == 200
    assert (
        "This Recruit button comes from an older page that did not say its price: nothing was charged. "
        "Reload the page and recruit again." in response.content.decode()
    )
    assert written(vey, offer) == before


def test_the_same_pinned_recruit_sent_twice_buys_once_even_if_the_price_changes_between(client, world, vey, offer):
    client.force_login(world.ann.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    shown = form_as_shown(page, url(world, "buy", vey.pk, offer.pk))
    client.post(url(world, "buy", vey.pk, offer.pk), shown)
    gm_sets_price(world, offer, 30)

    again = client.post(url(world, "buy", vey.pk, offer.pk), shown, follow=True)

    assert "Already done: Pikemen joined Lady Vey" in again.content.decode()
    assert written(vey, offer) == {"balance": 95, "entries": 2, "units": 1, "sold": 1}


def test_a_withdrawn_offer_says_so_before_its_price(client, world, vey, offer):
    client.force_login(world.ann.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    shown = form_as_shown(page, url(world, "buy", vey.pk, offer.pk))
    gm_sets_price(world, offer, 30)
    offer_withdraw(offer=offer, gm=world.gm.user)
    before = written(vey, offer)

    html = client.post(url(world, "buy", vey.pk, offer.pk), shown, follow=True).content.decode()

    assert WITHDRAWN in html and "changed from" not in html
    assert written(vey, offer) == before


def test_a_recruit_post_does_a_fixed_number_of_queries_applied_or_refused(
    client, world, vey, offer, django_assert_max_num_queries
):
    client.force_login(world.ann.user)
    page = url(world, "commander", vey.pk)
    buy = url(world, "buy", vey.pk, offer.pk)
    with django_assert_max_num_queries(40) as few:
        applied = client.post(buy, once(price="5"))
    assert (applied.status_code, applied["Location"]) == (302, page)
    for _ in range(10):
        ArmyUnitFactory(commander=vey)
    with django_assert_max_num_queries(len(few.captured_queries)):
        applied = client.post(buy, once(price="5"))
    assert (applied.status_code, applied["Location"]) == (302, page)
    gm_sets_price(world, offer, 30)
    with django_assert_max_num_queries(len(few.captured_queries)):
        refused = client.post(buy, once(price="5"))
    assert (refused.status_code, refused["Location"]) == (302, page)
    assert written(vey, offer)["units"] == 12 and written(vey, offer)["balance"] == 90


# --- the service ----------------------------------------------------------------------------------


@pytest.mark.parametrize("now", [30, 2])
def test_recruit_buy_refuses_a_price_other_than_the_one_shown_and_writes_nothing(world, vey, offer, now):
    gm_sets_price(world, offer, now)
    before = written(vey, offer)

    with pytest.raises(StaleForm) as refused:
        recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user, price=5, submission=new_token())

    assert str(refused.value) == (
        f"The price of Pikemen changed from 5 to {now} while you were choosing; nothing was charged. "
        f"Recruit again for {now}?"
    )
    assert written(vey, offer) == before
    assert not Submission.objects.exists()  # the token rolled back with the refusal: nothing was applied


def test_recruit_buy_charges_the_price_shown_when_it_is_the_offers(world, vey, offer):
    gm_sets_price(world, offer, 30)
    unit = recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user, price=30)
    assert unit.card.name == "Pikemen"
    assert written(vey, offer) == {"balance": 70, "entries": 2, "units": 1, "sold": 1}


# --- the GM's offer edit is pinned the same way (ruling K1) -----------------------------------------


def test_an_offer_edit_from_a_stale_page_is_refused_and_the_fresh_form_shown(client, world, offer):
    client.force_login(world.gm.user)
    form = client.get(url(world, "offer_edit", offer.pk)).context["form"]
    assert form["based_on"].value() == offer_digest(offer)
    stale = {name: "" if form[name].value() is None else form[name].value() for name in form.fields}
    gm_sets_price(world, offer, 30)  # another tab raises the price

    response = client.post(url(world, "offer_edit", offer.pk), {**stale, "quantity": "4"})

    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "The offer of Pikemen was changed meanwhile (by someone else or another tab): here it is as it is now; "
        "nothing was saved, make your change again." in html
    )
    assert response.context["form"]["price"].value() == 30
    offer.refresh_from_db()
    assert (offer.price, offer.quantity) == (30, 3)  # the other tab's price stays; nothing of this post saved


def test_an_offer_edit_post_without_its_pin_asks_to_reload(client, world, offer):
    client.force_login(world.gm.user)
    response = client.post(url(world, "offer_edit", offer.pk), once(price="12", quantity="3", until_day="", quest=""))
    assert response.status_code == 200
    assert "This offer form comes from an older page: nothing was saved. Reload the page" in response.content.decode()
    offer.refresh_from_db()
    assert offer.price == 5


def test_offer_edit_refuses_a_stale_digest_and_takes_a_fresh_one(world, offer):
    shown = offer_digest(offer)
    gm_sets_price(world, offer, 30)
    with pytest.raises(StaleForm, match="The offer of Pikemen was changed meanwhile"):
        offer_edit(offer=offer, gm=world.gm.user, price=5, quantity=4, until_day=None, based_on=shown)
    offer.refresh_from_db()
    edited = offer_edit(
        offer=offer, gm=world.gm.user, price=30, quantity=4, until_day=None, based_on=offer_digest(offer)
    )
    assert (edited.price, edited.quantity) == (30, 4)
