"""Sign-up: open only where MUSTER_SIGNUP=open, Django's password validators, nobody made staff, and
the login's throttling shared (people/throttle.py)."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse

from people.services import PeopleError
from people.services.invites import invite_create
from people.services.signup import INVITE_ONLY, signup

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
