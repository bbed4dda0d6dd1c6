"""Sign-up: open only where MUSTER_SIGNUP=open, Django's password validators, nobody made staff, and
the login's throttling shared (people/throttle.py)."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Campaign, Membership
from people.services import PeopleError
from people.services.invites import invite_create
from people.services.signup import INVITE_ONLY, open_signup_allowed, signup

from tests.factories import PASSWORD
from tests.forms import once

pytestmark = pytest.mark.django_db
User = get_user_model()
GOOD = "lantern-quarry-91"


def form(username="cora", password=GOOD, again=None, display_name="Cora the Brave"):
    return once(username=username, display_name=display_name, password1=password, password2=again or password)


def test_open_signup_makes_a_plain_account(settings, world):
    settings.SIGNUP = "open"
    done = signup(username="cora", display_name="  Cora   the Brave ", password=GOOD)
    user = User.objects.get(username="cora")
    assert done.user == user and done.joined is None
    assert user.first_name == "Cora the Brave" and user.check_password(GOOD)
    assert not (user.is_staff or user.is_superuser) and user.is_active


def test_signup_without_an_invite_is_refused_by_default(settings, world):
    assert settings.SIGNUP == "invite"
    with pytest.raises(PeopleError, match="by invite only"):
        signup(username="cora", display_name="Cora", password=GOOD)
    assert not User.objects.filter(username="cora").exists()


@pytest.mark.parametrize(("username", "password", "match"), [
    ("cora", "short", "too short"),
    ("cora", "password123", "too common"),
    ("cora", "12345678901", "entirely numeric"),
    ("coraline", "coraline1", "too similar"),
    ("ann", GOOD, "taken"),
    ("ANN", GOOD, "taken"),
    ("co ra", GOOD, "no spaces"),
    ("", GOOD, "user name"),
])
def test_refusals(settings, world, username, password, match):
    settings.SIGNUP = "open"
    with pytest.raises(PeopleError, match=match):
        signup(username=username, display_name="Cora", password=password)
    assert User.objects.count() == 5  # the world's five


def test_a_refused_invite_rolls_the_account_back(world):
    with pytest.raises(PeopleError, match="not one of ours"):
        signup(username="cora", display_name="Cora", password=GOOD, invite_token="Z" * 32)
    assert not User.objects.filter(username="cora").exists()


def test_the_signup_page_is_404_with_a_sentence_unless_open(client, settings, world):
    response = client.get(reverse("people:signup"))
    assert response.status_code == 404 and INVITE_ONLY in response.content.decode()
    assert client.post(reverse("people:signup"), form()).status_code == 404
    assert not User.objects.filter(username="cora").exists()


def test_the_open_signup_page_logs_the_newcomer_in(client, settings, world):
    settings.SIGNUP = "open"
    assert client.get(reverse("people:signup")).status_code == 200
    response = client.post(reverse("people:signup"), form())
    assert response.status_code == 302 and response["Location"] == reverse("campaign:home")
    assert client.get(reverse("campaign:home")).context["user"].username == "cora"


def test_two_different_passwords_are_a_form_error(client, settings, world):
    settings.SIGNUP = "open"
    response = client.post(reverse("people:signup"), form(again=GOOD + "x"))
    assert response.status_code == 200 and "The two passwords differ." in response.content.decode()
    assert not User.objects.filter(username="cora").exists()


def test_the_same_signup_sent_twice_makes_one_account(client, settings, world):
    settings.SIGNUP = "open"
    data = form()
    client.post(reverse("people:signup"), data)
    client.logout()
    again = client.post(reverse("people:signup"), data, follow=True)
    assert "Already done" in again.content.decode()
    assert User.objects.filter(username="cora").count() == 1


# --- the throttle shared with the login -----------------------------------------------------------------


def test_taken_names_count_as_failed_logins_and_lock_the_address_out(client, settings, world):
    settings.SIGNUP = "open"
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(reverse("people:signup"), form(username="ann", display_name=f"Try {n}"))
        assert response.status_code == 200 and "taken" in response.content.decode()
    # the failure that reaches the limit is answered by axes' own lock-out page (its middleware)
    assert client.post(reverse("people:signup"), form(username="ann")).status_code == 429
    locked = client.post(reverse("people:signup"), form(username="fresh"))
    assert locked.status_code == 429 and "Too many failed attempts" in locked.content.decode()
    assert not User.objects.filter(username="fresh").exists()
    # the same address is locked out of the login page too, and Ann (whose name was tried) is not
    login = client.post(reverse("login"), {"username": "ben", "password": PASSWORD})
    assert login.status_code == 429
    other = client.__class__(REMOTE_ADDR="10.9.9.9")
    assert other.post(reverse("login"), {"username": "ann", "password": PASSWORD}).status_code == 302
    assert all("correct" not in attempt.post_data and GOOD not in attempt.post_data
               for attempt in AccessAttempt.objects.all())  # no password kept


def test_typing_slips_do_not_count(client, settings, world):
    settings.SIGNUP = "open"
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        client.post(reverse("people:signup"), form(password="short"))
    assert client.post(reverse("people:signup"), form()).status_code == 302


def test_forged_invite_tokens_count_on_the_invite_signup(client, settings, world):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(reverse("people:join_signup", args=["Z" * 32]), form()).status_code == 404
    assert client.post(reverse("people:join_signup", args=["Z" * 32]), form()).status_code == 429
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    locked = client.post(reverse("people:join_signup", args=[invite.token]), form())
    assert locked.status_code == 429 and "Too many failed attempts" in locked.content.decode()
    assert not User.objects.filter(username="cora").exists()


# --- the first account of an empty instance (ruling AC1) ------------------------------------------------


def test_the_open_page_refuses_on_an_instance_with_accounts_under_invite_only(client, settings, world):
    assert settings.SIGNUP == "invite" and not open_signup_allowed()
    assert client.get(reverse("people:signup")).status_code == 404
    response = client.post(reverse("people:signup"), form())
    assert response.status_code == 404 and INVITE_ONLY in response.content.decode()
    assert "create the first one" not in client.get(reverse("login")).content.decode()
    assert not User.objects.filter(username="cora").exists()


def test_the_first_account_needs_no_invite_and_is_not_staff(settings):
    assert settings.SIGNUP == "invite" and not User.objects.exists() and open_signup_allowed()
    done = signup(username="cora", display_name="Cora", password=GOOD)
    assert done.joined is None and User.objects.get() == done.user
    assert not (done.user.is_staff or done.user.is_superuser)
    assert not open_signup_allowed()
    with pytest.raises(PeopleError, match="by invite only"):  # the second is refused under invite-only
        signup(username="dan", display_name="Dan", password=GOOD)
    assert User.objects.count() == 1


def test_an_open_instance_stays_open_after_the_first_account(settings):
    settings.SIGNUP = "open"
    signup(username="cora", display_name="Cora", password=GOOD)
    assert open_signup_allowed()
    signup(username="dan", display_name="Dan", password=GOOD)
    assert User.objects.count() == 2


def test_the_login_page_of_an_empty_instance_links_to_the_first_account_and_the_page_works(client, settings):
    login_page = client.get(reverse("login")).content.decode()
    assert "No account on this Muster yet: create the first one" in login_page
    assert f'href="{reverse("people:signup")}"' in login_page
    page = client.get(reverse("people:signup"))
    assert page.status_code == 200 and "The first account" in page.content.decode()
    response = client.post(reverse("people:signup"), form(), follow=True)
    assert response.redirect_chain == [(reverse("campaign:home"), 302)]
    assert "Start a campaign with New campaign" in response.content.decode()  # MUSTER_CAMPAIGN_CREATORS=everyone
    cora = User.objects.get(username="cora")
    assert not (cora.is_staff or cora.is_superuser)
    # the first account starts a campaign and is its GM
    new = client.post(reverse("campaign:new"), once(
        name="Ashen March", description="", desertion="most_expensive", time_zone="Europe/Berlin",
        day_end_time="", battle_cooldown_minutes="60"))
    campaign = Campaign.objects.get(name="Ashen March")
    assert new.status_code == 302 and new["Location"] == reverse("campaign:detail", args=[campaign.slug])
    assert Membership.objects.get(campaign=campaign, user=cora).role == Membership.Role.GM
    # and now the instance has an account: the page and the link are gone, a second sign-up refused
    client.logout()
    assert "create the first one" not in client.get(reverse("login")).content.decode()
    assert client.get(reverse("people:signup")).status_code == 404
    refused = client.post(reverse("people:signup"), form(username="dan", display_name="Dan"))
    assert refused.status_code == 404 and INVITE_ONLY in refused.content.decode()
    assert User.objects.count() == 1


def test_a_double_tap_on_the_first_account_is_already_done(client, settings):
    data = form()
    assert client.post(reverse("people:signup"), data).status_code == 302
    client.logout()
    again = client.post(reverse("people:signup"), data, follow=True)
    assert "Already done" in again.content.decode() and User.objects.count() == 1


def test_an_open_instance_links_the_login_page_to_sign_up(client, settings, world):
    settings.SIGNUP = "open"
    page = client.get(reverse("login")).content.decode()
    assert "create the first one" not in page and f'<a href="{reverse("people:signup")}">Sign up</a>' in page


# --- the quota of open sign-up per address (issue 34: 15 accounts in 5.2 s from one address) -------------


def test_open_signup_past_the_quota_of_an_address_is_refused_and_another_address_is_not(client, settings, world):
    settings.SIGNUP, settings.SIGNUPS_PER_HOUR, settings.SIGNUPS_PER_DAY = "open", 3, 10
    for n in range(3):
        made = client.post(reverse("people:signup"), form(username=f"newcomer{n}"), REMOTE_ADDR="10.3.3.3")
        assert made.status_code == 302
        client.logout()
    refused = client.post(reverse("people:signup"), form(username="newcomer3"), REMOTE_ADDR="10.3.3.3")
    page = refused.content.decode()
    assert refused.status_code == 429
    assert "at most 3 new accounts from one address an hour; try again in 60 minutes" in page
    assert not User.objects.filter(username="newcomer3").exists()
    elsewhere = client.post(reverse("people:signup"), form(username="newcomer3"), REMOTE_ADDR="10.4.4.4")
    assert elsewhere.status_code == 302


def test_a_table_of_players_signing_up_by_invite_at_one_venue_address_is_not_held_back(client, settings, world):
    settings.SIGNUPS_PER_HOUR, settings.SIGNUPS_PER_DAY = 2, 2
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user, max_uses=8)
    for n in range(8):
        joined = client.post(
            reverse("people:join_signup", args=[invite.token]), form(username=f"player{n}"), REMOTE_ADDR="127.0.0.2"
        )
        assert joined.status_code == 302, n
        client.logout()
    assert Membership.objects.filter(campaign=world.campaign, user__username__startswith="player").count() == 8
