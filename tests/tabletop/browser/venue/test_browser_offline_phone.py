"""The offline phone, what issue 38 left open (static/js/live.js, outbox.js, sw.js; muster/presence.py).

- The tapping phone takes the push: the server applied the move and pushed it, the phone's own answer is
  slow; the region names the action that made its version (data-made-by), so the phone shows the pushed
  table and its tap as done at once, and the late answer changes nothing.
- A kept tap survives closing the tab: it is kept in this phone's localStorage for its seat link, so
  reopening the link sends it; and a reload while offline shows a page of ours, not the browser's error.
- The others are told a phone is not connected: the GM's tablet and the other seat say so while the seat
  whose turn it is has had no push socket for a few seconds, and stop saying it when it is back.

Against the real server (scripts/serve.py), as test_browser_outbox.py
(the shared helpers in _outbox.py; the server, a fresh table per test and the browser in this folder's conftest.py).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error, expect

from tests.browser import wait_for_version
from tests.tabletop.browser._outbox import ACT, applied, gm_tablet, phone, queued, status, tap_a_move, wait_for_socket

pytestmark = [pytest.mark.venue, pytest.mark.browser]


def test_the_tapping_phone_takes_the_push_before_its_own_slow_answer(server, table, browser):
    page = phone(browser, server, table, 0)
    held = []

    def slow_answer(route):
        held.append((route, route.fetch()))  # the server applies the move and pushes it; its answer waits

    page.route(ACT, slow_answer)
    tap_a_move(page)
    wait_for_version(page, 1)  # from the push, while the answer is still held
    assert len(held) == 1
    expect(status(page)).to_have_text("")  # not "Sending …": the tap is done
    expect(queued(page)).to_have_count(0)
    after_push = page.inner_html("#live [data-turn-text]")

    route, response = held.pop()
    try:
        route.fulfill(response=response)  # the late answer ...
    except Error:
        pass  # ... to a request the page already gave up as answered by the push
    page.wait_for_timeout(700)
    assert page.get_attribute("#live", "data-version") == "1"  # ... changes nothing
    assert page.inner_html("#live [data-turn-text]") == after_push
    assert page.locator("#live .msg.error").count() == 0
    expect(status(page)).to_have_text("")
    assert applied(server, table) == 1


def test_a_kept_tap_survives_closing_the_tab_and_goes_when_the_link_is_opened_again(server, table, browser):
    page = phone(browser, server, table, 0)
    page.route(ACT, lambda route: route.abort("connectionrefused"))  # the server unreachable for a moment
    tap_a_move(page)
    expect(status(page)).to_contain_text("not sent yet")
    context, link = page.context, page.url
    page.close()  # the player closes the tab
    assert applied(server, table) == 0

    again = context.new_page()  # and opens the seat's link again: a new tab of the same phone
    again.goto(link)
    wait_for_version(again, 1)  # the kept tap went by itself
    expect(status(again)).not_to_contain_text("not sent yet")
    again.wait_for_timeout(500)
    assert applied(server, table) == 1


def test_the_others_are_told_a_phone_is_not_connected_until_it_is_back(server, table, browser):
    tablet, other = gm_tablet(browser, server, table), phone(browser, server, table, 1)
    network = {"down": False, "sockets": []}

    def route(ws):  # a Wi-Fi drop: the socket closes at both ends and new ones are refused
        if network["down"]:
            ws.close(code=1006, reason="network down")
        else:
            network["sockets"].append((ws, ws.connect_to_server()))

    page = phone(browser, server, table, 0, route=route)  # seat 0's turn
    wait_for_socket(page)
    name = page.locator("#live .status strong").first.inner_text()
    said = f"{name}\u2019s phone is not connected."
    for screen in (tablet, other):
        expect(screen.locator("#live [data-away]")).to_have_text("")

    network["down"] = True
    page.context.set_offline(True)
    for ws, to_server in network["sockets"]:
        to_server.close()
        ws.close(code=1006, reason="network down")
    for screen in (tablet, other):  # a few seconds later, by the push
        expect(screen.locator("#live [data-away][role=status]")).to_have_text(said, timeout=15_000)
    assert page.locator("#live [data-away]").inner_text() == ""  # the phone itself is not told

    network["down"] = False
    page.context.set_offline(False)
    wait_for_socket(page)
    for screen in (tablet, other):
        expect(screen.locator("#live [data-away]")).to_have_text("", timeout=10_000)
