"""A table's pages in Chromium against the real server (scripts/serve.py, as ``make run``: uvicorn,
websockets, the in-process channel layer): the push, the polling fallback, a phone waking, the
"your turn" cue (static/js/live.js).

Nothing here measures time: "no polling while the push is connected" is asserted as the requests
the page made (the poll URL answers a fetch too, so each push-caused fetch is counted exactly).
"""

from __future__ import annotations

import json

import pytest

from tests.browser import PHONE, chromium, wait_for_version
from tests.tabletop.browser._outbox import SOCKETS, BrokenSocket, gm_tablet, wait_for_socket
from tests.venue_server import VENUE_HOST

pytestmark = [pytest.mark.venue, pytest.mark.browser]

TITLE_PREFIX = "\u25cf Your turn \u00b7 "
# A window in which a polling page would have asked at least twice (it polls once a second).
QUIET_MS = 2500


@pytest.fixture
def browser():
    """A Chromium per test here (the folder's conftest.py gives one per module; the server and the table are its)."""
    with chromium() as launched:
        yield launched


class Requests:
    """The requests a page makes to one URL part (e.g. its poll endpoint)."""

    def __init__(self, page, part: str):
        self.part, self.urls = part, []
        page.on("request", lambda request: self.urls.append(request.url) if part in request.url else None)

    def clear(self) -> None:
        self.urls.clear()

    def __len__(self) -> int:
        return len(self.urls)


def seat_phone(browser, server, table, seat: int, init_script: str = "", route=None):
    """A guest's phone on the venue address; ``route`` may take over its websocket first."""
    context = browser.new_context(**PHONE)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    if route is not None:
        page.route_web_socket(SOCKETS, route)
    page.goto(f"http://{VENUE_HOST}:{server.port}/play/{table['tokens'][seat]}/")
    return page


def play_first_move(page) -> None:
    """Whoever is to act (seat 0) plays: the GM's tablet (hot-seat) or seat 0's phone."""
    page.locator(".hand-card input[type=radio]").first.check()
    page.locator("button.cell.playable").first.click()


def test_a_move_reaches_the_phone_by_push_with_no_polling(server, table, browser):
    phone = seat_phone(browser, server, table, 1)
    tablet = gm_tablet(browser, server, table)
    wait_for_socket(phone)
    wait_for_socket(tablet)
    phone_polls, tablet_polls = Requests(phone, "/poll/"), Requests(tablet, "/poll/")

    phone.wait_for_timeout(QUIET_MS)
    assert len(phone_polls) == 0 and len(tablet_polls) == 0  # connected: nobody polls

    play_first_move(tablet)
    wait_for_version(tablet, 1)
    wait_for_version(phone, 1)
    assert phone.locator(".cell.owner-0").count() == 1  # the GM's move, on the phone
    # The push brought the phone its region (issue 26): no fetch; the tablet's own answer had the move.
    tablet.wait_for_timeout(500)
    assert len(phone_polls) == 0 and len(tablet_polls) == 0


def test_a_seats_second_phone_updates_from_the_push_and_plays_from_the_pushed_region(server, table, browser):
    """Two phones of seat 1 share one render (issue 26): both update without fetching, and a move tapped
    on the region the push brought is accepted (each page puts its own CSRF token into it)."""
    phones = [seat_phone(browser, server, table, 1) for _ in range(2)]
    tablet = gm_tablet(browser, server, table)
    for page in (*phones, tablet):
        wait_for_socket(page)
    polls = [Requests(page, "/poll/") for page in (*phones, tablet)]
    tokens = [page.get_attribute("[data-live]", "data-csrf") for page in phones]
    assert tokens[0] and tokens[1]

    play_first_move(tablet)
    for page in phones:
        wait_for_version(page, 1)
        assert page.locator(".cell.owner-0").count() == 1
        assert "__muster" not in page.content()  # the placeholders were filled in
    csrf = phones[1].locator("#live input[name=csrfmiddlewaretoken]").first.get_attribute("value")
    assert csrf == tokens[1]  # this page's own token, not the other phone's

    # seat 1 plays from the pushed region: accepted only with this page's own CSRF token. Its own answer is not
    # awaited: when the push of its move comes first, the page drops its request and shows the push (issue 38)
    play_first_move(phones[1])
    for page in (phones[0], tablet, phones[1]):
        wait_for_version(page, 2)
        assert page.locator(".cell.owner-1").count() == 1
    phones[0].wait_for_timeout(500)
    assert [len(requests) for requests in polls] == [0, 0, 0]  # nobody fetched: every update was pushed


def test_without_the_push_the_page_polls_and_stops_once_it_reconnects(server, table, browser):
    network = BrokenSocket()
    phone = seat_phone(browser, server, table, 1, route=network)
    polls = Requests(phone, "/poll/")
    tablet = gm_tablet(browser, server, table)
    wait_for_socket(phone, "closed")
    phone.wait_for_timeout(QUIET_MS)
    assert len(polls) >= 2  # polling once a second while the push is down

    play_first_move(tablet)
    wait_for_version(phone, 1)  # caught up by polling
    assert phone.locator(".cell.owner-0").count() == 1

    network.broken = False  # the network is back: the extension's next attempt connects
    wait_for_socket(phone, "open")
    polls.clear()
    phone.wait_for_timeout(QUIET_MS)
    assert len(polls) == 0  # polling stopped


def test_a_phone_waking_from_sleep_fetches_at_once(server, table, browser):
    asleep = {"on": False}

    def route(ws):
        server_side = ws.connect_to_server()

        def forward(message):
            if not asleep["on"]:  # a sleeping phone misses the push
                ws.send(message)

        server_side.on_message(forward)

    phone = seat_phone(browser, server, table, 1, route=route)
    tablet = gm_tablet(browser, server, table)
    wait_for_socket(phone)
    polls = Requests(phone, "/poll/")
    asleep["on"] = True
    play_first_move(tablet)
    wait_for_version(tablet, 1)
    phone.wait_for_timeout(QUIET_MS)
    assert phone.get_attribute("#live", "data-version") == "0" and len(polls) == 0  # missed it, socket "open"

    with phone.expect_request(lambda request: "/poll/?v=0" in request.url):
        phone.evaluate(
            """() => {
                Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
                document.dispatchEvent(new Event("visibilitychange"));
            }"""
        )
    wait_for_version(phone, 1)
    assert len(polls) == 1


def test_a_closed_socket_reopens_when_the_phone_wakes(server, table, browser):
    attempts = []

    def route(ws):
        attempts.append(ws.url)
        if len(attempts) == 1:
            ws.close(code=1000)  # a normal close: the extension would not reconnect by itself
        else:
            ws.connect_to_server()

    phone = seat_phone(browser, server, table, 1, route=route)
    wait_for_socket(phone, "closed")
    phone.wait_for_timeout(QUIET_MS)
    assert len(attempts) == 1
    phone.evaluate("() => window.dispatchEvent(new Event('online'))")
    wait_for_socket(phone, "open")
    assert len(attempts) == 2


VIBRATE_RECORDER = """
window.__vibrations = [];
Object.defineProperty(navigator, "vibrate", {
  value: (pattern) => { window.__vibrations.push(pattern); return true; }, configurable: true,
});
"""


def test_your_turn_cue_on_the_seat_phone_only(server, table, browser):
    waiting = seat_phone(browser, server, table, 1, init_script=VIBRATE_RECORDER)
    acting = seat_phone(browser, server, table, 0, init_script=VIBRATE_RECORDER)
    tablet = gm_tablet(browser, server, table, init_script=VIBRATE_RECORDER)
    for page in (waiting, acting, tablet):
        wait_for_socket(page)
    plain = waiting.title()
    assert not plain.startswith(TITLE_PREFIX)
    assert acting.get_attribute("#live", "data-my-turn") == "1"
    assert not acting.title().startswith(TITLE_PREFIX)  # not on the first load
    assert tablet.get_attribute("#live", "data-my-turn") is None  # the GM's page has no cue
    assert tablet.locator("[data-turn-sound]").count() == 0

    button = waiting.locator("[data-turn-sound]")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert waiting.evaluate("() => localStorage.getItem('muster.turnSound')") == "1"

    play_first_move(acting)
    wait_for_version(waiting, 1)
    wait_for_version(tablet, 1)
    waiting.wait_for_function(f"document.title === {json.dumps(TITLE_PREFIX + plain)}")
    assert waiting.evaluate("() => window.__vibrations.length") == 1
    assert acting.evaluate("() => window.__vibrations.length") == 0
    assert not acting.title().startswith(TITLE_PREFIX)
    assert tablet.evaluate("() => window.__vibrations.length") == 0
    assert not tablet.title().startswith(TITLE_PREFIX)

    play_first_move(waiting)  # seat 1 plays: no longer its turn, the plain title is back
    wait_for_version(waiting, 2)
    waiting.wait_for_function(f"document.title === {json.dumps(plain)}")
    wait_for_version(acting, 2)
    acting.wait_for_function(f"document.title === {json.dumps(TITLE_PREFIX + plain)}")
    assert acting.evaluate("() => window.__vibrations.length") == 1

    waiting.reload()  # the sound choice is remembered on this phone
    assert waiting.locator("[data-turn-sound]").get_attribute("aria-pressed") == "true"
