"""Browser test: the printed invite sheet sets its cards two to a line, as the seat sheet does (issue 35):
six invites printed by Chromium on A4 and on Letter fill two pages at most (one card a line took three)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from people.services.invites import invites_for_sheet

from tests.browser import TABLET, chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_six_invites_print_on_two_pages_at_most_on_a4_and_letter(live_server, world):
    invites_for_sheet(campaign=world.campaign, gm=world.gm.user, seats=6)
    with chromium() as browser:
        page = log_in(browser, live_server, "gm", TABLET)
        page.goto(f"{live_server.url}/c/{world.campaign.slug}/invites/sheet/")
        assert page.locator(".invite-card").count() == 6
        page.emulate_media(media="print")
        pdfs = {size: page.pdf(format=size, print_background=True) for size in ("A4", "Letter")}
        tops = page.eval_on_selector_all(".invite-card", "cards => cards.map(c => c.getBoundingClientRect().top)")
    assert len(set(tops)) == 3  # three lines of two cards under print media
    for size, pdf in pdfs.items():
        assert len(PdfReader(io.BytesIO(pdf)).pages) <= 2, size
