"""A tap is never lost (issue 22): a move tapped while the phone's connection is down stays on the
phone (static/js/outbox.js) with its client action id and version, the page says "not sent yet" on
that button, and it is sent once when the connection returns (or on "Send now"). The server
applies it once, or refuses it as stale with the fresh table and its sentence.

Against the real server (scripts/serve.py: uvicorn, websockets) on a 360 px phone; Playwright's
``set_offline`` drops the connection. The database says what the server applied: one TableAction
per move, never two. The phone, the tablet and the counts are in _outbox.py, the server, the table
and the browser in this folder's conftest.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.a11y import phone_check
from tests.browser import wait_for_version
from tests.tabletop.browser._outbox import (
    ACT,
    BrokenSocket,
    applied,
    gm_tablet,
    phone,
    queued,
    status,
    tap_a_move,
    wait_for_socket,
)

pytestmark = [pytest.mark.venue, pytest.mark.browser]

STALE = "The table moved on while you were choosing. Here is the table as it is now."


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

    network = BrokenSocket()
    down = phone(browser, server, table, 1, route=network)
    wait_for_socket(down, "closed")
    expect(status(down)).to_contain_text("Reconnecting…")
    network.broken = False
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
