"""The coach is bounded (issue 34, part E): at most one question thinking per account (a guest's seat: per
seat), ``COACH_PER_CAMPAIGN`` per campaign and ``COACH_SEARCHES`` over the whole site; a tap over a bound
is answered 429 with a sentence, at once, for one query. A lease is released when its search answers,
fails or runs out of time; a double tap for the same question waits for the first answer and is not
refused.

The search's boundary (``coach_search.search``, which hands the search to another process and waits) is
replaced by a fake that, while it "thinks", makes the next tap: that tap comes exactly while the first
holds its leases, with no thread and no time in the test (the double tap alone needs a second thread)."""

from __future__ import annotations

import html
import threading

import pytest
from django.test import Client

from tabletop.bots import BotError
from tabletop.computer import coach, coach_bounds, coach_search

from tests.factories import gridaris_table
from tests.tabletop._coach import HX, ask, coach_url, open_game, to_a_seats_turn

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_coach")]
MOVES = [{"label": f"Place {n}", "percent": 60 - n, "visits": 10 - n} for n in range(3)]


@pytest.fixture(autouse=True)
def bounds(settings):
    settings.COACH_PER_CAMPAIGN, settings.COACH_SEARCHES = 2, 4


class Thinking:
    """``coach_search.search`` as a fake: each search, while it thinks, makes the next of ``taps`` (name,
    tap) and keeps its response under that name; then it answers ``MOVES`` (or raises ``fails``)."""

    def __init__(self):
        self.taps: list[tuple[str, object]] = []
        self.responses: dict[str, object] = {}
        self.searches = 0
        self.fails: Exception | None = None

    def __call__(self, *args, **kwargs):
        self.searches += 1
        if self.taps:
            name, tap = self.taps.pop(0)
            self.responses[name] = tap()
        if self.fails is not None:
            raise self.fails
        return MOVES


@pytest.fixture
def thinking(monkeypatch) -> Thinking:
    fake = Thinking()
    monkeypatch.setattr(coach_search, "search", fake)
    return fake


def says(response, sentence: str) -> bool:
    return html.escape(sentence) in response.content.decode()


def member_tables(world, count: int):
    """``count`` tables of Ann and Ben (same seed: the same seat to act at each), that seat, and its member."""
    tables = [to_a_seats_turn(gridaris_table(world.campaign, [world.ann, world.ben], title=f"Table {n}"))
              for n in range(count)]
    seat = tables[0][1]
    assert all(index == seat for _, index in tables)
    return [table for table, _ in tables], seat, (world.ann, world.ben)[seat]


def guest_tables(world, count: int):
    return [to_a_seats_turn(open_game(world, "gridaris", title=f"Practice {n}")) for n in range(count)]


def test_one_account_asking_at_two_tables_at_once_is_refused_at_the_second_while_the_first_thinks(
        client, world, thinking):
    (first, second), seat, member = member_tables(world, 2)
    client.force_login(member.user)
    thinking.taps.append(("second", lambda: ask(client, second, seat)))

    answered = ask(client, first, seat)
    assert answered.status_code == 200 and "Place 0" in answered.content.decode()
    refused = thinking.responses["second"]
    assert refused.status_code == 429 and says(refused, coach_bounds.ACCOUNT_BUSY)
    assert refused["Retry-After"] == "1"
    assert thinking.searches == 1
    assert ask(client, second, seat).status_code == 200  # the first answered: its lease is free again


def test_a_guest_is_bounded_per_seat_so_another_guests_seat_may_ask_meanwhile(client, world, thinking):
    (first, seat), (second, other) = guest_tables(world, 2)
    thinking.taps.append(("other", lambda: ask(client, second, other)))
    assert ask(client, first, seat).status_code == 200
    assert thinking.responses["other"].status_code == 200 and thinking.searches == 2


def test_a_campaign_has_at_most_its_bound_of_questions_thinking(client, world, settings, thinking):
    settings.COACH_PER_CAMPAIGN = 2
    (one, a), (two, b), (three, c) = guest_tables(world, 3)
    thinking.taps += [("two", lambda: ask(client, two, b)), ("three", lambda: ask(client, three, c))]

    assert ask(client, one, a).status_code == 200
    assert thinking.responses["two"].status_code == 200  # the second of the campaign thinks beside the first
    refused = thinking.responses["three"]
    assert refused.status_code == 429 and says(refused, coach_bounds.CAMPAIGN_BUSY)
    assert thinking.searches == 2
    assert ask(client, three, c).status_code == 200


def test_the_site_has_at_most_its_bound_of_questions_thinking(client, world, settings, thinking):
    settings.COACH_PER_CAMPAIGN, settings.COACH_SEARCHES = 5, 1
    (one, a), (two, b) = guest_tables(world, 2)
    thinking.taps.append(("two", lambda: ask(client, two, b)))
    assert ask(client, one, a).status_code == 200
    refused = thinking.responses["two"]
    assert refused.status_code == 429 and says(refused, coach_bounds.ALL_BUSY)


def test_a_tap_over_a_bound_costs_one_query(client, world, settings, thinking, django_assert_max_num_queries):
    settings.COACH_PER_CAMPAIGN = 1
    (first, a), (second, b) = guest_tables(world, 2)
    url, version = coach_url(second, b), second.version

    def counted():
        with django_assert_max_num_queries(1):  # the seat by its token: refused before the table's state
            return client.post(url, {"version": version}, **HX)

    thinking.taps.append(("second", counted))
    assert ask(client, first, a).status_code == 200
    refused = thinking.responses["second"]
    assert refused.status_code == 429 and says(refused, coach_bounds.CAMPAIGN_BUSY)


@pytest.mark.parametrize("failure", [BotError("This game hides cards the computer cannot deal anew."),
                                     coach_search.TookTooLong("no answer")], ids=["refused", "timed out"])
def test_the_leases_are_released_when_the_search_fails(client, world, settings, thinking, failure):
    settings.COACH_SEARCHES = 1  # any lease left held would refuse the next question
    (first, second), seat, member = member_tables(world, 2)
    client.force_login(member.user)
    thinking.fails = failure
    failed = ask(client, first, seat)
    assert failed.status_code == (400 if isinstance(failure, BotError) else 503)
    assert says(failed, str(failure) if isinstance(failure, BotError) else coach.TOO_LONG)
    thinking.fails = None
    assert ask(client, second, seat).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_for_the_same_question_waits_for_the_first_answer_and_is_not_refused(
        world, settings, monkeypatch):
    settings.COACH_SEARCHES = 1
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    url = coach_url(table, seat)
    searching, second_waits = threading.Event(), threading.Event()
    searches = []

    def slow(*args, **kwargs):  # thinks until the second tap waits for it
        searches.append(args)
        searching.set()
        assert second_waits.wait(30), "the second tap never waited for the first answer"
        return MOVES

    wait = coach.wait_for_answer

    def waiting(*args, **kwargs):
        second_waits.set()
        return wait(*args, **kwargs)

    monkeypatch.setattr(coach_search, "search", slow)
    monkeypatch.setattr(coach, "wait_for_answer", waiting)
    responses = {}

    def tap(name):
        responses[name] = Client().post(url, {"version": table.version}, **HX)

    first = threading.Thread(target=tap, args=("first",))
    first.start()
    assert searching.wait(30), "the first tap never searched"
    tap("second")
    first.join(30)
    assert responses["first"].status_code == responses["second"].status_code == 200
    assert responses["first"].content == responses["second"].content
    assert len(searches) == 1
