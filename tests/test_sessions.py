"""The session store (muster/sessions.py): Django's database sessions, read by a query compiled once;
an expired or unknown session is no session, as with Django's own store."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from muster.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "muster.sessions"


def test_a_session_saved_by_django_reads_back_and_one_of_ours_reads_in_django():
    theirs = DjangoStore()
    theirs["seat"] = 3
    theirs.create()
    assert SessionStore(theirs.session_key)["seat"] == 3
    ours = SessionStore()
    ours["seat"] = 4
    ours.create()
    assert DjangoStore(ours.session_key)["seat"] == 4


def test_an_expired_or_unknown_session_is_empty_and_forgets_its_key():
    store = SessionStore()
    store["seat"] = 5
    store.create()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    expired = SessionStore(store.session_key)
    assert expired.load() == {} and expired.session_key is None
    unknown = SessionStore("x" * 32)
    assert unknown.load() == {} and unknown.session_key is None


def test_a_login_lasts_until_its_session_expires(client, world):
    client.force_login(world.ann.user)
    page = reverse("campaign:detail", args=[world.campaign.slug])
    assert client.get(page).status_code == 200
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert client.get(page).status_code == 302
