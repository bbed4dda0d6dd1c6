"""What the table pages give static/js/live.js: the socket each page connects to, the key its live
region compares pushes with, and (a seat's page only) whether it is that seat's turn."""

import re

import pytest
from django.urls import reverse

from tabletop.services.abandon import table_abandon

from tests.tables import play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def attribute(html: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', html)
    return found.group(1) if found else None


def seat_page(client, table, index, name="tabletop:seat_table", **params):
    token = table.seats.get(index=index).token
    return client.get(reverse(name, args=[token]), params, **(HX if "poll" in name else {})).content.decode()


def test_each_page_connects_to_its_own_socket_and_carries_its_key(client, world, table):
    client.force_login(world.ann.user)
    token = table.seats.get(index=0).token
    seat = seat_page(client, table, 0)
    assert attribute(seat, "ws-connect") == f"/ws/play/{token}/"
    assert attribute(seat, "data-key") == "0"
    assert attribute(seat, "hx-trigger") == "live:fetch"  # fetched when told (or by the fallback timer)
    public = client.get(reverse("tabletop:public_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert attribute(public, "ws-connect") == f"/ws/c/{world.campaign.slug}/tables/{table.pk}/"
    client.force_login(world.gm.user)
    gm = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert attribute(gm, "ws-connect") == f"/ws/c/{world.campaign.slug}/tables/{table.pk}/gm/"  # the GM's own group


def test_only_the_seat_whose_turn_it_is_is_told_so(client, world, table):
    client.force_login(world.ann.user)
    assert attribute(seat_page(client, table, 0), "data-my-turn") == "1"  # Gridaris: seat 0 begins
    assert "data-turn-sound" in seat_page(client, table, 0)
    client.force_login(world.ben.user)
    assert attribute(seat_page(client, table, 1), "data-my-turn") == "0"
    play_next(table)
    fetched = seat_page(client, table, 1, "tabletop:seat_poll", v="0")
    assert attribute(fetched, "data-my-turn") == "1" and attribute(fetched, "data-key") == "1"
    client.force_login(world.gm.user)
    gm = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert "data-my-turn" not in gm and "data-turn-sound" not in gm


def test_an_abandoned_table_neither_connects_nor_fetches(client, world, table):
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Rain")
    client.force_login(world.ben.user)
    page = seat_page(client, table, 1)
    assert "ws-connect" not in page and "hx-get" not in page
    assert attribute(page, "data-my-turn") == "0" and "data-turn-sound" not in page
