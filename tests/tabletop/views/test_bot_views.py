"""Computer players on the pages (issue 16): giving a seat to the computer when opening a table or
mid-game, and "… (computer, normal) is thinking…" on every page of the table.

These tests run inside the test's transaction, so no computer turn runs (turns are scheduled when a
change commits): the pages show the computer to act, thinking. tests/tabletop/computer/test_computer_turns.py
plays the turns.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Activity
from tabletop.engines import get_engine
from tabletop.models import Seat, Table, TableAction
from tabletop.services.tables import table_play

from tests.cards import names_card
from tests.factories import army_table, gridaris_table
from tests.forms import once
from tests.tables import play_next
from tests.tabletop._pages import PLAY, SEAT, SESSION, TABLET, seats

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
THINKING = re.compile(r'<p class="computer-thinking" role="status">(.*?)</p>', re.S)


def seat_bot_url(table) -> str:
    return reverse("tabletop:gm_seat_bot", args=[table.campaign.slug, table.pk])


def give(client, table, index: int, bot: str, version: int | None = None, **headers):
    data = {"seat": index, "bot": bot, "version": table.version if version is None else version}
    return client.post(seat_bot_url(table), data, **headers)


def thinking(html: str) -> str:
    """The "thinking" line as read aloud (tags dropped, spaces collapsed); "" when nobody thinks."""
    found = THINKING.search(html)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else ""


def computer_seats(html: str) -> str:
    found = re.search(r'<p class="computer-seats muted">(.*?)</p>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split()) if found else ""


def seat_of(table, index: int) -> Seat:
    return Seat.objects.get(table=table, index=index)


# --- the GM gives a seat to the computer mid-game ------------------------------------------------


def test_the_gm_gives_a_seat_to_the_computer_and_every_page_says_it_is_thinking(client, world, table):
    table = play_next(table)  # Ben (seat 1) is to act
    client.force_login(world.gm.user)
    response = give(client, table, 1, "normal", **HX)

    html = response.content.decode()
    assert response.status_code == 200 and seat_of(table, 1).bot == "normal"
    assert thinking(html) == "Ben the Sly (computer, normal) is thinking…"
    assert 'data-version="2"' in html  # the version moved on: every page refetches, a stale tab is refused
    assert Table.objects.get(pk=table.pk).version == 2 and TableAction.objects.filter(table=table).count() == 1
    line = Activity.objects.get(campaign=world.campaign, kind=Activity.Kind.OVERRIDE)
    assert line.summary == "Test table: seat 2 (Ben the Sly) is now played by the computer (normal)"
    assert line.details.pop("said")  # its words (issue 41); the rest as before
    assert line.actor == world.gm.user and line.details == {"seat": 1, "before": "", "after": "normal", "version": 2}
    assert '<option value="normal" selected>Computer: normal</option>' in html

    for viewer, url in (
        (world.ann, reverse("tabletop:seat_table", args=[seat_of(table, 0).token])),
        (world.ann, reverse("tabletop:public_table", args=[world.campaign.slug, table.pk])),
        (world.gm, reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])),
    ):
        client.force_login(viewer.user)
        page = client.get(url).content.decode()
        assert thinking(page) == "Ben the Sly (computer, normal) is thinking…", url
        assert computer_seats(page) == "Played by the computer: Ben the Sly computer, normal", url


def test_the_computer_waiting_for_a_person_is_marked_but_not_thinking(client, world, table):
    client.force_login(world.gm.user)
    give(client, table, 1, "strong", **HX)  # Ann (seat 0) is to act
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert thinking(page) == "" and computer_seats(page) == "Played by the computer: Ben the Sly computer, strong"
    assert '<span class="badge">computer, strong</span>' in page  # the Seats list marks the seat too


def test_a_seat_given_back_to_a_person_is_no_longer_the_computers(client, world, table):
    client.force_login(world.gm.user)
    give(client, table, 1, "quick", **HX)
    table.refresh_from_db()
    response = give(client, table, 1, "", **HX)
    assert response.status_code == 200 and seat_of(table, 1).bot == ""
    assert "Played by the computer" not in response.content.decode()
    last = Activity.objects.filter(kind=Activity.Kind.OVERRIDE).order_by("pk").last()
    assert last.summary == "Test table: seat 2 (Ben the Sly) is now played by a person"


def test_a_plain_form_post_redirects_to_the_gm_page(client, world, table):
    client.force_login(world.gm.user)
    response = give(client, table, 0, "quick")
    assert response.status_code == 302 and response["Location"].endswith(f"/tables/{table.pk}/")
    assert seat_of(table, 0).bot == "quick"


def test_a_stale_tab_is_refused_with_the_fresh_table_and_changes_nothing(client, world, table):
    client.force_login(world.gm.user)
    play_next(table)
    response = give(client, table, 1, "normal", version=0, **HX)
    html = response.content.decode()
    assert response.status_code == 409 and "The table moved on" in html and 'data-version="1"' in html
    assert seat_of(table, 1).bot == "" and not Activity.objects.filter(kind=Activity.Kind.OVERRIDE).exists()


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        ({"seat": 1, "bot": "genius"}, "No computer strength called &#x27;genius&#x27;: choose quick, normal or"),
        ({"seat": 7, "bot": "quick"}, "This table has no seat 8."),
        ({"seat": "", "bot": "quick"}, "This form is missing the seat or the table version; reload the page."),
    ],
)
def test_bad_input_gets_a_sentence_and_changes_nothing(client, world, table, data, sentence):
    client.force_login(world.gm.user)
    response = client.post(seat_bot_url(table), {"version": 0, **data}, **HX)
    assert response.status_code == 400 and sentence in response.content.decode()
    assert not Seat.objects.filter(table=table).exclude(bot="").exists()
    assert Table.objects.get(pk=table.pk).version == 0


def test_only_a_table_in_play_changes_hands(client, world, table):
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    client.force_login(world.gm.user)
    response = give(client, table, 1, "quick", **HX)
    assert response.status_code == 400 and "Only a table in play can hand a seat to the computer" in (
        response.content.decode()
    )
    assert seat_of(table, 1).bot == ""
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert "Who plays each seat" not in page  # no control on a table that is over


def test_players_cannot_give_seats_to_the_computer(client, world, table):
    for member in (world.ann, world.ben):
        client.force_login(member.user)
        assert give(client, table, 1, "quick", **HX).status_code == 403
    assert not Seat.objects.filter(table=table).exclude(bot="").exists()


def test_the_npc_side_of_an_army_battle_goes_to_the_computer(client, world):
    table = army_table(world.campaign, [world.ann, world.gm])
    client.force_login(world.gm.user)
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert 'for="seat-bot-0">Ann the Bold<' in page and 'for="seat-bot-1">gm<' in page  # the commanders' players
    response = give(client, table, 1, "strong", **HX)
    assert response.status_code == 200 and seat_of(table, 1).bot == "strong"
    assert computer_seats(response.content.decode()) == "Played by the computer: gm computer, strong"
    if 1 in get_engine("army").to_act(table.state):
        assert thinking(response.content.decode()) == "gm (computer, strong) is thinking…"


# --- the pages stay lean and keep secrets ------------------------------------------------------------


def test_a_table_with_a_computer_costs_no_query_more(client, world, django_assert_num_queries):
    table = gridaris_table(world.campaign, [world.ann, "Robo"])
    Seat.objects.filter(table=table, index=1).update(bot="normal")
    client.force_login(world.ann.user)
    seat = seat_of(table, 0)
    _, action = next(
        (a["seat"], {k: v for k, v in a.items() if k != "seat"})
        for a in get_engine(table.game).legal_actions(table.state) if a["seat"] == 0
    )
    with django_assert_num_queries(SEAT + SESSION + PLAY):  # the action's answer says the computer thinks
        response = client.post(
            reverse("tabletop:seat_act", args=[seat.token]), {**action, "version": 0, "client_action_id": "a"}, **HX
        )
    assert thinking(response.content.decode()) == "Robo (computer, normal) is thinking…"
    with django_assert_num_queries(SEAT + SESSION + 1):
        page = client.get(reverse("tabletop:seat_table", args=[seat.token])).content.decode()
    assert thinking(page) == "Robo (computer, normal) is thinking…"
    slug = world.campaign.slug
    with django_assert_num_queries(TABLET + 1):
        response = client.get(reverse("tabletop:public_poll", args=[slug, table.pk]), {"v": "0"}, **HX)
    assert thinking(response.content.decode()) == "Robo (computer, normal) is thinking…"
    client.force_login(world.gm.user)
    with django_assert_num_queries(TABLET + 1):  # the table with its stake (and what the Undo button asks)
        response = client.get(reverse("tabletop:gm_poll", args=[slug, table.pk]), {"v": "0"}, **HX)
    assert thinking(response.content.decode()) == "Robo (computer, normal) is thinking…"


def test_a_phone_learns_nothing_of_the_computers_hand(client, world):
    table = gridaris_table(world.campaign, [world.ann, "Robo"])
    Seat.objects.filter(table=table, index=1).update(bot="strong")
    table = table_play(table_id=table.pk, seat=0, action=_first(table, 0), version=0).table
    engine = get_engine(table.game)
    hidden = engine.hidden_from(table.state, 0)
    assert hidden  # the computer holds cards Ann must not see
    client.force_login(world.ann.user)
    for url in (
        reverse("tabletop:seat_table", args=[seat_of(table, 0).token]),
        reverse("tabletop:seat_poll", args=[seat_of(table, 0).token]) + "?v=0",
        reverse("tabletop:public_table", args=[world.campaign.slug, table.pk]),
    ):
        page = client.get(url, **HX).content.decode()
        assert "Robo (computer, strong) is thinking…" in page
        leaked = [card for card in hidden if names_card(page, card)]
        assert leaked == [], url


def _first(table, seat: int) -> dict:
    action = next(a for a in get_engine(table.game).legal_actions(table.state) if a["seat"] == seat)
    return {k: v for k, v in action.items() if k != "seat"}


# --- opening a table with computer players -------------------------------------------------------------


def test_the_new_table_form_seats_computer_players_after_the_people(client, world):
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "gridaris"])
    page = client.get(url).content.decode()
    assert 'name="computers"' in page and 'name="computer_strength"' in page
    response = client.post(url, {"title": "Practice", "members": [world.ann.pk], "computers": 2,
                                 "computer_strength": "strong", "mode": "standard", **once()})
    assert response.status_code == 302
    table = Table.objects.get(title="Practice")
    seats = [(seat.name, seat.is_guest, seat.bot) for seat in table.seats.order_by("index")]
    assert seats == [("Ann the Bold", False, ""), ("Computer 1", True, "strong"), ("Computer 2", True, "strong")]
    assert table.config["players"] == ["Ann the Bold", "Computer 1", "Computer 2"]


def test_the_preview_names_the_computer_seats_and_counts_them(client, world):
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "gotm"])
    response = client.post(url, {"title": "Too many", "members": [world.ann.pk], "guests": "Gus", "computers": 1,
                                 "computer_strength": "quick", "series_game": 0, **once()})
    html = response.content.decode()
    assert response.status_code == 200 and "This game seats 2 players; you chose 3." in html
    assert seats(html) == ["Ann the Bold (Player)", "Gus guest", "Computer computer, quick"]


def test_one_computer_and_one_member_make_a_practice_game(client, world):
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "gotm"])
    response = client.post(url, {"title": "Practice", "members": [world.ben.pk], "computers": 1,
                                 "computer_strength": "normal", "series_game": 0, **once()})
    assert response.status_code == 302
    table = Table.objects.get(title="Practice")
    assert [(seat.name, seat.bot) for seat in table.seats.order_by("index")] == [
        ("Ben the Sly", ""), ("Computer", "normal")
    ]


def test_a_table_whose_seats_changed_hands_still_replays_from_its_log(client, world, table):
    """A seat handed over moves the version on without a log entry (ruling BOT26): the log's entries
    skip that number, and the log still replays to the table's state, every digest checked."""
    from tabletop.engines.replay import replay_log
    from tabletop.selectors import table_log

    client.force_login(world.gm.user)
    table = play_next(table)
    give(client, table, 1, "normal", **HX)
    table.refresh_from_db()
    table = play_next(table)  # the GM's hot-seat move for the computer's seat (version 3)
    log = table_log(table)
    assert [entry["seq"] for entry in log["entries"]] == [1, 3]
    replayed = replay_log(log)
    assert replayed.mismatches == [] and replayed.applied == 2 and replayed.state == table.state
