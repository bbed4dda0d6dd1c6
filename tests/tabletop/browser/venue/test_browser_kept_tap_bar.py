"""A kept tap's bar at 200 % zoom and in every game, and a tap whose request got no answer (issue 38; outbox.js).

- At 200 % zoom on a 360 px phone (a 180x370 CSS px viewport) the "not sent yet" bar of a kept tap, offline or
  refused, takes at most about a third of the screen, and still names the move (also in the sentence that
  refuses another card meanwhile) and offers "Send now" and "Don't send" on screen, uncovered.
- A tap whose request gets no answer at all (the network holds it; not refused) says "Sending" meanwhile; once
  the page gives up on it (outbox.js's timeout, 20 s) it is kept and sent again by itself, with the push socket
  open or closed, and applied once; the page shows the move.
- The bar names a kept move in every game as on Gridaris: GOT'M's hire by the move and the cards picked for it
  ("Hire the Ogre Warrior (J♥), worth 11, with 5♥, 9♥": the shop card's data-move-label, not its whole label),
  Mercenarium's "Learn a hymn, with …", which then goes by itself once the network heals.

Against the real server (scripts/serve.py) as test_browser_kept_taps.py (the shared helpers in _outbox.py, the
fixtures in this folder's conftest.py).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import wait_for_version
from tests.tabletop.browser._outbox import ACT, BrokenSocket, applied, phone, queued, status, tap_a_move

pytestmark = [pytest.mark.venue, pytest.mark.browser]

# 200 % zoom of a 360x740 phone: the layout viewport is half as wide and high, drawn at twice the pixels
ZOOMED = {"width": 180, "height": 370}
# How long the page waits for a move's answer before it keeps the tap (outbox.js's TIMEOUT_MS), and a margin
# for its first resend (a second after) and the answer.
NO_ANSWER_MS = 20_000
RESENT_MS = NO_ANSWER_MS + 15_000
# The bar may take this share of the screen's height (the board and the hand need the rest).
BAR_SHARE = 0.35

# Where some words (the move's name) are drawn: the rectangles of their characters in the status line (the bar
# may clip or scroll the rest), each within the screen and within the part of the status line that shows.
NAME_SHOWN_JS = """
(label) => {
  const status = document.querySelector('[data-outbox-status]');
  const walker = document.createTreeWalker(status, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(label);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + label.length);
    const shown = status.getBoundingClientRect();
    const visible = (r) => r.top >= Math.max(0, shown.top) - 0.5
      && r.bottom <= Math.min(innerHeight, shown.bottom) + 0.5
      && r.left >= Math.max(0, shown.left) - 0.5 && r.right <= Math.min(innerWidth, shown.right) + 0.5;
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    return rects.length > 0 && rects.every(visible) ? "" : JSON.stringify({rects, shown});
  }
  return "not in the status line: " + status.textContent;
}
"""
# A control is reachable where it is drawn on screen and a tap at its middle reaches it (nothing lies over it).
REACHABLE_JS = """
(el) => { const r = el.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.width === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return "off screen";
  const hit = document.elementFromPoint(x, y);
  return el.contains(hit) ? "" : "under " + (hit.className || hit.tagName); }
"""


def zoomed_phone(browser, server, table, seat: int):
    return phone(browser, server, table, seat, device={"viewport": ZOOMED, "device_scale_factor": 2})


@pytest.mark.parametrize("network", ["offline", "refused"])
def test_the_bar_of_a_kept_tap_at_200_percent_zoom_leaves_the_screen_to_the_table(server, table, browser, network):
    page = zoomed_phone(browser, server, table, 0)
    if network == "offline":
        page.context.set_offline(True)
    else:
        page.route(ACT, lambda route: route.abort("connectionrefused"))
    tap_a_move(page)
    expect(status(page)).to_contain_text("not sent yet")
    label = re.search("\u201c(.+?)\u201d is not sent yet", status(page).text_content()).group(1)

    bar = page.locator("[data-outbox-bar]").bounding_box()
    assert bar["height"] <= BAR_SHARE * ZOOMED["height"], f"the bar covers {bar['height']:.0f} of {ZOOMED['height']} px"
    assert label.startswith("Play ") and page.evaluate(NAME_SHOWN_JS, label) == "", "the move's name shows"
    assert status(page).evaluate("el => el.scrollHeight <= el.clientHeight || el.tabIndex === 0"), (
        "a status line that scrolls is reachable by keyboard"
    )
    send, drop = page.get_by_role("button", name="Send now"), page.get_by_role("button", name="Don't send")
    assert send.evaluate(REACHABLE_JS) == "" and drop.evaluate(REACHABLE_JS) == ""

    page.locator(".hand-card input[type=radio]").nth(1).click()  # another card meanwhile: refused, saying why
    refusal = f"\u201c{label}\u201d is still waiting"
    expect(status(page)).to_contain_text(refusal)
    assert page.evaluate(NAME_SHOWN_JS, refusal) == "", "the refusal shows, naming the move"
    bar = page.locator("[data-outbox-bar]").bounding_box()
    assert bar["height"] <= BAR_SHARE * ZOOMED["height"], f"the bar covers {bar['height']:.0f} of {ZOOMED['height']} px"

    drop.click()  # a tap there reaches it
    expect(status(page)).to_contain_text(f"\u201c{label}\u201d was not sent.")
    assert applied(server, table) == 0


@pytest.mark.parametrize("socket", ["open", "closed"])
def test_a_tap_with_no_answer_is_sent_again_by_itself_and_applied_once(server, table, browser, socket):
    network = BrokenSocket() if socket == "closed" else None
    page = phone(browser, server, table, 0, route=network)
    posts, held = [], []

    def no_answer_the_first_time(route):
        posts.append(route.request.url)
        if len(posts) == 1:
            held.append(route)  # never answered: the request hangs until the page gives up on it
        else:
            route.continue_()

    if socket == "closed":  # the page has seen its socket close and fetched what it missed
        expect(status(page)).to_contain_text("Reconnecting")
        page.wait_for_load_state("networkidle")
    page.route(ACT, no_answer_the_first_time)
    tap_a_move(page)
    expect(status(page)).to_contain_text("Sending \u201cPlay ")  # the request is out
    card, where = re.search("Sending \u201cPlay (.+) on (\\S+)\u201d", status(page).text_content()).groups()
    page.wait_for_timeout(NO_ANSWER_MS - 5_000)
    assert len(posts) == 1 and applied(server, table) == 0, "still waiting for the first answer"

    # the page gives up on it, keeps it and sends it again by itself: nobody touches "Send now"
    page.wait_for_selector('#live[data-version="1"]', timeout=RESENT_MS)
    expect(queued(page)).to_have_count(0)
    expect(status(page)).not_to_contain_text("not sent yet")
    expect(status(page)).not_to_contain_text("Sending")
    assert page.locator("#live .msg.error").count() == 0
    page.wait_for_timeout(1_000)
    assert len(posts) == 2 and applied(server, table) == 1
    played = page.locator("#live .cell.last-played")  # the page shows the move: the card on its battlefield
    expect(played).to_contain_text(card)
    expect(played.locator(".cell-label")).to_have_text(where)


def test_the_bar_names_a_kept_hire_on_gotm(server, browser):
    table = server.seed("game", "gotm")
    page = phone(browser, server, table, table["first"])
    page.route(ACT, lambda route: route.abort("connectionrefused"))
    for card in ("5H", "9H"):
        page.locator("label.cardpick-card", has=page.locator(f"input[value='{card}']")).click()
    page.get_by_role("button", name="Hire the Ogre Warrior").click()
    expect(status(page)).to_contain_text(
        "\u201cHire the Ogre Warrior (J\u2665), worth 11, with 5\u2665, 9\u2665\u201d is not sent yet"
    )


def test_the_bar_names_a_kept_hymn_learnt_on_mercenarium(server, browser):
    table = server.seed("game", "mercenarium")
    page = phone(browser, server, table, table["first"])
    page.route(ACT, lambda route: route.abort("connectionrefused"))
    offered = page.locator("#merc-learn label.cardpick-card:has(input:not([value^=H]))").first  # not a hymn
    short = offered.locator("input").get_attribute("data-short")
    offered.click()
    page.locator("#merc-learn button.merc-learn-go").click()
    expect(status(page)).to_contain_text(f"\u201cLearn a hymn, with {short}\u201d is not sent yet")

    page.unroute(ACT)  # the network heals: it goes by itself, once
    wait_for_version(page, 1)
    page.wait_for_timeout(500)
    assert applied(server, table) == 1
