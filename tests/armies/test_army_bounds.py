"""Bounds on every number typed on the army pages: form, service, model validators, database (issue 12)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from armies.models import Commander, RecruitOffer, UnitCard
from armies.services import ArmyError
from armies.services.battle_tables import battle_table_open
from armies.services.commanders import commander_create, commander_update_items
from armies.services.recruiting import offer_post
from campaign import bounds

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.constraints import refused_by_the_database
from tests.forms import once

pytestmark = pytest.mark.django_db

SMALLINT_OVERFLOW = 70000  # stored as is in a small-integer column on SQLite


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=100)


# --- forms (a message) and pages that stay whole ------------------------------------------------


@pytest.mark.parametrize("field", ["weapons", "shields", "alchemy", "build_points"])
def test_items_beyond_their_bound_are_refused_on_the_form(client, world, vey, field):
    client.force_login(world.gm.user)
    data = {**once(weapons=1, shields=1, alchemy=1, build_points=1), field: bounds.MAX_BUILD_POINTS + 1}
    response = client.post(reverse("armies:items", args=[world.campaign.slug, vey.pk]), data, follow=True)
    assert "Ensure this value is less than or equal to" in response.content.decode()
    vey.refresh_from_db()
    assert (vey.weapons, vey.shields, vey.alchemy, vey.build_points) == (0, 0, 0, 0)


@pytest.mark.parametrize(
    "field, value",
    [("progression", SMALLINT_OVERFLOW), ("favors", SMALLINT_OVERFLOW), ("influence_halves", SMALLINT_OVERFLOW),
     ("opening_balance", 10**20)],
)
def test_a_commander_with_a_number_beyond_its_bound_is_refused_on_the_form(client, world, field, value):
    client.force_login(world.gm.user)
    data = once(name="Dame Ortolan", membership=world.ann.pk, kind="pc", role="healer", path="nature",
                progression=0, favors=0, influence_halves=0, opening_balance=0) | {field: value}
    response = client.post(reverse("armies:commander_new", args=[world.campaign.slug]), data)
    assert response.status_code == 200 and "Ensure this value is less than or equal to" in response.content.decode()
    assert not Commander.objects.exists()


@pytest.mark.parametrize("field, value", [("price", 10**20), ("quantity", 10**7), ("until_day", bounds.MAX_DAY + 1)])
def test_an_offer_beyond_its_bounds_is_refused_with_a_message_and_the_page_stays_whole(client, world, field, value):
    client.force_login(world.gm.user)
    data = once(card=UnitCardFactory().pk, price=5, quantity=2) | {field: value}
    response = client.post(reverse("armies:offer_new", args=[world.campaign.slug]), data, follow=True)
    assert response.status_code == 200 and "Ensure this value is less than or equal to" in response.content.decode()
    assert not RecruitOffer.objects.exists()


# --- services (a domain error) -------------------------------------------------------------------


def test_the_commander_services_refuse_numbers_beyond_their_bounds(world, vey):
    with pytest.raises(ArmyError, match="Weapons must be between 0 and 10,000"):
        commander_update_items(commander=vey, gm=world.gm.user, weapons=SMALLINT_OVERFLOW)
    with pytest.raises(ArmyError, match="Progression must be between 0 and 1,000"):
        commander_create(campaign=world.campaign, membership=world.ann, name="Big", kind="pc", role="healer",
                         path="nature", progression=SMALLINT_OVERFLOW, created_by=world.gm.user)
    vey.refresh_from_db()
    assert vey.weapons == 0 and Commander.objects.count() == 1


@pytest.mark.parametrize(
    "field, value, message",
    [("price", bounds.MAX_COINS + 1, "A price"), ("quantity", bounds.MAX_OFFER_QUANTITY + 1, "quantity"),
     ("until_day", bounds.MAX_DAY + 1, "The last day of an offer")],
)
def test_offer_post_refuses_numbers_beyond_their_bounds(world, field, value, message):
    arguments = {"price": 5, "quantity": 2, "until_day": None, field: value}
    with pytest.raises(ArmyError, match=message):
        offer_post(campaign=world.campaign, card=UnitCardFactory(), **arguments)
    assert not RecruitOffer.objects.exists()


def test_battle_table_open_refuses_a_base_morale_beyond_its_bound(world, vey):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    units = [ArmyUnitFactory(commander=c, card=UnitCardFactory(strength=2)) for c in (vey, marr)]
    with pytest.raises(ArmyError, match="Base Morale must be between 0 and 20"):
        battle_table_open(attacker=vey, defender=marr, attacker_units=[units[0]], defender_units=[units[1]],
                          base_morale=SMALLINT_OVERFLOW, opened_by=world.gm.user)


# --- the database (a check constraint) and the model validators (admin, catalog imports) -------------


@pytest.mark.parametrize(
    "field, value",
    [("progression", bounds.MAX_PROGRESSION + 1), ("progression", SMALLINT_OVERFLOW), ("favors", bounds.MAX_FAVORS + 1),
     ("influence_halves", bounds.MAX_INFLUENCE_HALVES + 1), ("weapons", bounds.MAX_ITEM_CARDS + 1),
     ("shields", bounds.MAX_ITEM_CARDS + 1), ("alchemy", SMALLINT_OVERFLOW),
     ("build_points", bounds.MAX_BUILD_POINTS + 1)],
)
def test_the_database_refuses_a_commander_number_beyond_its_bound(vey, field, value):
    assert refused_by_the_database(lambda: Commander.objects.filter(pk=vey.pk).update(**{field: value}))
    assert not refused_by_the_database(lambda: Commander.objects.filter(pk=vey.pk).update(**{field: 1}))


@pytest.mark.parametrize(
    "field, value", [("price", bounds.MAX_COINS + 1), ("quantity", 0), ("quantity", bounds.MAX_OFFER_QUANTITY + 1),
                     ("until_day", bounds.MAX_DAY + 1)],
)
def test_the_database_refuses_an_offer_beyond_its_bounds(world, field, value):
    offer = RecruitOfferFactory(campaign=world.campaign, quantity=1)
    assert refused_by_the_database(lambda: RecruitOffer.objects.filter(pk=offer.pk).update(**{field: value}))


@pytest.mark.parametrize(
    "field, value",
    [("strength", bounds.MAX_STRENGTH + 1), ("strength", SMALLINT_OVERFLOW), ("upkeep", bounds.MAX_COINS + 1),
     ("price", bounds.MAX_COINS + 1)],
)
def test_a_unit_card_beyond_its_bounds_is_refused_by_its_validators_and_the_database(field, value):
    card = UnitCardFactory()
    setattr(card, field, value)
    with pytest.raises(ValidationError) as refused:
        card.full_clean()
    assert field in refused.value.message_dict
    assert refused_by_the_database(lambda: UnitCard.objects.filter(pk=card.pk).update(**{field: value}))
    assert not refused_by_the_database(lambda: UnitCard.objects.filter(pk=card.pk).update(strength=None))


def test_the_admin_refuses_a_unit_card_beyond_its_bounds_with_a_message(admin_client):
    card = UnitCardFactory(code="ogre", name="Ogre")
    url = reverse("admin:armies_unitcard_change", args=[card.pk])
    data = {"code": "ogre", "name": "Ogre", "strength": SMALLINT_OVERFLOW, "role": "aggressor", "path": "steel",
            "traits": "[]", "abilities": "[]", "upkeep": 1, "price": 10**20, "text": "", "active": "on"}
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert response.content.decode().count("Ensure this value is less than or equal to") == 2
    card.refresh_from_db()
    assert (card.strength, card.price) == (3, 10)
