"""A campaign page checks the login against the user its membership query read (issue 26,
campaign.permissions.membership_of_login): every way Django refuses a session, the page refuses it too."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.urls import reverse

pytestmark = pytest.mark.django_db


def home(world) -> str:
    return reverse("campaign:detail", args=[world.campaign.slug])


def test_a_members_own_login_opens_the_campaign_and_is_the_requests_user(client, world):
    client.force_login(world.ann.user)
    response = client.get(home(world))
    assert response.status_code == 200 and response.wsgi_request.user == world.ann.user


def test_a_password_changed_elsewhere_sends_the_page_to_the_login_as_django_would(client, world):
    client.force_login(world.ann.user)
    world.ann.user.set_password("a new secret 123")
    world.ann.user.save()
    response = client.get(home(world))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert "_auth_user_id" not in client.session


def test_an_inactive_member_goes_to_the_login(client, world):
    client.force_login(world.ann.user)
    world.ann.user.is_active = False
    world.ann.user.save()
    assert client.get(home(world)).status_code == 302


def test_a_user_of_no_membership_gets_404(client, world):
    client.force_login(world.outsider)
    assert client.get(home(world)).status_code == 404


@pytest.mark.parametrize("key, value", [(HASH_SESSION_KEY, "forged"), (BACKEND_SESSION_KEY, "no.such.Backend")])
def test_a_session_with_a_forged_hash_or_an_unknown_backend_goes_to_the_login(client, world, key, value):
    client.force_login(world.ann.user)
    session = client.session
    session[key] = value
    session.save()
    assert client.get(home(world)).status_code == 302
