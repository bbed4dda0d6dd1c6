"""Test helpers for the outbox's browser tests (static/js/outbox.js, live.js): a guest's 360 px phone and the
GM's tablet on the real server (tests/venue_server.py), a tap of Gridaris seat 0's move, the outbox's status
line and kept tap, and the moves the server applied. Shared by test_browser_outbox.py, test_browser_kept_taps.py
and test_browser_offline_phone.py, so no test module imports another (CONVENTIONS 16b); their fixtures (the
server, a fresh table, the browser) are in venue/conftest.py, beside them.
"""

from __future__ import annotations

import re

from tests.browser import PHONE, TABLET
from tests.venue_server import VENUE_HOST

ACT = re.compile(r"/play/[^/]+/act/$")
SOCKETS = re.compile(r"/ws/")


def phone(browser, server, table, seat: int, route=None, device: dict | None = None):
    """A guest's 360 px phone on the venue address, its push connected (unless ``route`` breaks it); ``device``
    changes the phone's settings (another viewport, a zoom's device scale)."""
    page = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 740}, **(device or {})}).new_page()
    if route is not None:
        page.route_web_socket(SOCKETS, route)
    page.goto(f"http://{VENUE_HOST}:{server.port}/play/{table['tokens'][seat]}/")
    if route is None:
        wait_for_socket(page)
    return page


def gm_tablet(browser, server, table, init_script: str = ""):
    """The GM's tablet on the table's page, its push connected (``init_script`` runs before each page's own)."""
    context = browser.new_context(**TABLET)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    local = server.log_in(page)
    page.goto(f"{local}/c/{table['slug']}/tables/{table['id']}/")
    wait_for_socket(page)
    return page


class BrokenSocket:
    """A page's push socket while the network is down (``broken``): each attempt closed abnormally, so the
    page reconnects later; once ``broken`` is False, let through to the server. Give it as ``route``."""

    def __init__(self):
        self.broken = True

    def __call__(self, ws) -> None:
        if self.broken:
            ws.close(code=1006, reason="network down")
        else:
            ws.connect_to_server()


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
