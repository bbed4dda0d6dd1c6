"""A reload while offline shows a page of Muster's own, not the browser's error page (issue 38).

The seat page registers a service worker (static/js/offline_worker.js, served at /play/sw.js, scope /play/).
Once it controls the page, a reload with the phone offline shows the kept offline page at the seat's own
address, styled by the site's stylesheet from the worker's cache; back online it reloads by itself into
the seat page. The worker's cache holds the offline page and its two files only: no seat page, nothing
with a token.

Against the real server (scripts/serve.py, DEBUG off: hashed static names) on a phone at the venue
address 127.0.0.2, which Chromium counts as a secure context (127.0.0.0/8), as it does localhost.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.a11y import assert_accessible
from tests.browser import PHONE, chromium
from tests.venue_server import VENUE_HOST, VenueServer

pytestmark = [pytest.mark.venue, pytest.mark.browser]

OFFLINE_SENTENCE = (
    "A move you tapped is kept on this phone and goes when you are back. "
    "This page reloads by itself when the connection returns."
)
CONTROLLED_JS = "() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"
CACHED_JS = """async () => { const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
  }
  return urls; }"""
STYLED_JS = "() => [...document.styleSheets].some(sheet => sheet.cssRules.length > 0)"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("venue-offline")).start()
    yield venue
    venue.stop()


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def test_a_reload_offline_shows_our_page_and_the_seat_comes_back_by_itself(server, browser):
    seeded = server.seed("tables", "1")
    token = seeded["tables"][0]["tokens"][0]
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        seat = f"http://{VENUE_HOST}:{server.port}/play/{token}/"
        page.goto(seat)
        expect(page.locator("#live")).to_be_visible()
        page.wait_for_function(CONTROLLED_JS, timeout=20_000)

        context.set_offline(True)
        page.reload()
        expect(page.locator("h1")).to_have_text("You are offline")
        expect(page.locator("main p")).to_have_text(OFFLINE_SENTENCE)
        assert page.url == seat, "at the seat's own address, so coming back reloads the seat"
        assert page.evaluate(STYLED_JS), "the site's stylesheet, from the worker's cache"
        assert_accessible(page, "the offline page")

        cached = page.evaluate(CACHED_JS)
        assert "/play/offline/" in cached
        assert [url for url in cached if token in url or url == f"/play/{token}/"] == []
        assert len(cached) == 3, cached  # the page, its stylesheet and its script: nothing else

        context.set_offline(False)
        expect(page.locator("#live")).to_be_visible(timeout=20_000)  # by itself: nobody reloaded
        assert page.url == seat
    finally:
        context.close()
