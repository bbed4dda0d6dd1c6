"""Pages and fragments that hold a hand are never stored by a browser or a proxy (Cache-Control)."""

import json

import pytest
from django.urls import reverse

from tests.tables import next_move, play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
PRIVATE = "private, no-store"


def seat_url(table, index, name):
    return reverse(name, args=[table.seats.get(index=index).token])


def gm_url(table, name):
    return reverse(name, args=[table.campaign.slug, table.pk])


def assert_private(response):
    assert response.status_code in (200, 204, 302, 400, 409), response.status_code
    assert response["Cache-Control"] == PRIVATE


def test_every_seat_page_and_fragment_is_private(client, world, table):
    seat, action = next_move(table)
    member = world.ann if seat == 0 else world.ben
    client.force_login(member.user)
    assert_private(client.get(seat_url(table, seat, "tabletop:seat_table")))
    assert_private(client.get(seat_url(table, seat, "tabletop:seat_poll"), {"v": table.version}, **HX))
    assert_private(client.get(seat_url(table, seat, "tabletop:seat_poll"), {"v": -1}, **HX))
    posted = {"action": json.dumps(action), "version": table.version}
    assert_private(client.post(seat_url(table, seat, "tabletop:seat_act"), posted, **HX))
    assert_private(client.post(seat_url(table, seat, "tabletop:seat_act"), {"version": 0}, **HX))  # refused
    table.refresh_from_db()
    while not table.is_finished:
        table = play_next(table)
    assert_private(client.get(seat_url(table, seat, "tabletop:seat_log")))


def test_every_gm_table_page_fragment_and_the_log_are_private(client, world, table):
    client.force_login(world.gm.user)
    assert_private(client.get(gm_url(table, "tabletop:gm_table")))
    assert_private(client.get(gm_url(table, "tabletop:gm_poll"), {"v": -1}, **HX))
    assert_private(client.get(gm_url(table, "tabletop:gm_log")))
    seat, action = next_move(table)
    posted = {"action": json.dumps(action), "version": table.version, "as_seat": seat}
    assert_private(client.post(gm_url(table, "tabletop:gm_act"), posted, **HX))
    table.refresh_from_db()
    assert_private(client.post(gm_url(table, "tabletop:gm_undo"), {"version": table.version}, **HX))
    assert_private(client.post(gm_url(table, "tabletop:gm_undo"), {"version": 0}))  # plain form: redirect


def test_the_public_projector_page_may_be_cached_as_usual(client, world, table):
    client.force_login(world.ann.user)
    response = client.get(gm_url(table, "tabletop:public_table"))
    assert response.status_code == 200 and "no-store" not in response.get("Cache-Control", "")
