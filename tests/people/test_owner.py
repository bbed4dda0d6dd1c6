"""The owner's link (issue 35): ``make run`` prints a one-time link with which the person at the serving
machine makes their own account (staff only when ticked), through sign-up's rules; used, expired or
forged, it is refused with a sentence, counted by the login throttle and logged without its token."""

import logging
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from campaign.submissions import AlreadyDone
from people.models import OwnerLink
from people.services import PeopleError
from people.services.owner import EXPIRED, FORGED, USED, OwnerLinkRefused, owner_account_create, owner_link_issue

from tests.forms import once

pytestmark = pytest.mark.django_db
User = get_user_model()
GOOD = "lantern-quarry-91"


def form(username="olga", display_name="Olga the Owner", password=GOOD, staff=False):
    data = once(username=username, display_name=display_name, password1=password, password2=password)
    return {**data, "staff": "on"} if staff else data


def owner_url(token: str) -> str:
    return reverse("people:owner", args=[token])


def failures() -> int:
    return sum(AccessAttempt.objects.values_list("failures_since_start", flat=True))


def test_the_link_carries_192_random_bits_and_only_its_hash_is_kept():
    token = owner_link_issue()
    assert len(token) == 32  # secrets.token_urlsafe(24)
    [link] = OwnerLink.objects.all()
    assert token not in link.token_hash and len(link.token_hash) == 64
    assert link.used_at is None and link.expires_at > timezone.now() + timedelta(hours=23)


def test_a_new_link_kills_the_old_one():
    old = owner_link_issue()
    new = owner_link_issue()
    assert old != new and OwnerLink.objects.count() == 1
    with pytest.raises(OwnerLinkRefused, match="not one this Muster made"):
        owner_account_create(token=old, username="olga", display_name="Olga", password=GOOD, staff=False)
    owner_account_create(token=new, username="olga", display_name="Olga", password=GOOD, staff=False)


def test_the_page_makes_one_plain_account_logs_it_in_and_lands_on_new_campaign(client, world):
    token = owner_link_issue()
    page = client.get(owner_url(token))
    assert page.status_code == 200 and 'name="staff"' in page.content.decode()
    response = client.post(owner_url(token), form(), follow=True)
    assert response.status_code == 200 and response.redirect_chain[-1][0] == reverse("campaign:home")
    user = User.objects.get(username="olga")
    assert response.context["user"] == user
    assert "New campaign" in response.content.decode()
    assert user.first_name == "Olga the Owner" and user.check_password(GOOD)
    assert not (user.is_staff or user.is_superuser)


def test_staff_only_when_ticked(client, world):
    client.post(owner_url(owner_link_issue()), form(staff=True))
    user = User.objects.get(username="olga")
    assert user.is_staff and user.is_superuser  # the catalogs in /admin/, as the demo's admin
    assert client.get("/admin/").status_code == 200


def test_the_link_works_once(client, world):
    token = owner_link_issue()
    assert client.post(owner_url(token), form()).status_code == 302
    client.logout()
    again = client.post(owner_url(token), form(username="oscar"))
    assert again.status_code == 410 and USED in again.content.decode()
    assert client.get(owner_url(token)).status_code == 410
    assert not User.objects.filter(username="oscar").exists()
    assert failures() == 2


def test_a_double_tap_is_already_done_not_a_second_account(world):
    token = owner_link_issue()
    data = form()
    owner_account_create(token=token, username="olga", display_name="Olga", password=GOOD, staff=False,
                         submission=data["submission"])
    with pytest.raises(AlreadyDone):
        owner_account_create(token=token, username="olga", display_name="Olga", password=GOOD, staff=False,
                             submission=data["submission"])
    assert User.objects.filter(username="olga").count() == 1


@pytest.mark.parametrize("forged", ["Z" * 32, "\x00", "x" * 65, "é" * 32])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_forged_token_is_refused_counted_and_makes_nothing(client, world, method, forged):
    owner_link_issue()
    response = getattr(client, method)(owner_url(forged), form() if method == "post" else None)
    assert response.status_code == 404 and FORGED in response.content.decode()
    assert not User.objects.filter(username="olga").exists()
    assert failures() == 1


def test_an_expired_link_is_refused_and_counted(client, world):
    token = owner_link_issue()
    OwnerLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.post(owner_url(token), form())
    assert response.status_code == 410 and EXPIRED in response.content.decode()
    assert not User.objects.filter(username="olga").exists()
    assert failures() == 1


def test_a_locked_out_address_is_told_so(client, world, settings):
    token = owner_link_issue()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.get(owner_url("Z" * 32))
    response = client.post(owner_url(token), form())
    assert response.status_code == 429
    assert not User.objects.filter(username="olga").exists()


@pytest.mark.parametrize(("username", "password", "match"), [
    ("ann", GOOD, "taken"),
    ("ann.", GOOD, "looks too much like"),
    ("olga", "password123", "too common"),
])
def test_sign_up_rules_hold_and_a_refusal_keeps_the_link(client, world, username, password, match):
    token = owner_link_issue()
    response = client.post(owner_url(token), form(username=username, password=password))
    assert response.status_code == 200 and match in response.content.decode()
    assert OwnerLink.objects.get().used_at is None
    assert client.post(owner_url(token), form()).status_code == 302


def test_the_service_refuses_with_sign_ups_sentences(world):
    token = owner_link_issue()
    with pytest.raises(PeopleError, match="too short"):
        owner_account_create(token=token, username="olga", display_name="Olga", password="short", staff=True)
    assert not User.objects.filter(username="olga").exists()


def test_the_token_never_reaches_the_log_or_the_throttle(client, world, caplog):
    token = owner_link_issue()
    client.post(owner_url(token), form())
    client.logout()
    with caplog.at_level(logging.INFO):
        assert client.get(owner_url(token)).status_code == 410
    assert "/owner/***/" in caplog.text and token not in caplog.text
    assert AccessAttempt.objects.exists()
    assert not [path for path in AccessAttempt.objects.values_list("path_info", flat=True) if token in path]
