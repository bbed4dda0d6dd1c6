"""A kept tap goes by itself, says what it is, and the page keeps the player's place (issue 38).

- A tap whose request failed while the page is online (a refused connection, the push socket open or
  closed) is sent again by itself, with backoff, and applied once; "Sending …" shows while a request
  is out, and "it goes when the connection is back" only while offline.
- The kept tap names its card ("Play Squeegee Scout on A1"); another pick meanwhile does not show
  another card as picked (static/js/outbox.js says why); a kept tap that went stale is refused with
  a sentence naming the move, on screen.
- Focus stays where it was after one's own move and after a push; a battlefield taken by Tab is not
  under the sticky hand strip; the turn line a push changed is said from outside the region it replaced.
- Offline, the page does not poll every second; back online, it reconnects once, not twice.

Against the real server (scripts/serve.py) on a 360 px phone, as test_browser_outbox.py
(the shared helpers in _outbox.py, the fixtures in this folder's conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import wait_for_version
from tests.tabletop.browser._outbox import ACT, applied, gm_tablet, phone, queued, status, tap_a_move

pytestmark = [pytest.mark.venue, pytest.mark.browser]

POLLS = re.compile(r"/poll/")
# The cell a move is played on and the card it plays, as the page shows them to the player.
FOCUSED_JS = """() => { const f = document.activeElement;
  return f ? {tag: f.tagName, value: f.value || "", label: f.getAttribute("aria-label") || "",
              inLive: Boolean(f.closest("#live"))} : null; }"""
# A card's name as shown (what a screen reader hears besides it is left out).
NAME_JS = """el => { const copy = el.cloneNode(true);
  copy.querySelectorAll(".visually-hidden").forEach(h => h.remove()); return copy.textContent.trim(); }"""
COVERED_JS = """el => { const r = el.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (y < 0 || y > innerHeight) return "off screen";
  const hit = document.elementFromPoint(x, y); return el.contains(hit) ? "" : hit.className || hit.tagName; }"""


class Network:
    """The moves' requests of a page, refused, held or let through as the test says."""

    def __init__(self, page, mode: str = "refuse"):
        self.mode, self.posts, self.held = mode, [], []
        page.route(ACT, self.handle)

    def handle(self, route) -> None:
        self.posts.append(route.request.url)
        if self.mode == "refuse":
            route.abort("connectionrefused")
        elif self.mode == "hold":
            self.held.append(route)
        else:
            route.continue_()


def move_label(page, cell: int = 0) -> str:
    """What the kept tap says it is: the first card of the hand played on the ``cell``-th playable battlefield."""
    card = page.locator(".hand-card").first.locator(".card-name").evaluate(NAME_JS)
    where = page.locator("button.cell.playable").nth(cell).get_attribute("aria-label").removeprefix("Play on ")
    return f"Play {card} on {where}"


def closed_socket(ws) -> None:
    ws.close(code=1006, reason="network down")


@pytest.mark.parametrize("socket", ["open", "closed"])
def test_a_refused_tap_is_sent_again_by_itself_and_applied_once(server, table, browser, socket):
    page = phone(browser, server, table, 0, route=closed_socket if socket == "closed" else None)
    network = Network(page, "refuse")
    if socket == "closed":  # the page has seen its socket close and fetched what it missed: the tap is not lost
        expect(status(page)).to_contain_text("Reconnecting")  # in a region swap under way
        page.wait_for_load_state("networkidle")
    tap_a_move(page)
    expect(status(page)).to_contain_text("not sent yet")
    expect(status(page)).not_to_contain_text("when the connection is back")  # it is online
    page.wait_for_timeout(1500)
    assert len(network.posts) >= 2, "sent again by itself while the server refuses"
    assert applied(server, table) == 0

    network.mode = "pass"
    wait_for_version(page, 1)  # by itself: nobody touched "Send now"
    expect(queued(page)).to_have_count(0)
    expect(status(page)).not_to_contain_text("not sent yet")
    page.wait_for_timeout(500)
    assert applied(server, table) == 1


def test_the_kept_tap_names_its_card_says_sending_and_keeps_its_pick(server, table, browser):
    page = phone(browser, server, table, 0)
    label = move_label(page)
    network = Network(page, "hold")
    tap_a_move(page)
    expect(status(page)).to_contain_text(f"Sending \u201c{label}\u201d")  # a request is out

    network.mode = "refuse"
    network.held.pop().abort("connectionrefused")
    expect(status(page)).to_contain_text(f"\u201c{label}\u201d is not sent yet")

    radios = page.locator(".hand-card input[type=radio]")
    radios.nth(1).click()
    expect(status(page)).to_contain_text(f"\u201c{label}\u201d is still waiting")
    assert radios.nth(0).is_checked() and not radios.nth(1).is_checked(), "the card that will go stays picked"

    strip = page.locator(".play-form > .hand").bounding_box()
    bar = page.locator("[data-outbox-bar]").bounding_box()
    assert bar["y"] >= strip["y"] + strip["height"] - 1, "the bar does not cover the hand strip"

    network.mode = "pass"
    wait_for_version(page, 1)
    page.wait_for_timeout(500)
    assert applied(server, table) == 1


def test_a_kept_tap_that_went_stale_is_refused_naming_the_move_on_screen(server, table, browser):
    tablet = gm_tablet(browser, server, table)
    page = phone(browser, server, table, 0)
    label = move_label(page)
    page.context.set_offline(True)
    tap_a_move(page)
    expect(status(page)).to_contain_text("when the connection is back")  # offline, and only then

    tap_a_move(tablet)  # meanwhile the GM plays seat 0's move on the tablet
    wait_for_version(tablet, 1)
    page.context.set_offline(False)
    wait_for_version(page, 1)
    expect(status(page)).to_contain_text(f"\u201c{label}\u201d was not played")
    assert page.locator("[data-outbox-status]").evaluate(COVERED_JS) == ""  # on screen, not covered
    assert applied(server, table) == 1


def test_focus_stays_after_ones_own_move_and_after_a_push(server, table, browser):
    page = phone(browser, server, table, 0)
    other = phone(browser, server, table, 1)
    other.locator("[data-turn-sound]").focus()  # seat 1 waits, its focus on the page's last button

    page.locator(".hand-card input[type=radio]").first.check()
    page.locator("button.cell.playable").first.focus()
    page.keyboard.press("Enter")
    wait_for_version(page, 1)
    focused = page.evaluate(FOCUSED_JS)
    # The battlefield played is no longer a button (nor any other, it is seat 1's turn): the next element on.
    assert focused["inLive"] and focused["tag"] != "BODY", f"focus went to {focused}"

    wait_for_version(other, 1)  # the move came by push
    assert other.evaluate("() => document.activeElement.matches('[data-turn-sound]')")
    # the new turn line is said from outside the region the push replaced (a live region new to the page is not)
    turn = other.locator("#live [data-turn-text]").inner_text()
    expect(other.locator("[data-live] > [data-turn-status][role=status]")).to_have_text(turn)
    assert other.locator("#live [aria-live]:has([data-turn-text])").count() == 0


def test_a_battlefield_taken_by_tab_is_not_under_the_hand_strip(server, table, browser):
    page = phone(browser, server, table, 0)
    cells = page.locator("button.cell.playable")
    cells.first.focus()
    covered = []
    for index in range(1, cells.count()):
        page.keyboard.press("Tab")
        cell = cells.nth(index)
        assert cell.evaluate("el => el === document.activeElement")
        hit = cell.evaluate(COVERED_JS)
        if hit:
            covered.append((cell.get_attribute("aria-label"), hit))
    assert covered == []


def test_offline_the_page_does_not_poll_every_second(server, table, browser):
    network = {"down": False, "sockets": []}

    def route(ws):  # a Wi-Fi drop closes the push socket and refuses new ones
        if network["down"]:
            ws.close(code=1006, reason="network down")
        else:
            ws.connect_to_server()
            network["sockets"].append(ws)

    page = phone(browser, server, table, 1, route=route)
    page.wait_for_selector("[data-live][data-socket=open]", state="attached")
    polls = []
    page.on("request", lambda request: polls.append(request.url) if POLLS.search(request.url) else None)
    page.context.set_offline(True)
    network["down"] = True
    for ws in network["sockets"]:
        ws.close(code=1006, reason="network down")
    page.wait_for_selector("[data-live][data-socket=closed]", state="attached")
    page.wait_for_timeout(3500)  # a page polling once a second would have asked three times
    assert len(polls) <= 1
    network["down"] = False
    network["sockets"].clear()
    page.context.set_offline(False)
    page.wait_for_selector("[data-live][data-socket=open]", state="attached", timeout=20_000)
    page.wait_for_timeout(5500)  # longer than the page's longest reconnect delay (live.js, 5 s)
    assert len(network["sockets"]) == 1, "back online, one reconnect: no second one replaces the fresh socket"
    assert page.get_attribute("[data-live]", "data-socket") == "open"
