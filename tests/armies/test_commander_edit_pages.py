"""The GM's correction pages (armies/views/edits.py): who gets what, forms, stale pages, query counts."""

import pytest
from django.urls import reverse

from armies.models import ArmyUnit, Commander, RecruitOffer, UnitEvent
from campaign.models import Activity, LedgerEntry

from tests.armies._helpers import form_as_shown
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.counted import counted_get
from tests.forms import once, tokens_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=30, progression=4, influence_halves=3)


@pytest.fixture
def spearmen(vey):
    return ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", strength=2))


@pytest.fixture
def offer(world):
    return RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikemen"), price=10, quantity=3)


def url(world, name, *args):
    return reverse(f"armies:{name}", args=[world.campaign.slug, *args])


def edit_data(client, world, commander, **changes) -> dict:
    """The edit form as the GM's page renders it, with ``changes`` typed in."""
    form = client.get(url(world, "commander_edit", commander.pk)).context["form"]
    data = {name: form[name].value() for name in form.fields}
    data["membership"] = data["membership"] or ""
    return {**data, **changes}


def offer_data(client, world, offer, **changes) -> dict:
    """The offer edit form as the GM's page renders it (with its pin), with ``changes`` typed in."""
    form = client.get(url(world, "offer_edit", offer.pk)).context["form"]
    data = {name: form[name].value() for name in form.fields}
    return {**{name: "" if value is None else value for name, value in data.items()}, **changes}


def test_every_gm_url_refuses_players_with_403_and_outsiders_with_404(client, world, vey, spearmen, offer):
    gets = [url(world, "commander_edit", vey.pk), url(world, "offer_list"), url(world, "offer_edit", offer.pk)]
    posts = [
        url(world, "commander_edit", vey.pk),
        url(world, "commander_retire", vey.pk),
        url(world, "commander_return", vey.pk),
        url(world, "unit_remove", vey.pk, spearmen.pk),
        url(world, "unit_training", vey.pk, spearmen.pk),
        url(world, "offer_edit", offer.pk),
        url(world, "offer_withdraw", offer.pk),
        url(world, "offer_restore", offer.pk),
    ]
    for user, status in ((world.ann.user, 403), (world.ben.user, 403), (world.outsider, 404), (world.staff, 404)):
        client.force_login(user)
        for address in gets:
            assert client.get(address).status_code == status, address
        for address in posts:
            assert client.post(address, once(reason="x", how="dismissed", trained="1")).status_code == status, address
    client.logout()
    assert client.get(gets[0]).status_code == 302  # to the login page
    vey.refresh_from_db()
    spearmen.refresh_from_db()
    assert (vey.retired_day, spearmen.status) == (None, ArmyUnit.Status.ACTIVE)
    assert not Activity.objects.exists()


def test_the_gm_edits_a_commander_through_the_form(client, world, vey):
    client.force_login(world.gm.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    assert url(world, "commander_edit", vey.pk) in page

    data = edit_data(client, world, vey, name="Lady Vey the Bold", progression="6", influence="2.5",
                     membership=str(world.ben.pk))
    response = client.post(url(world, "commander_edit", vey.pk), data, follow=True)

    assert "Lady Vey the Bold is saved." in response.content.decode()
    vey.refresh_from_db()
    vey.account.refresh_from_db()
    assert (vey.name, vey.progression, vey.influence_halves, vey.membership, vey.account.owner) == (
        "Lady Vey the Bold", 6, 5, world.ben, world.ben)
    assert Activity.objects.get().kind == Activity.Kind.COMMANDER_EDIT
    # the same post again: applied once
    again = client.post(url(world, "commander_edit", vey.pk), data, follow=True).content.decode()
    assert "Already done" in again and Activity.objects.count() == 1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"influence": "1.3"}, "multiple of step size 0.5"),
        ({"progression": "1001"}, "less than or equal to 1000"),
        ({"favors": "-1"}, "greater than or equal to 0"),
    ],
)
def test_the_form_refuses_out_of_bounds_and_half_steps_only(client, world, vey, changes, message):
    client.force_login(world.gm.user)
    response = client.post(url(world, "commander_edit", vey.pk), edit_data(client, world, vey, **changes))
    assert response.status_code == 200 and message in response.content.decode()
    assert not Activity.objects.exists()


def test_nothing_changed_is_said_on_the_form(client, world, vey):
    client.force_login(world.gm.user)
    response = client.post(url(world, "commander_edit", vey.pk), edit_data(client, world, vey))
    assert "Nothing to change" in response.content.decode()


def test_a_stale_edit_page_is_refused_and_the_fresh_form_shown(client, world, vey):
    client.force_login(world.gm.user)
    stale = edit_data(client, world, vey, favors="5")
    Commander.objects.filter(pk=vey.pk).update(progression=9)  # someone else saved meanwhile

    response = client.post(url(world, "commander_edit", vey.pk), stale)

    html = response.content.decode()
    assert response.status_code == 200 and "was changed meanwhile" in html
    assert response.context["form"]["progression"].value() == 9  # the fresh values
    vey.refresh_from_db()
    assert (vey.progression, vey.favors) == (9, 0)


def test_retire_and_return_from_the_pages(client, world, vey):
    client.force_login(world.gm.user)
    edit_page = client.get(url(world, "commander_edit", vey.pk)).content.decode()
    assert url(world, "commander_retire", vey.pk) in edit_page

    refused = client.post(url(world, "commander_retire", vey.pk), once(reason=""), follow=True).content.decode()
    assert "This field is required" in refused
    retired = client.post(url(world, "commander_retire", vey.pk), once(reason="Lost the war"), follow=True)
    assert "Lady Vey is retired" in retired.content.decode()
    assert "Retired on day 1" in retired.content.decode()
    overview = client.get(url(world, "list")).content.decode()
    assert 'id="retired"' in overview and overview.index("Lady Vey") > overview.index('id="retired"')

    client.force_login(world.ann.user)
    assert "retired on day 1" in client.get(url(world, "list")).content.decode()
    client.force_login(world.gm.user)

    back = client.post(url(world, "commander_return", vey.pk), once(), follow=True).content.decode()
    assert "Lady Vey is back in service." in back
    vey.refresh_from_db()
    assert vey.retired_day is None


def test_the_gm_removes_a_unit_and_corrects_training_from_the_commander_page(client, world, vey, spearmen):
    archers = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Archers", strength=2))
    client.force_login(world.gm.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    assert url(world, "unit_remove", vey.pk, spearmen.pk) in page
    assert url(world, "unit_training", vey.pk, archers.pk) in page

    missing = client.post(url(world, "unit_remove", vey.pk, spearmen.pk), once(how="released", reason=""),
                          follow=True).content.decode()
    assert "Reason: This field is required." in missing
    done = client.post(url(world, "unit_remove", vey.pk, spearmen.pk), once(how="released", reason="Went home"),
                       follow=True).content.decode()
    assert "Spearmen released from Lady Vey&#x27;s army." in done
    spearmen.refresh_from_db()
    assert spearmen.status == ArmyUnit.Status.RELEASED
    gone = client.post(url(world, "unit_remove", vey.pk, spearmen.pk), once(how="dismissed", reason="Again"),
                       follow=True).content.decode()
    assert "already left" in gone

    trained = client.post(url(world, "unit_training", vey.pk, archers.pk), once(trained="1", reason="Drilled"),
                          follow=True).content.decode()
    assert "Archers are now trained; no coins or items moved." in trained
    assert UnitEvent.objects.filter(unit=archers, kind=UnitEvent.Kind.CORRECTED).count() == 1
    assert LedgerEntry.objects.filter(account=vey.account).count() == 1  # only the opening balance


def test_a_unit_of_another_commander_is_404(client, world, vey):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    theirs = ArmyUnitFactory(commander=marr)
    client.force_login(world.gm.user)
    response = client.post(url(world, "unit_remove", vey.pk, theirs.pk), once(how="dismissed", reason="x"))
    assert response.status_code == 404


def test_pages_use_a_fixed_number_of_queries(client, world, vey):
    client.force_login(world.gm.user)
    units, offers = [], []
    for _ in range(3):
        units.append(ArmyUnitFactory(commander=vey).card.name)
        offers.append(RecruitOfferFactory(campaign=world.campaign).card.name)
    baseline = counted_get(client, url(world, "commander", vey.pk), queries=30, contains=["Lady Vey", *units]).queries
    counted_get(client, url(world, "commander_edit", vey.pk), queries=12, contains="<h1>Edit Lady Vey</h1>")
    counted_get(client, url(world, "offer_list"), queries=8, contains=["<h1>Recruit offers", *offers])
    for _ in range(10):
        units.append(ArmyUnitFactory(commander=vey).card.name)
        offers.append(RecruitOfferFactory(campaign=world.campaign).card.name)
    counted_get(client, url(world, "commander", vey.pk), queries=baseline, contains=["Lady Vey", *units])
    counted_get(client, url(world, "offer_list"), queries=8, contains=["<h1>Recruit offers", *offers])


# --- offers -------------------------------------------------------------------------------------


def test_the_gm_edits_withdraws_and_restores_an_offer_from_the_pages(client, world, vey, offer):
    client.force_login(world.gm.user)
    overview = client.get(url(world, "list")).content.decode()
    assert url(world, "offer_edit", offer.pk) in overview and url(world, "offer_list") in overview

    saved = client.post(url(world, "offer_edit", offer.pk), offer_data(client, world, offer, price="12", quantity="4"),
                        follow=True).content.decode()
    assert "The offer of Pikemen is saved." in saved
    offer.refresh_from_db()
    assert (offer.price, offer.quantity) == (12, 4)

    page = client.get(url(world, "offer_edit", offer.pk)).content.decode()
    withdraw_token = tokens_in(page)[-1]
    client.post(url(world, "offer_withdraw", offer.pk), {"submission": withdraw_token, "reason": "Deserted"})
    offer.refresh_from_db()
    assert offer.withdrawn_at is not None
    assert "withdrawn" in client.get(url(world, "offer_list")).content.decode()
    assert url(world, "offer_edit", offer.pk) not in client.get(url(world, "list")).content.decode()

    restored = client.post(url(world, "offer_restore", offer.pk), once(), follow=True).content.decode()
    assert "is on offer again" in restored


def test_the_offer_form_refuses_a_quantity_below_sold(client, world, offer):
    RecruitOffer.objects.filter(pk=offer.pk).update(sold=2)
    client.force_login(world.gm.user)
    response = client.post(url(world, "offer_edit", offer.pk), offer_data(client, world, offer, quantity="1"))
    assert "2 were recruited already: the quantity cannot go below 2." in response.content.decode()
    offer.refresh_from_db()
    assert offer.quantity == 3


def test_a_player_tapping_buy_on_a_withdrawn_offer_is_told_and_not_charged(client, world, vey, offer):
    client.force_login(world.ann.user)
    page = client.get(url(world, "commander", vey.pk)).content.decode()
    shown = form_as_shown(page, url(world, "buy", vey.pk, offer.pk))  # its token and the price it shows
    RecruitOffer.objects.filter(pk=offer.pk).update(withdrawn_at="2026-01-01T00:00Z")  # the GM withdrew it meanwhile

    response = client.post(url(world, "buy", vey.pk, offer.pk), shown, follow=True)

    assert "This offer was withdrawn by the GM." in response.content.decode()
    assert LedgerEntry.objects.filter(account=vey.account).count() == 1
    assert not vey.units.exists()
