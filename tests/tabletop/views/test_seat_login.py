"""A member's seat checks the login against the user its token query read (issue 26,
campaign.permissions.login_is): every way Django refuses a session, the seat refuses it too."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.urls import reverse

from tabletop.models import Seat

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def ann_urls(table) -> dict:
    token = Seat.objects.get(table=table, index=0).token
    return {name: reverse(f"tabletop:{name}", args=[token]) for name in ("seat_table", "seat_poll", "seat_act")}


def answers(client, urls) -> tuple[int, int, int]:
    """(page, poll, action) status codes: the action posts a stale version, which only a seat's owner
    gets as far as (409)."""
    page = client.get(urls["seat_table"]).status_code
    poll = client.get(urls["seat_poll"], {"v": "old"}, **HX).status_code
    act = client.post(urls["seat_act"], {"version": "7", "type": "place"}, **HX).status_code
    return page, poll, act


def test_the_members_own_login_opens_the_seat(client, world, table):
    client.force_login(world.ann.user)
    assert answers(client, ann_urls(table)) == (200, 200, 409)


def test_a_password_changed_elsewhere_logs_the_phone_out_as_django_would(client, world, table):
    client.force_login(world.ann.user)
    user = world.ann.user
    user.set_password("a new secret 123")
    user.save()
    urls = ann_urls(table)
    assert answers(client, urls) == (302, 403, 403)
    assert "_auth_user_id" not in client.session  # flushed by Django's own check


def test_an_inactive_member_is_refused(client, world, table):
    client.force_login(world.ann.user)
    world.ann.user.is_active = False
    world.ann.user.save()
    assert answers(client, ann_urls(table)) == (302, 403, 403)


def test_another_members_login_is_refused(client, world, table):
    client.force_login(world.ben.user)
    assert answers(client, ann_urls(table)) == (403, 403, 403)


@pytest.mark.parametrize("key, value", [(HASH_SESSION_KEY, "forged"), (BACKEND_SESSION_KEY, "no.such.Backend")])
def test_a_session_with_a_forged_hash_or_an_unknown_backend_is_refused(client, world, table, key, value):
    client.force_login(world.ann.user)
    session = client.session
    session[key] = value
    session.save()
    assert answers(client, ann_urls(table)) == (302, 403, 403)
