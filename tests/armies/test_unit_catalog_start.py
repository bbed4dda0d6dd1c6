"""A GM fills an empty unit catalog with the starter units from the armies page (ruling AC2): the
first GM of a fresh instance is not staff, and without a card there is no offer or battle."""

import pytest
from django.urls import reverse

from armies.models import UnitCard
from armies.services import ArmyError
from armies.services.recruiting import CATALOG_NOT_EMPTY, unit_catalog_start
from tabletop.engines.army.starter import RECRUITABLE

from tests.armies.factories import UnitCardFactory

pytestmark = pytest.mark.django_db


def test_the_gm_of_an_empty_catalog_loads_the_starter_units_and_then_may_post_offers(client, world):
    client.force_login(world.gm.user)
    armies = reverse("armies:list", args=[world.campaign.slug])
    page = client.get(armies).content.decode()
    assert "The unit catalog is empty" in page and "Post an offer" not in page
    response = client.post(reverse("armies:unit_catalog_start", args=[world.campaign.slug]), follow=True)
    assert response.redirect_chain == [(armies + "#offers", 302)]
    page = response.content.decode()
    assert f"{len(RECRUITABLE)} starter units are in the catalog" in page
    assert "Post an offer" in page and "The unit catalog is empty" not in page
    assert sorted(UnitCard.objects.values_list("code", flat=True)) == sorted(RECRUITABLE)
    assert not (world.gm.user.is_staff or world.gm.user.is_superuser)


def test_a_catalog_with_a_card_is_staffs_and_is_not_touched(client, world):
    card = UnitCardFactory(code="spearmen", name="Pikes (house rule)", strength=5)
    with pytest.raises(ArmyError, match="has its cards already"):
        unit_catalog_start(campaign=world.campaign, gm=world.gm.user)
    client.force_login(world.gm.user)
    page = client.get(reverse("armies:list", args=[world.campaign.slug])).content.decode()
    assert "The unit catalog is empty" not in page and "Post an offer" in page
    response = client.post(reverse("armies:unit_catalog_start", args=[world.campaign.slug]), follow=True)
    assert CATALOG_NOT_EMPTY in response.content.decode()
    card.refresh_from_db()
    assert (card.name, card.strength, UnitCard.objects.count()) == ("Pikes (house rule)", 5, 1)


def test_only_a_gm_loads_the_starter_units(client, world):
    client.force_login(world.ann.user)
    assert client.post(reverse("armies:unit_catalog_start", args=[world.campaign.slug])).status_code == 403
    assert not UnitCard.objects.exists()
    with pytest.raises(Exception, match="Only the GM"):
        unit_catalog_start(campaign=world.campaign, gm=world.ann.user)
