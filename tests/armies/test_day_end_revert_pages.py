"""The GM's "Take back the end of day N": the confirmation page, the post, a double post, a stale page.

The service is tested in test_day_end_revert.py; the browser test in test_browser_day_end_revert.py.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from armies.models import ArmyUnit, DayEnd
from campaign.models import Activity, Campaign, LedgerEntry

from tests.armies._day_end import Day1
from tests.forms import once, tokens_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def siege(world):
    return Day1(world)


def url(world, day=None) -> str:
    base = reverse("armies:day_end_revert", args=[world.campaign.slug])
    return base if day is None else f"{base}?day={day}"


def said(response) -> list[str]:
    return [html.unescape(text) for text in re.findall(r'<li class="msg[^"]*">(.*?)</li>', response.content.decode())]


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def current_day(world) -> int:
    return Campaign.objects.get(pk=world.campaign.pk).current_day


@pytest.fixture
def gm(client, world):
    client.force_login(world.gm.user)
    return client


def test_the_overview_offers_the_button_only_once_a_day_has_ended(gm, world, siege):
    overview = reverse("armies:list", args=[world.campaign.slug])
    assert "Take back the end of day" not in gm.get(overview).content.decode()
    siege.end()
    page = gm.get(overview).content.decode()
    assert "Take back the end of day 1…" in html.unescape(page)
    assert 'action="/c/siege/day-end/revert/"' in page


def test_the_confirmation_shows_the_refunds_and_returns_and_changes_nothing(gm, world, siege):
    siege.end()
    entries = LedgerEntry.objects.count()
    response = gm.get(url(world, 1))
    assert response.status_code == 200
    page = text(response)
    assert "Take back the end of day 1?" in page
    assert "Lady Vey 5 coins —" in page
    assert "Lord Marr 1 coin Golem" in page
    assert "In all 6 coins 1 unit" in page
    assert len(tokens_in(response.content.decode())) == 1
    assert (LedgerEntry.objects.count(), current_day(world)) == (entries, 2)


def test_the_confirmation_says_what_is_in_the_way_and_offers_no_button(gm, world, siege):
    siege.end()
    LedgerEntry.objects.create(account=siege.cara.account, amount=2, day=2, kind="adjustment", reason="Found a purse")
    response = gm.get(url(world, 1))
    page = text(response)
    assert (
        "Day 1 cannot be taken back: on day 2 Cara has a GM adjustment entry (Found a purse, +2). Undo those first."
        in page
    )
    assert "Yes, take back" not in page
    assert tokens_in(response.content.decode()) == []


def test_the_post_takes_the_day_back_and_says_so(gm, world, siege):
    siege.end()
    response = gm.post(url(world), once(day=1), follow=True)
    assert response.redirect_chain[-1][0] == reverse("armies:list", args=[world.campaign.slug])
    assert said(response) == [
        "Day 1 end taken back: 2 commanders refunded 6 coins, 1 unit returned. The campaign is on day 1 again."
    ]
    assert current_day(world) == 1
    assert ArmyUnit.objects.get(pk=siege.golem.pk).status == ArmyUnit.Status.ACTIVE
    assert Activity.objects.get(kind=Activity.Kind.DAY_END_REVERT).actor == world.gm.user
    page = text(response)
    assert "Day 1 end: Taken back" in page
    assert "End day 1…" in page
    body = response.content.decode()
    assert "day-end-progress" in body
    assert "hx-trigger" not in body and "ws-connect" not in body  # a taken-back day end is neither polled nor pushed


def test_a_double_post_reverts_once(gm, world, siege):
    siege.end()
    form = once(day=1)
    gm.post(url(world), form, follow=True)
    again = gm.post(url(world), form, follow=True)
    assert said(again) == ["Already taken back: the end of day 1 was taken back once; this form is applied once."]
    assert Activity.objects.filter(kind=Activity.Kind.DAY_END_REVERT).count() == 1
    fresh = gm.post(url(world), once(day=1), follow=True)  # a second tab with its own token
    assert said(fresh) == ["Already taken back: the end of day 1 was taken back; the campaign is on day 1."]
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).count() == 2


def test_a_stale_page_for_an_older_day_changes_nothing(gm, world, siege):
    siege.end()
    siege.end()
    response = gm.post(url(world), once(day=1), follow=True)
    assert said(response) == [
        "Only the latest day end can be taken back: that is day 2, not day 1 (the campaign is on day 3)."
    ]
    assert current_day(world) == 3
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).exists()
    assert DayEnd.objects.filter(status=DayEnd.Status.REVERTED).count() == 0


def test_a_post_without_a_token_or_a_day_changes_nothing(gm, world, siege):
    siege.end()
    no_token = gm.post(url(world), {"day": 1}, follow=True)
    assert "carries no one-time token" in said(no_token)[0]
    no_day = gm.post(url(world), once(), follow=True)
    assert said(no_day) == ["Which day? Reload the page and press Take back again."]
    assert current_day(world) == 2


def test_nothing_to_take_back_yet(gm, world, siege):
    page = text(gm.get(url(world)))
    assert "No day has ended yet: the campaign is on day 1." in page
    # the page's title names no day either (it said "the end of day None")
    assert "<title>Take back a day end · " in gm.get(url(world)).content.decode() and "None" not in page


@pytest.mark.parametrize(
    ("who", "status"), [("ann", 403), ("outsider", 404), ("anonymous", 302), ("staff", 404), ("gm", 200)]
)
def test_only_the_gm_sees_the_page(client, world, siege, who, status):
    user = {"ann": world.ann.user, "outsider": world.outsider, "staff": world.staff, "gm": world.gm.user}.get(who)
    if user is not None:
        client.force_login(user)
    assert client.get(url(world, 1)).status_code == status
    if who != "gm":
        assert client.post(url(world), once(day=1)).status_code == status
    siege.end()
    if who != "gm":
        client.post(url(world), once(day=1))
        assert current_day(world) == 2


# --- issue 25: a settlement taken back reads as taken back on every page that lists it -------------------


def settlement_rows(body: str) -> list[str]:
    """The text of each settlement line on a page (one partial draws them: ``armies/_settlements.html``)."""
    rows = re.findall(r'<tr id="settlement-\d+"[^>]*>(.*?)</tr>', body, re.DOTALL)
    return [html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))).strip() for row in rows]


def test_a_day_ended_taken_back_and_ended_again_marks_the_first_settlements_taken_back(gm, world, siege):
    siege.end()
    siege.revert()
    siege.end()
    armies = gm.get(reverse("armies:list", args=[world.campaign.slug])).content.decode()
    rows = settlement_rows(armies)
    vey = [row for row in rows if "Lady Vey" in row]
    assert len(vey) == 2
    assert sum("taken back" in row for row in vey) == 1, vey
    assert "taken back" not in vey[0]  # the one that counts comes first
    treasury = gm.get(reverse("armies:treasury", args=[world.campaign.slug]) + "?settled=1").content.decode()
    marked = [row for row in settlement_rows(treasury) if "taken back" in row]
    assert len(marked) == 2  # Vey's and Marr's first settlements
    assert 'class="settlement taken-back' in armies and 'class="settlement taken-back' in treasury


def test_the_day_end_confirmation_says_it_can_be_taken_back(gm, world, siege):
    page = text(gm.get(reverse("armies:day_end", args=[world.campaign.slug]) + "?day=1"))
    assert "cannot be undone" not in page
    assert "can take it back" in page and "until something happens on day 2" in page
