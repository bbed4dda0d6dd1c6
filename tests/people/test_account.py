"""One's own account: the name others see and the password (people/services/accounts.py, /account/)."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from people.services import PeopleError
from people.services.accounts import account_password_change, account_rename

from tests.factories import PASSWORD, MembershipFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-tabletop-secret"
LOCKED = "Too many failed attempts from this address"


def logged_in(user) -> Client:
    """A device of its own: its own session, as a phone or a laptop has."""
    device = Client()
    device.force_login(user)
    return device


def change(client, old=PASSWORD, new=NEW_PASSWORD, **extra):
    data = {"old_password": old, "new_password1": new, "new_password2": new}
    return client.post(reverse("people:account_password"), data, **extra)


def test_the_name_others_see_is_the_first_name_alone(world):
    user = world.ann.user
    user.last_name = "Smith"
    user.save()
    account_rename(user=user, display_name="  Annie  ")
    user.refresh_from_db()
    assert (user.first_name, user.last_name, user.get_full_name()) == ("Annie", "", "Annie")


@pytest.mark.parametrize(
    "name, sentence",
    [("", "Type the name"), ("   ", "Type the name"), ("x" * 151, "at most 150"), ("Ann\x00", "control"),
     ("Ann\u202eevil", "invisible")],
)
def test_a_name_that_cannot_be_shown_is_refused(world, name, sentence):
    with pytest.raises(PeopleError, match=sentence):
        account_rename(user=world.ann.user, display_name=name)
    world.ann.user.refresh_from_db()
    assert world.ann.user.first_name == ""


def test_the_service_refuses_a_password_the_validators_refuse(world):
    with pytest.raises(PeopleError, match="too common"):
        account_password_change(user=world.ann.user, new_password="password123")
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(PASSWORD)


def test_a_new_name_shows_on_the_campaign_pages(client, world):
    cal = MembershipFactory(campaign=world.campaign, user__username="cal")  # no character name
    client.force_login(cal.user)
    page = client.get(reverse("people:account"))
    assert page.status_code == 200 and 'name="display_name"' in page.content.decode()
    saved = client.post(reverse("people:account_name"), {"display_name": "Cal of the Marches"})
    assert saved.status_code == 302 and saved["Location"] == reverse("people:account")
    assert "Cal of the Marches" in client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    gm_page = logged_in(world.gm.user).get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert "Cal of the Marches" in gm_page


def test_a_refused_name_shows_the_form_with_the_sentence(client, world):
    client.force_login(world.ann.user)
    reply = client.post(reverse("people:account_name"), {"display_name": "Ann\u200b"})
    assert reply.status_code == 200 and "invisible characters" in reply.content.decode()


def test_changing_the_password_logs_out_the_other_sessions_and_keeps_this_one(world):
    phone, laptop = logged_in(world.ann.user), logged_in(world.ann.user)
    home = reverse("campaign:home")
    assert phone.get(home).status_code == laptop.get(home).status_code == 200
    done = change(phone)
    assert done.status_code == 302
    assert phone.get(home).status_code == 200  # the session that changed it stays logged in
    logged_out = laptop.get(home)
    assert logged_out.status_code == 302 and reverse("login") in logged_out["Location"]
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(NEW_PASSWORD)


def test_a_wrong_current_password_is_refused_and_counted_then_the_address_is_locked_out(client, world, settings):
    client.force_login(world.ann.user)
    wrong = change(client, old="not-my-password")
    assert wrong.status_code == 200 and "incorrectly" in wrong.content.decode()
    assert AccessAttempt.objects.get().failures_since_start == 1
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        change(client, old="not-my-password")
    locked = change(client)  # even the right password, while the address is locked out
    assert locked.status_code == 429 and LOCKED in locked.content.decode()
    world.ann.user.refresh_from_db()
    assert world.ann.user.check_password(PASSWORD)


def test_the_account_pages_are_private_and_not_stored(client, world):
    client.force_login(world.ann.user)
    for reply in (client.get(reverse("people:account")), client.post(reverse("people:account_name"), {})):
        assert {"private", "no-store"} <= {part.strip() for part in reply["Cache-Control"].split(",")}


def test_the_nav_links_to_your_account(client, world):
    client.force_login(world.ann.user)
    assert f'href="{reverse("people:account")}"' in client.get(reverse("campaign:home")).content.decode()
