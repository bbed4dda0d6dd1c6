"""Every table page leads somewhere (issue 25): the campaign, the armies page for the GM, and for a battle
its page, then its result and luck report once it is over; a guest's seat only what a guest may open.

``tabletop`` never imports ``armies``: the battle's links come through the ``table_links`` hook that
armies registers. Each page's count of queries is pinned, the battle's links costing one query."""

import re

import pytest
from django.urls import reverse

from armies.services.battle_tables import battle_table_open
from tabletop import hooks
from tabletop.models import Seat

from tests.armies._battles import drive
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.factories import gridaris_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def links(response) -> dict[str, str]:
    """{label: href} of the page's table links (its small nav)."""
    page = response.content.decode()
    nav = re.search(r'<nav class="table-links".*?</nav>', page, re.S)
    assert nav, "the page has no table links"
    return {label.strip(): href for href, label in re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav[0])}


def seat_url(table, index, name="tabletop:seat_table"):
    return reverse(name, args=[Seat.objects.get(table=table, index=index).token])


@pytest.fixture
def battle(world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel")
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")
    units = []
    for commander in (vey, marr):
        units.append([ArmyUnitFactory(commander=commander, card=UnitCardFactory(name=f"Pikes {commander.pk}",
                                                                               strength=3))])
    return battle_table_open(attacker=vey, defender=marr, attacker_units=units[0], defender_units=units[1],
                             opened_by=world.gm.user, seed=11)


def test_a_card_table_leads_the_gm_the_members_and_the_projector_to_the_campaign(client, world):
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    campaign = reverse("campaign:detail", args=[world.campaign.slug])
    client.force_login(world.gm.user)
    assert links(client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])))["Campaign"] == campaign
    client.force_login(world.ann.user)
    assert links(client.get(seat_url(table, 0))) == {"Campaign": campaign}
    assert links(client.get(reverse("tabletop:public_table", args=[world.campaign.slug, table.pk]))) == {
        "Campaign": campaign}


def test_a_guest_seat_is_led_nowhere_it_cannot_open(client, world):
    table = gridaris_table(world.campaign, ["Gus", "Gwen"])
    response = client.get(seat_url(table, 0))
    assert response.status_code == 200 and links(response) == {}


def test_a_battle_leads_the_gm_to_the_armies_and_the_battle_then_to_its_result_and_luck(client, world, battle):
    slug = world.campaign.slug
    page = reverse("tabletop:gm_table", args=[slug, battle.table_id])
    result = reverse("armies:battle_result", args=[slug, battle.pk])
    client.force_login(world.gm.user)
    shown = links(client.get(page))
    assert shown["Armies"] == reverse("armies:list", args=[slug])
    assert shown[f"Battle #{battle.pk}"] == result and "Result and luck report" not in shown

    drive(battle.table)

    shown = links(client.get(page))
    assert shown["Result and luck report"] == result + "#luck" and shown["Campaign"]


def test_a_battle_leads_its_players_to_the_result_once_it_is_over_and_no_one_else(client, world, battle):
    slug = world.campaign.slug
    result = reverse("armies:battle_result", args=[slug, battle.pk]) + "#luck"
    client.force_login(world.ann.user)
    assert "Result and luck report" not in links(client.get(seat_url(battle.table, 0)))
    drive(battle.table)
    shown = links(client.get(seat_url(battle.table, 0)))
    assert shown["Result and luck report"] == result and "Armies" not in shown
    assert client.get(result).status_code == 200  # a page the player may open
    # a member who fights in neither army sees the battle on the projector, but no result they may not open
    outsider = CommanderFactory(campaign=world.campaign, membership__campaign=world.campaign, name="Nobody").membership
    client.force_login(outsider.user)
    shown = links(client.get(reverse("tabletop:public_table", args=[slug, battle.table_id])))
    assert "Result and luck report" not in shown and "Campaign" in shown


def test_the_links_are_in_the_live_region_so_a_finish_brings_them(client, world, battle):
    slug = world.campaign.slug
    drive(battle.table)
    client.force_login(world.gm.user)
    response = client.get(reverse("tabletop:gm_poll", args=[slug, battle.table_id]), {"v": "0"}, **HX)
    assert "Result and luck report" in links(response)


def test_a_hook_that_adds_no_link_adds_nothing(client, world):
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    seen = []

    def noting(table, viewer):
        seen.append(viewer)
        return []

    hooks.table_links("gridaris")(noting)
    try:
        client.force_login(world.ann.user)
        assert links(client.get(seat_url(table, 0))) == {"Campaign": reverse("campaign:detail", args=["siege"])}
    finally:
        hooks.unregister(noting)
    assert [(v.kind, v.membership_id, v.guest) for v in seen] == [("seat", world.ann.pk, False)]


def test_the_battle_pages_read_their_links_in_one_query(client, world, battle, django_assert_num_queries):
    slug = world.campaign.slug
    client.force_login(world.gm.user)
    poll = reverse("tabletop:gm_poll", args=[slug, battle.table_id])
    with django_assert_num_queries(3 + 1 + 1 + 1):  # the GM's poll; the undo hook (nothing to undo); the battle
        response = client.get(poll, {"v": "-"}, **HX)
    assert response.status_code == 200 and f"Battle #{battle.pk}" in links(response)
    client.force_login(world.ann.user)
    seat_poll = seat_url(battle.table, 0, "tabletop:seat_poll")
    # the seat with its member's user, the session, the table; no battle while it is on (issue 26: a
    # player's only link of it is the result's, once it is over)
    with django_assert_num_queries(1 + 1 + 1):
        response = client.get(seat_poll, {"v": "-"}, **HX)
    assert response.status_code == 200 and "Campaign" in links(response)
    public_poll = reverse("tabletop:public_poll", args=[slug, battle.table_id])
    with django_assert_num_queries(3 + 1):  # the member's public view: the table
        response = client.get(public_poll, {"v": "-"}, **HX)
    assert response.status_code == 200 and "Campaign" in links(response)
    drive(battle.table)
    with django_assert_num_queries(1 + 1 + 1 + 1):  # over: and the battle, for the result's link
        response = client.get(seat_poll, {"v": "-"}, **HX)
    assert response.status_code == 200 and "Result and luck report" in links(response)
