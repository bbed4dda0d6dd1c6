"""The GM's day-end progress bar follows the settlement by push (static/js/live.js, armies/live.py),
in Chromium against the real server (scripts/serve.py, as ``make run``).

Without Redis the settlement runs inside the request that ends the day, so the bar that follows it
is another page: the GM's armies page opened while a day end was queued (a stale one, written into
the server's database, which the GM's "End day" then sends again). Requests are counted, not timed.
"""

from __future__ import annotations

import sqlite3

import pytest

from tests.venue_server import GM_HOST, VenueServer

pytestmark = [pytest.mark.venue, pytest.mark.browser]

SLUG = "distelblute"
QUIET_MS = 2500  # a polling bar would have asked at least twice meanwhile


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("venue-day-end")).start()
    yield venue
    venue.stop()


def queue_stale_day_end(server) -> tuple[int, int]:
    """A day end of the current day left queued by a worker that died long ago; (its id, the day)."""
    campaign_id, day = server.query("SELECT id, current_day FROM campaign_campaign WHERE slug = ?", (SLUG,))[0]
    connection = sqlite3.connect(server.directory / "db.sqlite3", timeout=30)
    try:
        with connection:
            cursor = connection.execute(
                "INSERT INTO armies_dayend (campaign_id, day, status, total, done, error, created_at, heartbeat_at)"
                " VALUES (?, ?, 'queued', 0, 0, '', '2020-01-01 00:00:00', '2020-01-01 00:00:00')",
                (campaign_id, day),
            )
        return cursor.lastrowid, day
    finally:
        connection.close()


def test_the_progress_bar_follows_the_day_end_by_push_and_then_lets_go(server):
    from tests.browser import TABLET, chromium

    run_id, day = queue_stale_day_end(server)
    local = f"http://{GM_HOST}:{server.port}"
    with chromium() as browser:
        context = browser.new_context(**TABLET)
        bar_page = context.new_page()
        server.log_in(bar_page)
        frames = []
        bar_page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
        fetches = []
        bar_page.on("request", lambda request: fetches.append(request.url) if "/progress/" in request.url else None)
        bar_page.goto(f"{local}/c/{SLUG}/armies/")
        assert "Queued" in bar_page.inner_text("#day-end-progress")
        bar_page.wait_for_selector("[data-live][data-socket=open]", state="attached", timeout=20_000)
        assert bar_page.get_attribute("[data-live]", "ws-connect") == f"/ws/c/{SLUG}/day-end/{run_id}/"
        fetches.clear()  # a loaded machine may open the socket after the first 1 s poll: counted from here
        bar_page.wait_for_timeout(QUIET_MS)
        assert fetches == []  # connected: the bar does not poll

        other_tab = context.new_page()  # the GM ends the day again from another tab
        other_tab.goto(f"{local}/c/{SLUG}/day-end/?day={day}")
        other_tab.click("button:has-text('Yes, end day')")
        other_tab.wait_for_url(f"{local}/c/{SLUG}/armies/")

        bar_page.wait_for_selector("#day-end-progress:has-text('Done')", timeout=20_000)
        assert frames and '"key": "done-' in frames[-1]
        assert 1 <= len(fetches) <= len(frames) - 1  # a fetch per push at most (the first frame is the key then)
        # A finished bar neither fetches nor keeps its connection.
        bar_page.wait_for_selector("[data-live][data-socket=closed]", state="attached", timeout=20_000)
        fetches.clear()
        bar_page.wait_for_timeout(QUIET_MS)
        assert fetches == []
