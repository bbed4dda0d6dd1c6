"""Every time on a campaign's pages is in the campaign's time zone (issue 35), labelled with the zone's
abbreviation where it could be misread (a printed card, a link sent to someone, a battle's start).

The instant 13 Dec 2024 10:56 UTC is 13 Dec 23:56 in Pacific/Auckland (NZDT, UTC+13): a page still in
UTC would show 10:56."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone

from armies.models import Battle
from campaign.models import Activity
from people.models import Invite
from people.services.invites import invite_create

from tests.armies.factories import CommanderFactory
from tests.forms import once

pytestmark = pytest.mark.django_db

AUCKLAND = zoneinfo.ZoneInfo("Pacific/Auckland")
INSTANT = dt.datetime(2024, 12, 13, 10, 56, tzinfo=dt.UTC)


@pytest.fixture
def auckland(world):
    world.campaign.time_zone = "Pacific/Auckland"
    world.campaign.save(update_fields=["time_zone"])
    return world


@pytest.fixture
def gm(client, auckland):
    client.force_login(auckland.gm.user)
    return client


@pytest.fixture
def invite(auckland):
    made = invite_create(campaign=auckland.campaign, created_by=auckland.gm.user)
    Invite.objects.filter(pk=made.pk).update(expires_at=INSTANT)
    return made


def test_an_invite_expires_in_the_campaigns_zone_on_its_page_and_its_printed_card(gm, auckland, invite, monkeypatch):
    # an expiry in the past is no longer open: let the sheet's "now" be a day before it
    monkeypatch.setattr(timezone, "now", lambda: INSTANT - dt.timedelta(days=1))

    listing = gm.get(reverse("people:invites", args=[auckland.campaign.slug]))
    sheet = gm.get(reverse("people:invite_sheet", args=[auckland.campaign.slug]))

    assert listing.status_code == sheet.status_code == 200
    assert "until 13 Dec 23:56 NZDT" in listing.content.decode()
    assert "Until 13 Dec 23:56 NZDT" in sheet.content.decode()


def test_an_activity_line_is_timed_in_the_campaigns_zone(gm, auckland, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: INSTANT)  # the log is append-only: written at that instant
    invite_create(campaign=auckland.campaign, created_by=auckland.gm.user)
    monkeypatch.undo()

    page = gm.get(reverse("campaign:activity", args=[auckland.campaign.slug]))

    assert page.status_code == 200
    html = page.content.decode()
    assert ">13 Dec 23:56</time>" in html and "10:56" not in html
    assert "Times are in Pacific/Auckland" in html


def test_a_battle_began_in_the_campaigns_zone(gm, auckland):
    vey = CommanderFactory(membership=auckland.ann, name="Lady Vey")
    marr = CommanderFactory(membership=auckland.ben, name="Lord Marr")
    battle = Battle.objects.create(campaign=auckland.campaign, attacker=vey, defender=marr, day=1)
    Battle.objects.filter(pk=battle.pk).update(started_at=INSTANT, ended_at=INSTANT + dt.timedelta(minutes=30))

    page = gm.get(reverse("armies:battle_result", args=[auckland.campaign.slug, battle.pk]))

    assert page.status_code == 200
    assert "began 23:56 NZDT · ended 00:26 NZDT" in page.content.decode()


def test_a_reset_link_says_until_when_in_the_campaigns_zone(gm, auckland):
    url = reverse("people:member_reset", args=[auckland.campaign.slug, auckland.ann.pk])
    before = timezone.now()
    page = gm.post(url, once())
    after = timezone.now()

    assert page.status_code == 200
    minutes = page.context["link"].minutes
    shown = {f"until {timezone.localtime(t + dt.timedelta(minutes=minutes), AUCKLAND):%H:%M %Z}"
             for t in (before, after)}
    assert any(text in page.content.decode() for text in shown), shown


def test_the_activity_summary_of_an_invite_names_its_expiry_in_the_campaigns_zone(auckland):
    invite = invite_create(campaign=auckland.campaign, created_by=auckland.gm.user)
    line = Activity.objects.filter(campaign=auckland.campaign).latest("pk")

    expected = f"{timezone.localtime(invite.expires_at, AUCKLAND):%d %b %H:%M %Z}"
    assert line.summary.endswith(f"until {expected}.")
