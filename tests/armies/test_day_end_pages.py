"""The GM's "End day N": a confirmation step, pinned to its day, and messages that say what happened.

The service and the task are tested in test_day_end_task.py, a real worker in test_celery_worker.py.
"""

from __future__ import annotations

import html
import re

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from armies.models import ArmyUnit, DayEnd, Settlement, UnitUse
from armies.services import settlement
from campaign.models import Campaign

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.concurrency import race

pytestmark = pytest.mark.django_db


@pytest.fixture
def armies(world):
    """Lady Vey (100 coins) and Lord Marr (5 coins) both fought on day 1; Marr's Golem (upkeep 8) deserts."""
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=100)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=5)
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", upkeep=3))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Secret Golem", upkeep=8))
    for commander in (vey, marr):
        UnitUse.objects.create(unit=commander.units.get(), commander=commander, day=1)
    return vey, marr


def end_day_url(world) -> str:
    return reverse("armies:day_end", args=[world.campaign.slug])


def current_day(world) -> int:
    return Campaign.objects.get(pk=world.campaign.pk).current_day


def said(response) -> list[str]:
    """The messages the page shows after a post (followed), each once."""
    return [html.unescape(text) for text in re.findall(r'<li class="msg[^"]*">(.*?)</li>', response.content.decode())]


def post(client, world, data) -> object:
    return client.post(end_day_url(world), data, follow=True)


@pytest.fixture
def gm(client, world):
    client.force_login(world.gm.user)
    return client


# --- the confirmation step ------------------------------------------------------------------------


def test_the_armies_page_asks_before_it_ends_the_day(gm, world, armies):
    html = gm.get(reverse("armies:list", args=[world.campaign.slug])).content.decode()

    form = re.search(rf'<form[^>]*action="{re.escape(end_day_url(world))}"[^>]*>(.*?)</form>', html, re.S)
    assert form is not None
    assert 'method="get"' in form.group(0)  # it opens the confirmation, it does not end the day
    assert 'name="day" value="1"' in form.group(1) and "End day 1" in form.group(1)


def test_the_confirmation_shows_who_pays_and_who_deserts_and_changes_nothing(gm, world, armies):
    response = gm.get(end_day_url(world), {"day": 1})

    html = response.content.decode()
    assert response.status_code == 200
    assert "End day 1?" in html and "You can take it back" in html
    assert "Lady Vey" in html and "Lord Marr" in html and "Secret Golem" in html
    confirm = re.search(rf'<form method="post" action="{re.escape(end_day_url(world))}">(.*?)</form>', html, re.S)
    assert confirm is not None and 'name="day" value="1"' in confirm.group(1)
    assert "Yes, end day 1" in confirm.group(1)
    assert not DayEnd.objects.exists() and current_day(world) == 1


def test_the_confirmation_of_a_failed_day_end_shows_what_failed(gm, world, armies):
    DayEnd.objects.create(campaign=world.campaign, day=1, status="failed", total=2, error="OperationalError: boom")

    html = gm.get(end_day_url(world), {"day": 1}).content.decode()

    assert "Day 1 end: <strong>Failed</strong> · 0 of 2 commanders settled<br>OperationalError: boom" in html
    assert "Yes, end day 1" in html


@pytest.mark.django_db(transaction=True)  # on_commit runs inside the request, as it does for real
def test_the_confirmation_of_a_day_that_is_over_says_so(gm, world, armies):
    post(gm, world, {"day": 1})

    response = gm.get(end_day_url(world), {"day": 1}, follow=True)

    assert response.redirect_chain == [(reverse("armies:list", args=[world.campaign.slug]), 302)]
    assert said(response) == ["Day 1 is already over: the campaign is on day 2."]


def test_the_confirmation_costs_the_same_queries_for_2_and_20_commanders(gm, world, armies):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert gm.get(end_day_url(world), {"day": 1}).status_code == 200
        return len(captured)

    few = queries()
    card = UnitCardFactory(name="Pikes", upkeep=2)
    for _ in range(18):
        commander = CommanderFactory(membership=world.ann, balance=1)
        UnitUse.objects.create(unit=ArmyUnitFactory(commander=commander, card=card), commander=commander, day=1)
    assert queries() == few


# --- pinned to its day ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_confirming_ends_that_day_and_says_so(gm, world, armies):
    vey, marr = armies
    response = post(gm, world, {"day": 1})

    assert current_day(world) == 2
    assert Settlement.objects.filter(day=1).count() == 2
    assert marr.units.get().status == ArmyUnit.Status.DESERTED  # 8 owed, 5 held
    assert said(response) == ["Day 1 is over: 2 commanders settled. The campaign is on day 2."]
    history = gm.get(reverse("armies:list", args=[world.campaign.slug])).content.decode()
    assert "Secret Golem" in history  # in the settlement history


@pytest.mark.django_db(transaction=True)
def test_two_posts_for_day_1_end_day_1_only(gm, world, armies):
    """A double tap, or a second tab still showing day 1: the second post changes nothing."""
    post(gm, world, {"day": 1})
    second = post(gm, world, {"day": 1})

    assert current_day(world) == 2
    assert said(second) == ["Day 1 is already over: the campaign is on day 2."]
    assert DayEnd.objects.filter(campaign=world.campaign).count() == 1


def test_a_post_that_does_not_say_which_day_ends_nothing(gm, world, armies, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        responses = [post(gm, world, data) for data in ({}, {"day": "two"}, {"day": "-1"})]

    assert current_day(world) == 1 and not DayEnd.objects.exists()
    which_day = ("Which day? Reload the page and press End day again.",)
    assert {tuple(said(response)) for response in responses} == {which_day}


def test_a_day_that_has_not_begun_cannot_be_ended(gm, world, armies, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = post(gm, world, {"day": 2})

    assert current_day(world) == 1 and not DayEnd.objects.exists()
    assert said(response) == ["Day 2 has not begun: the campaign is on day 1."]


# --- true messages after a failure -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # on_commit runs inside the request, as it does for real
def test_a_press_that_lost_the_race_says_the_day_was_settled(gm, world, armies, monkeypatch):
    """A concurrent day end settles day 1 while this press's own run fails with "database is locked"."""
    from armies import tasks

    real_settle = tasks.day_settle

    def settled_elsewhere_then_locked(**kwargs):
        if not Settlement.objects.exists():
            real_settle(**kwargs)  # the winner of the race
        raise OperationalError("database is locked")

    monkeypatch.setattr(tasks, "day_settle", settled_elsewhere_then_locked)
    response = post(gm, world, {"day": 1})

    assert said(response) == ["Day 1 is over: 2 commanders settled. The campaign is on day 2."]
    monkeypatch.setattr(tasks, "day_settle", real_settle)
    again = post(gm, world, {"day": 1})  # the GM presses once more, to be sure
    assert said(again) == ["Day 1 is already over: the campaign is on day 2."]
    assert current_day(world) == 2
    assert Settlement.objects.filter(day=1).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_failed_day_end_says_what_failed_and_is_retried_for_the_same_day(gm, world, armies, monkeypatch):
    vey, _ = armies
    real_chunk = settlement._settle_chunk
    monkeypatch.setattr(
        settlement, "_settle_chunk", lambda **kwargs: (_ for _ in ()).throw(RuntimeError("database away"))
    )
    response = post(gm, world, {"day": 1})

    assert said(response) == [
        "Settling day 1 failed (RuntimeError: database away). 0 of 2 commanders are settled; nobody is charged "
        "twice. The campaign is still on day 1: press End day 1 to try again."
    ]
    monkeypatch.setattr(settlement, "_settle_chunk", real_chunk)
    retry = post(gm, world, {"day": 1})
    assert said(retry) == ["Day 1 is over: 2 commanders settled. The campaign is on day 2."]
    assert Settlement.objects.filter(commander=vey, day=1).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_day_end_that_could_not_be_sent_to_a_worker_says_so(gm, world, armies, monkeypatch):
    from armies.services import day_end

    monkeypatch.setattr(day_end, "_send", lambda *args: (_ for _ in ()).throw(ConnectionError("Redis is down")))
    response = post(gm, world, {"day": 1})

    assert said(response) == [
        "Day 1 is queued, but no worker has it yet (Redis is down). It is sent again automatically within "
        "3 minutes; or press End day 1 again then."
    ]
    assert DayEnd.objects.get().status == "queued" and current_day(world) == 1


# --- real concurrency (PostgreSQL) -----------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tabs_pressing_end_day_1_at_the_same_moment_end_day_1_once(world, armies):
    tabs = [Client(), Client()]
    for tab in tabs:
        tab.force_login(world.gm.user)

    responses = race([lambda tab=tab: post(tab, world, {"day": 1}) for tab in tabs])

    assert all(getattr(response, "status_code", None) == 200 for response in responses), responses
    assert current_day(world) == 2
    assert Settlement.objects.filter(day=1).count() == 2
    messages = [said(response)[0] for response in responses]
    messages.remove("Day 1 is over: 2 commanders settled. The campaign is on day 2.")
    assert messages[0] in {"Day 1 is already over: the campaign is on day 2.", "Day 1 is already being settled."}
