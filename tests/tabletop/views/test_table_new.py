import pytest
from django.urls import reverse

from tabletop import models
from tabletop.models import Table

from tests.forms import once

pytestmark = pytest.mark.django_db


def new_table_url(world):
    return reverse("tabletop:table_new", args=[world.campaign.slug, "gridaris"])


def test_the_gm_opens_a_table_with_members_and_a_guest(client, world):
    client.force_login(world.gm.user)
    response = client.post(
        new_table_url(world),
        {"title": "Side bet", "members": [world.ann.pk, world.ben.pk], "guests": "Gus\n", "mode": "standard", **once()},
    )
    table = Table.objects.get(title="Side bet")
    assert response.status_code == 302 and response["Location"].endswith(f"/tables/{table.pk}/")
    assert [seat.name for seat in table.seats.all()] == ["Ann the Bold", "Ben the Sly", "Gus"]
    assert table.state["players"] == ["Ann the Bold", "Ben the Sly", "Gus"]
    assert len(table.config["cards"]) == 49


def test_enhanced_play_with_two_chosen_scenarios(client, world):
    client.force_login(world.gm.user)
    client.post(
        new_table_url(world),
        {
            "title": "Chaos",
            "members": [world.ann.pk, world.ben.pk],
            "mode": "enhanced",
            "scenarios": ["inverse", "cascade"],
            **once(),
        },
    )
    assert Table.objects.get(title="Chaos").config["scenarios"] == ["inverse", "cascade"]


@pytest.mark.parametrize(
    "data, message",
    [
        ({"members": []}, "seats 2 to 5 players"),
        ({"mode": "enhanced", "scenarios": ["inverse"]}, "exactly two"),
        ({"mode": "standard", "scenarios": ["inverse", "cascade"]}, "only used in enhanced play"),
    ],
)
def test_a_bad_table_form_says_what_is_wrong_and_creates_nothing(client, world, data, message):
    client.force_login(world.gm.user)
    form = {"title": "Bad", "members": [world.ann.pk, world.ben.pk], "mode": "standard", **once(), **data}
    response = client.post(new_table_url(world), form)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Table.objects.filter(title="Bad").exists()


def test_a_member_of_another_campaign_cannot_be_seated(client, world):
    from tests.factories import MembershipFactory

    stranger = MembershipFactory()
    client.force_login(world.gm.user)
    response = client.post(
        new_table_url(world), {"title": "Sneaky", "members": [world.ann.pk, stranger.pk], "mode": "standard", **once()}
    )
    assert response.status_code == 200
    assert not Table.objects.filter(title="Sneaky").exists()


@pytest.mark.parametrize("game", ["gridaris", "gotm", "mercenarium", "dungeon"])
def test_the_gm_can_open_the_new_table_page_of_every_side_event(client, world, game):
    from tabletop.catalog.starter_dungeon import dungeon_catalog_load_starter

    dungeon_catalog_load_starter()
    client.force_login(world.gm.user)
    home = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    url = reverse("tabletop:table_new", args=[world.campaign.slug, game])
    assert url in home
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("game, model", [("gridaris", "GridarisCard"), ("dungeon", "DungeonCard")])
def test_an_empty_catalog_plays_the_starter_cards(client, world, game, model):
    """Ruling AC3: a fresh instance's GM opens any side event without the admin."""
    getattr(models, model).objects.all().delete()
    client.force_login(world.gm.user)
    data = {"title": "First night", "members": [world.ann.pk, world.ben.pk], **once()}
    data.update({"mode": "standard"} if game == "gridaris" else {"mode": "cooperative", "variant": "pairs"})
    response = client.post(reverse("tabletop:table_new", args=[world.campaign.slug, game]), data)
    table = Table.objects.get(title="First night")
    assert response.status_code == 302 and table.game == game and len(table.config["cards"]) > 10
