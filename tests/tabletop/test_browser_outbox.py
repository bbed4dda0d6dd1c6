"""A tap is never lost (issue 22): a move tapped while the phone's connection is down stays on the
phone (static/js/outbox.js) with its client action id and version, the page says "not sent yet" on
that button, and it is sent once when the connection returns (or on "Send now"). The server
applies it once, or refuses it as stale with the fresh table and its sentence.

Against the real server (scripts/serve.py: uvicorn, websockets) on a 360 px phone; Playwright's
``set_offline`` drops the connection. The database says what the server applied: one TableAction
per move, never two.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.a11y import phone_check
from tests.browser import PHONE, TABLET, chromium, wait_for_version
from tests.venue_server import GM_HOST, VENUE_HOST, VenueServer

pytestmark = [pytest.mark.venue, pytest.mark.browser]

STALE = "The table moved on while you were choosing. Here is the table as it is now."
ACT = re.compile(r"/play/[^/]+/act/$")
SOCKETS = re.compile(r"/ws/")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("venue-outbox")).start()
    yield venue
    venue.stop()


@pytest.fixture
def table(server):
    """A fresh guest Gridaris table of the demo campaign (seat 0 acts first); each test its own."""
    seeded = server.seed("tables", "1")
    return {**seeded["tables"][0], "slug": seeded["slug"]}


@pytest.fixture
def browser():
    with chromium() as launched:
        yield launched


def phone(browser, server, table, seat: int, route=None):
    """A guest's 360 px phone on the venue address, its push connected (unless ``route`` breaks it)."""

    page = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 740}}).new_page()
    if route is not None:
        page.route_web_socket(SOCKETS, route)
    page.goto(f"http://{VENUE_HOST}:{server.port}/play/{table['tokens'][seat]}/")
    if route is None:
        wait_for_socket(page)
    return page


def gm_tablet(browser, server, table):
    local = f"http://{GM_HOST}:{server.port}"
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{local}/accounts/login/")
    page.fill("input[name=username]", "gm")
    page.fill("input[name=password]", server.password("gm"))
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"{local}/")
    page.goto(f"{local}/c/{table['slug']}/tables/{table['id']}/")
    wait_for_socket(page)
    return page


def wait_for_socket(page, state: str = "open") -> None:
    page.wait_for_selector(f"[data-live][data-socket={state}]", state="attached", timeout=20_000)


def tap_a_move(page, cell: int = 0) -> None:
    """Seat 0's move on Gridaris: pick the first card, tap a highlighted battlefield."""
    page.locator(".hand-card input[type=radio]").first.check()
    page.locator("button.cell.playable").nth(cell).click()


def applied(server, table) -> int:
    return server.query("SELECT COUNT(*) FROM tabletop_tableaction WHERE table_id = ?", (table["id"],))[0][0]


def status(page):
    return page.locator("[data-outbox-status]")


def queued(page):
    return page.locator("#live [data-outbox=queued]")


def test_a_tap_during_a_dropout_is_kept_and_sent_once_on_reconnect(server, table, browser):


    page = phone(browser, server, table, 0)
    page.context.set_offline(True)
    tap_a_move(page)

    expect(status(page)).to_contain_text("not sent yet")
    expect(queued(page)).to_have_count(1)  # the tapped battlefield says so
    expect(page.get_by_role("button", name="Send now")).to_be_visible()
    assert phone_check(page, "a 360 px phone with a move not sent yet") == []
    page.wait_for_timeout(500)
    assert page.get_attribute("#live", "data-version") == "0"  # nothing pretends the move was made
    assert applied(server, table) == 0

    posts = []
    page.on("request", lambda request: posts.append(request.url) if ACT.search(request.url) else None)
    page.context.set_offline(False)
    wait_for_version(page, 1)
    expect(queued(page)).to_have_count(0)
    expect(status(page)).not_to_contain_text("not sent yet")
    assert page.locator("#live .msg.error").count() == 0
    assert len(posts) == 1 and applied(server, table) == 1

    page.reload()  # the outbox is empty: a reload sends nothing again
    wait_for_socket(page)
    page.wait_for_timeout(1000)
    assert applied(server, table) == 1
    expect(status(page)).not_to_contain_text("not sent yet")


def test_a_queued_tap_that_went_stale_is_refused_with_the_fresh_table(server, table, browser):


    tablet = gm_tablet(browser, server, table)
    page = phone(browser, server, table, 0)
    page.context.set_offline(True)
    tap_a_move(page)
    expect(status(page)).to_contain_text("not sent yet")

    tap_a_move(tablet)  # meanwhile the GM plays seat 0's move on the tablet
    wait_for_version(tablet, 1)

    page.context.set_offline(False)
    expect(page.locator("#live .msg.error")).to_have_text(STALE)
    wait_for_version(page, 1)  # the fresh table, with the sentence
    expect(queued(page)).to_have_count(0)
    expect(status(page)).not_to_contain_text("not sent yet")
    page.wait_for_timeout(1000)
    expect(page.locator("#live .msg.error")).to_have_text(STALE)  # no later fetch swept it away
    assert applied(server, table) == 1


def test_two_taps_queued_while_offline_are_not_both_applied(server, table, browser):


    page = phone(browser, server, table, 0)
    page.context.set_offline(True)
    tap_a_move(page, 0)
    expect(status(page)).to_contain_text("not sent yet")
    tap_a_move(page, 1)  # a second move at the same version: the first one goes first
    expect(status(page)).to_contain_text("still waiting")
    expect(queued(page)).to_have_count(1)

    page.context.set_offline(False)
    wait_for_version(page, 1)
    expect(queued(page)).to_have_count(0)
    page.wait_for_timeout(1000)
    assert page.get_attribute("#live", "data-version") == "1"
    assert applied(server, table) == 1


def test_the_same_seat_on_two_phones_both_queued_is_applied_once(server, table, browser):
    """The outbox keeps one move per page; the server keeps one move per version, whatever pages ask."""


    first, second = phone(browser, server, table, 0), phone(browser, server, table, 0)
    for page, cell in ((first, 0), (second, 1)):
        page.context.set_offline(True)
        tap_a_move(page, cell)
        expect(status(page)).to_contain_text("not sent yet")

    first.context.set_offline(False)
    wait_for_version(first, 1)
    second.context.set_offline(False)
    expect(second.locator("#live .msg.error")).to_have_text(STALE)
    wait_for_version(second, 1)
    assert applied(server, table) == 1


def test_a_move_whose_answer_was_lost_is_known_by_the_push_and_applied_once(server, table, browser):
    """The request reached the server but its answer never came back (the Wi-Fi dropped meanwhile): the
    push brought the table the move made, which names the move (data-made-by), so the phone knows it is in
    and sends nothing again (were it sent again, its client action id would make the server answer with
    the table as it is)."""


    page = phone(browser, server, table, 0)
    posts = []

    def lose_the_answer(route):
        posts.append(route.request.url)
        if len(posts) == 1:
            route.fetch()  # the server applies it ...
            route.abort("internetdisconnected")  # ... and the phone never hears back
        else:
            route.continue_()

    page.route(ACT, lose_the_answer)
    tap_a_move(page)
    wait_for_version(page, 1)
    expect(queued(page)).to_have_count(0)
    expect(status(page)).not_to_contain_text("not sent yet")
    assert page.locator("#live .msg.error").count() == 0
    # not sent again: the push that brought the move names it as made (data-made-by, issue 38)
    assert len(posts) == 1
    assert applied(server, table) == 1


def test_send_now_sends_a_kept_move_at_once(server, table, browser):


    page = phone(browser, server, table, 0)
    page.route(ACT, lambda route: route.abort("connectionrefused"))  # the server unreachable for a moment
    tap_a_move(page)
    expect(status(page)).to_contain_text("not sent yet")
    expect(queued(page)).to_have_count(1)
    page.wait_for_timeout(500)
    assert applied(server, table) == 0

    page.unroute(ACT)
    page.get_by_role("button", name="Send now").click()
    wait_for_version(page, 1)
    expect(queued(page)).to_have_count(0)
    assert applied(server, table) == 1


def test_reconnecting_shows_while_offline_or_while_the_push_is_down(server, table, browser):
    page = phone(browser, server, table, 1)
    expect(status(page)).not_to_contain_text("Reconnecting")
    page.context.set_offline(True)
    expect(status(page)).to_contain_text("Reconnecting…")
    page.context.set_offline(False)
    expect(status(page)).not_to_contain_text("Reconnecting")

    broken = {"on": True}

    def route(ws):
        if broken["on"]:
            ws.close(code=1006, reason="network down")  # an abnormal close: the page reconnects later
        else:
            ws.connect_to_server()

    down = phone(browser, server, table, 1, route=route)
    wait_for_socket(down, "closed")
    expect(status(down)).to_contain_text("Reconnecting…")
    broken["on"] = False
    wait_for_socket(down, "open")
    expect(status(down)).not_to_contain_text("Reconnecting")


def test_a_kept_move_survives_a_reload_and_is_sent_by_it(server, table, browser):


    page = phone(browser, server, table, 0)
    page.route(ACT, lambda route: route.abort("connectionrefused"))
    tap_a_move(page)
    expect(status(page)).to_contain_text("not sent yet")
    page.unroute(ACT)

    page.reload()  # the move is kept in the tab (sessionStorage) and sent once the page is back
    wait_for_version(page, 1)
    expect(status(page)).not_to_contain_text("not sent yet")
    page.wait_for_timeout(1000)
    assert applied(server, table) == 1
