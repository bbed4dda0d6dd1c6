"""Look-alike user names (people/names.py and the sign-up service): a name whose confusables skeleton
(Unicode UTS #39), after NFKC, case folding and dropping punctuation at its ends, is an existing
name's is refused, and so is a name mixing Latin with Cyrillic or Greek (issue 34)."""

from html import unescape

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Membership
from people.models import NameKey
from people.names import name_key, name_problem
from people.services import PeopleError
from people.services.invites import invite_create
from people.services.signup import signup

from tests.factories import UserFactory
from tests.forms import once

pytestmark = pytest.mark.django_db

GOOD = "a-long-tabletop-secret"
LOOKS_LIKE = "looks too much like an existing one"


@pytest.mark.parametrize(
    "typed, existing",
    [
        ("admin.", "admin"),
        ("_admin", "admin"),
        ("Admin-", "admin"),
        ("ADMIN", "admin"),
        ("ａｄｍｉｎ", "admin"),  # fullwidth: NFKC
        ("аdmіn", "admin"),  # Cyrillic а and і (mixed: refused anyway, and the same skeleton)
        ("раураl", "paypal"),  # Cyrillic р а у а, Latin l: mixed
        ("рау", "pay"),  # all Cyrillic: one script, but the same skeleton
        ("b0b", "bob"),  # digit zero
        ("rnoney", "money"),  # r n for m
    ],
)
def test_look_alike_names_share_a_key(typed, existing):
    assert name_key(typed) == name_key(existing)


@pytest.mark.parametrize("one, other", [("admin", "admins"), ("ann", "anna"), ("bob", "rob"), ("ben", "ben2")])
def test_different_names_have_different_keys(one, other):
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize("name", ["аdmin", "pаypal", "αdmin", "Ωmega-x"])
def test_a_name_mixing_latin_with_cyrillic_or_greek_is_refused(name):
    assert "mixes" in name_problem(name)


@pytest.mark.parametrize("name", ["admin", "иван", "σοφία", "josé_1", "zoë.k"])
def test_a_name_in_one_script_is_fine(name):
    assert name_problem(name) is None


def test_a_name_of_punctuation_only_is_refused():
    assert "letter or a digit" in name_problem("._-")


@pytest.mark.parametrize("typed", ["аdmin", "admin.", "ADMIN_", "рау"])
def test_signup_refuses_a_name_like_an_existing_one(settings, typed):
    settings.SIGNUP = "open"
    UserFactory(username="admin")
    UserFactory(username="pay")
    with pytest.raises(PeopleError) as refused:
        signup(username=typed, display_name="Mallory", password=GOOD)
    assert LOOKS_LIKE in str(refused.value) or "mixes" in str(refused.value)
    assert not get_user_model().objects.filter(username=typed).exists()


def test_the_sentence_names_the_existing_account(settings):
    settings.SIGNUP = "open"
    UserFactory(username="admin")
    with pytest.raises(PeopleError, match="That user name looks too much like an existing one \\(“admin”\\)"):
        signup(username="admin.", display_name="Mallory", password=GOOD)


def test_every_account_keeps_the_key_of_its_current_name_however_it_was_made(settings):
    settings.SIGNUP = "open"
    made_in_the_admin = UserFactory(username="root")
    assert NameKey.objects.get(user=made_in_the_admin).key == name_key("root")  # no sign-up needed
    done = signup(username="cora", display_name="Cora", password=GOOD)
    keys = dict(NameKey.objects.values_list("user__username", "key"))
    assert keys == {"cora": name_key("cora"), "root": name_key("root")}
    made_in_the_admin.username = "rooty"  # renamed in the admin: the key follows at once
    made_in_the_admin.save()
    assert NameKey.objects.get(user=made_in_the_admin).key == name_key("rooty")
    signup(username="root", display_name="Another root", password=GOOD)  # the old name is free again
    assert done.user.name_key.key == name_key("cora")


def test_a_login_does_not_touch_the_key(settings, django_assert_num_queries):
    user = UserFactory(username="root")
    with django_assert_num_queries(1):  # the UPDATE of last_login, nothing more
        user.save(update_fields=["last_login"])


def test_a_look_alike_made_by_staff_in_the_admin_keeps_the_older_accounts_key(settings):
    older = UserFactory(username="admin")
    staff_made = UserFactory(username="admin.")
    assert NameKey.objects.get(user=older).key == name_key("admin")
    assert not NameKey.objects.filter(user=staff_made).exists()
    settings.SIGNUP = "open"
    with pytest.raises(PeopleError, match="looks too much like an existing one"):
        signup(username="_admin", display_name="Mallory", password=GOOD)


# --- every page that makes an account -----------------------------------------------------------------


def signup_form(username):
    return once(username=username, display_name="Mallory", password1=GOOD, password2=GOOD)


def test_open_signup_page_refuses_a_look_alike_and_counts_it_as_a_failure(client, settings, world):
    settings.SIGNUP = "open"
    page = client.post(reverse("people:signup"), signup_form("ann."))
    assert page.status_code == 200 and "looks too much like an existing one (“ann”)" in unescape(
        page.content.decode()
    )
    assert AccessAttempt.objects.count() == 1
    mixed = client.post(reverse("people:signup"), signup_form("аnn"))
    assert mixed.status_code == 200 and "use one alphabet" in mixed.content.decode()
    assert not get_user_model().objects.filter(username__in=["ann.", "аnn"]).exists()


def test_an_invites_signup_refuses_a_look_alike(client, world):
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user)
    page = client.post(reverse("people:join_signup", args=[invite.token]), signup_form("GM_"))
    assert page.status_code == 200 and "looks too much like an existing one (“gm”)" in unescape(
        page.content.decode()
    )
    assert not Membership.objects.filter(campaign=world.campaign, user__username="GM_").exists()


def test_the_first_account_page_checks_names_too(client, settings):
    settings.SIGNUP = "invite"  # an empty instance: the first account's page
    page = client.post(reverse("people:signup"), signup_form("аdmin"))
    assert page.status_code == 200 and "use one alphabet" in page.content.decode()
    assert not get_user_model().objects.exists()
