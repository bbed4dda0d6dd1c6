"""Two phones on a one-use invite at the same instant: one joins, the other gets a sentence, and the
loser's new account is rolled back with it. On PostgreSQL (threads, each its own connection; the
invite's row is locked) and against a real server on SQLite as ``make run`` starts it (write
transactions take the database lock when they begin)."""

import re

import pytest
from django.db import connection

from campaign.models import Membership
from people.models import InviteUse
from people.services import PeopleError
from people.services.invites import invite_accept, invite_create
from people.services.signup import signup

from tests.concurrency import race
from tests.factories import UserFactory
from tests.forms import tokens_in
from tests.venue_server import VENUE_HOST, Client, VenueServer

GOOD = "lantern-quarry-91"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_people_on_a_one_use_invite_at_once_one_joins(world):
    assert connection.vendor == "postgresql"
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    cora, dan = UserFactory(username="cora"), UserFactory(username="dan")

    results = race([lambda user=user: invite_accept(token=invite.token, user=user) for user in (cora, dan)])

    refusals = [r for r in results if isinstance(r, PeopleError)]
    assert len(refusals) == 1 and "used as many" in str(refusals[0]), results
    assert InviteUse.objects.count() == 1
    assert Membership.objects.filter(user__in=[cora, dan], campaign=world.campaign).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_on_a_one_use_invite_at_once_make_one_account(world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)

    results = race([
        lambda name=name: signup(username=name, display_name=name, password=GOOD, invite_token=invite.token)
        for name in ("cora", "dan")
    ])

    assert sorted(type(r).__name__ for r in results) == ["PeopleError", "SignedUp"], results
    assert InviteUse.objects.count() == 1
    assert Membership.objects.filter(user__username__in=["cora", "dan"]).count() == 1
    assert UserFactory._meta.model.objects.filter(username__in=["cora", "dan"]).count() == 1


# --- the live server on SQLite ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("sqlite-invites")).start()
    yield venue
    venue.stop()


@pytest.mark.venue
def test_two_phones_on_a_one_use_invite_at_once_on_the_sqlite_server(server):
    slug = server.query("SELECT slug FROM campaign_campaign ORDER BY id LIMIT 1")[0][0]
    tablet = Client(VENUE_HOST, server.port)
    tablet.log_in("gm", server.password("gm"))
    page = tablet.request("GET", f"/c/{slug}/invites/")
    assert page.status == 200, page.body[:300]
    [token] = tokens_in(page.body)[:1]
    made = tablet.request("POST", f"/c/{slug}/invites/", {
        "submission": token, "role": "player", "commander": "", "max_uses": "1", "days": "1",
        "csrfmiddlewaretoken": tablet.csrf_token(),
    })
    assert made.status == 302, made.body[:500]
    [(invite_id, invite_token)] = server.query("SELECT id, token FROM people_invite ORDER BY id DESC LIMIT 1")

    phones = []
    for _ in range(2):
        phone = Client(VENUE_HOST, server.port)
        join = phone.request("GET", f"/join/{invite_token}/")
        assert join.status == 200 and "Sign up and join" in join.body
        phones.append((phone, tokens_in(join.body)[0]))

    def sign_up(phone, once, name):
        reply = phone.request("POST", f"/join/{invite_token}/signup/", {
            "submission": once, "username": name, "display_name": name, "password1": GOOD, "password2": GOOD,
            "csrfmiddlewaretoken": phone.csrf_token(),
        })
        return reply.status, re.sub(r"\s+", " ", reply.body)

    replies = race([lambda p=p, o=o, n=n: sign_up(p, o, n) for (p, o), n in zip(phones, ("cora", "dan"), strict=True)])

    statuses = sorted(status for status, _ in replies)
    assert statuses[0] in (200, 410) and statuses[1] == 302, statuses
    loser = next(body for status, body in replies if status != 302)
    assert "used as many times as it allows" in loser
    assert server.query("SELECT COUNT(*) FROM people_inviteuse WHERE invite_id = ?", [invite_id]) == [(1,)]
    assert server.query("SELECT COUNT(*) FROM auth_user WHERE username IN ('cora', 'dan')") == [(1,)]
    assert "Traceback" not in server.output
