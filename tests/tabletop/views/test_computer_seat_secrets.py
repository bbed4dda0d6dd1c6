"""A computer seat has no usable link (issue 22, ruling BOT32): its token opens no page, poll, action,
log or socket, the GM's page shows no link or QR code for it, the GM's buttons for it are disabled
and the server refuses them, and handing the seat back to a person makes a new link.

These tests run inside the test's transaction, so no computer turn runs (turns are scheduled when a
change commits): a computer seat to act stays to act.
"""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import Client
from django.urls import reverse

from tabletop.consumers import SeatConsumer
from tabletop.engines import get_engine
from tabletop.models import Seat, Table, TableAction
from tabletop.selectors import table_log
from tabletop.services.computer_moves import give_back, play_decided
from tabletop.services.tables import SeatSpec, table_create

from tests.factories import army_table, gridaris_table
from tests.tables import play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
GAMES = ("army", "gridaris", "gotm", "mercenarium", "dungeon")
GUESTS = ["Gus", "Robo"]
COMPUTER_SEAT = "The computer is playing this seat; hand it back to a person to decide for it."
FORM = re.compile(r"<form\b.*?</form>", re.S)
AS_SEAT = re.compile(r'name="as_seat" value="([^"]*)"')
CONTROL = re.compile(r"<(?:button|input)\b[^>]*>")


def open_game(world, game: str) -> Table:
    """A table of ``game`` with two guest seats, Gus (seat 0) and Robo (seat 1)."""
    if game == "army":
        return army_table(world.campaign, GUESTS)
    if game == "gridaris":
        return gridaris_table(world.campaign, GUESTS)
    config = {"gotm": {"series_game": 0}, "mercenarium": {}, "dungeon": {"mode": "competitive", "variant": "pairs"}}
    seats = [SeatSpec(guest_name=name) for name in GUESTS]
    return table_create(campaign=world.campaign, game=game, title="Test table", seats=seats, config=config[game],
                        seed=5)


def seat_choices(table: Table, seat: int) -> list[dict]:
    return [action for action in get_engine(table.game).legal_actions(table.state) if action["seat"] == seat]


def computer_to_act(world, game: str) -> tuple[Table, int]:
    """The game's table played on until a seat is to act with a choice, and that seat given to the computer."""
    table = open_game(world, game)
    engine = get_engine(game)
    for _ in range(60):
        acting = [seat for seat in engine.to_act(table.state) if isinstance(seat, int) and seat_choices(table, seat)]
        if acting:
            seat = acting[-1]
            Seat.objects.filter(table=table, index=seat).update(bot="normal")
            return Table.objects.get(pk=table.pk), seat
        table = play_next(table)
    pytest.fail(f"no seat of {game} came to act")


def token_of(table: Table, index: int) -> str:
    return Seat.objects.values_list("token", flat=True).get(table=table, index=index)


def seat_url(name: str, token: str) -> str:
    return reverse(name, args=[token])


def gm_url(table: Table, name: str = "tabletop:gm_table") -> str:
    return reverse(name, args=[table.campaign.slug, table.pk])


def posted(table: Table, action: dict, **extra) -> dict:
    return {"action": json.dumps({k: v for k, v in action.items() if k != "seat"}), "version": table.version,
            "client_action_id": "try", **extra}


def seats_section(page: str) -> str:
    found = re.search(r"<h2>Seats</h2>(.*?)</section>", page, re.S)
    assert found, "the GM's page lists the seats"
    return found.group(1)


def seat_line(page: str, name: str) -> str:
    lines = re.findall(r"<li>(.*?)</li>", seats_section(page), re.S)
    return next(line for line in lines if f"<strong>{name}</strong>" in line)


def nothing_by_token(client, token: str, table: Table, action: dict) -> dict:
    """What each of the seat's paths answers with ``token``: page, poll, action, log, socket."""
    answers = {
        "page": client.get(seat_url("tabletop:seat_table", token)).status_code,
        "poll": client.get(seat_url("tabletop:seat_poll", token), {"v": "-1"}, **HX).status_code,
        "act": client.post(seat_url("tabletop:seat_act", token), posted(table, action), **HX).status_code,
        "log": client.get(seat_url("tabletop:seat_log", token)).status_code,
    }
    try:
        SeatConsumer().watch(AnonymousUser(), token=token)
        answers["socket"] = "open"
    except Http404:
        answers["socket"] = 404
    return answers


REFUSED = {"page": 404, "poll": 404, "act": 404, "log": 404, "socket": 404}


# --- 1. a computer seat's token gives nothing, at every game ------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_computer_seats_token_opens_nothing_and_the_gm_page_shows_no_link_for_it(client, world, game):
    table, seat = computer_to_act(world, game)
    token, version = token_of(table, seat), table.version
    action = seat_choices(table, seat)[0]

    assert nothing_by_token(client, token, table, action) == REFUSED
    assert Table.objects.get(pk=table.pk).version == version and not TableAction.objects.filter(table=table).exists()

    client.force_login(world.gm.user)
    page = client.get(gm_url(table)).content.decode()
    assert token not in page  # no link, no QR code (the QR's data carries the link), nowhere on the page
    line = seat_line(page, GUESTS[seat])
    assert "played by the computer" in line and "<img" not in line and "join-url" not in line
    person = seat_line(page, GUESTS[1 - seat])
    assert token_of(table, 1 - seat) in person and '<img class="qr"' in person  # the person's seat keeps its own


def test_a_computer_seats_token_does_not_release_the_log_of_a_finished_game(client, world):
    table = gridaris_table(world.campaign, GUESTS)
    while get_engine("gridaris").to_act(table.state):
        table = play_next(table)
    Seat.objects.filter(table=table, index=1).update(bot="quick")
    assert client.get(seat_url("tabletop:seat_log", token_of(table, 1))).status_code == 404
    assert Table.objects.get(pk=table.pk).log_released_at is None  # the GM can still undo
    response = client.get(seat_url("tabletop:seat_log", token_of(table, 0)))
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")


def test_a_link_scanned_while_the_seat_was_a_persons_stops_working_and_handing_back_makes_a_new_one(client, world):
    table = gridaris_table(world.campaign, GUESTS)
    scanned = token_of(table, 1)
    assert client.get(seat_url("tabletop:seat_table", scanned)).status_code == 200
    gm = Client()
    gm.force_login(world.gm.user)
    seat_bot = gm_url(table, "tabletop:gm_seat_bot")

    assert gm.post(seat_bot, {"seat": 1, "bot": "normal", "version": 0}, **HX).status_code == 200
    assert client.get(seat_url("tabletop:seat_table", scanned)).status_code == 404
    assert gm.post(seat_bot, {"seat": 1, "bot": "", "version": 1}, **HX).status_code == 200

    fresh = token_of(table, 1)
    assert fresh != scanned
    assert client.get(seat_url("tabletop:seat_table", scanned)).status_code == 404
    assert client.get(seat_url("tabletop:seat_table", fresh)).status_code == 200
    page = gm.get(gm_url(table)).content.decode()
    assert fresh in seats_section(page) and scanned not in page


def test_a_seat_the_computer_gives_back_gets_a_new_link(world):
    table = gridaris_table(world.campaign, GUESTS)
    Seat.objects.filter(table=table, index=1).update(bot="strong")
    old = token_of(table, 1)
    assert give_back(table.pk, 1, table.version, "a test") is True
    seat = Seat.objects.get(table=table, index=1)
    assert seat.bot == "" and seat.token != old and len(seat.token) >= 32


# --- 2. the GM does not decide for the computer -----------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_gms_buttons_for_a_computer_seat_are_disabled_with_the_reason(client, world, game):
    table, seat = computer_to_act(world, game)
    client.force_login(world.gm.user)
    page = client.get(gm_url(table)).content.decode()

    forms = [(AS_SEAT.search(form), form) for form in FORM.findall(page)]
    computers = [form for found, form in forms if found and found.group(1) == str(seat)]
    assert computers, "the GM's page has a decision of the computer's seat"
    for form in computers:
        for control in CONTROL.findall(form):
            if 'type="submit"' in control or (control.startswith("<button") and 'type="button"' not in control):
                assert " disabled" in control, control
    others = [form for found, form in forms if found and found.group(1) != str(seat)]
    for form in others:
        assert all(" disabled " not in control for control in re.findall(r"<button\b[^>]*>", form)), form
    reason = re.search(r'<p id="computer-lock"[^>]*>(.*?)</p>', page, re.S)
    assert reason and COMPUTER_SEAT in reason.group(1) and GUESTS[seat] in reason.group(1)


@pytest.mark.parametrize("game", GAMES)
def test_the_server_refuses_the_gms_decision_for_a_computer_seat(client, world, game):
    table, seat = computer_to_act(world, game)
    client.force_login(world.gm.user)
    response = client.post(gm_url(table, "tabletop:gm_act"), posted(table, seat_choices(table, seat)[0], as_seat=seat),
                           **HX)
    assert response.status_code == 400 and COMPUTER_SEAT in response.content.decode()
    assert Table.objects.get(pk=table.pk).version == table.version
    assert not TableAction.objects.filter(table=table).exists()


def test_the_computers_move_is_nobodys_and_the_gms_after_handing_back_is_the_gms(client, world):
    table = gridaris_table(world.campaign, GUESTS)
    table = play_next(table)  # the GM picks the map
    while 1 not in get_engine("gridaris").to_act(table.state):
        table = play_next(table)
    Seat.objects.filter(table=table, index=1).update(bot="quick")
    assert play_decided(table.pk, 1, table.version, seat_choices(table, 1)[0]) is True
    table.refresh_from_db()
    while 1 not in get_engine("gridaris").to_act(table.state):
        table = play_next(table)

    client.force_login(world.gm.user)
    assert client.post(gm_url(table, "tabletop:gm_seat_bot"), {"seat": 1, "bot": "", "version": table.version},
                       **HX).status_code == 200
    table.refresh_from_db()
    response = client.post(gm_url(table, "tabletop:gm_act"), posted(table, seat_choices(table, 1)[0], as_seat=1),
                           **HX)
    assert response.status_code == 200
    by_seat = [(entry["seat"], entry["by"]) for entry in table_log(Table.objects.get(pk=table.pk))["entries"]]
    assert ("1", None) in by_seat  # the computer's own move
    assert by_seat[-1] == ("1", "gm")  # the GM's decision for the seat, once a person's again
