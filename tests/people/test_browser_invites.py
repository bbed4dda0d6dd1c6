"""Browser tests: a newcomer opens an invite on a 360 px phone, signs up and lands on their
commander's page; the GM prints the sheet of invite cards and each card is whole on one page."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from armies.models import Commander
from people.models import Invite
from people.services.invites import invite_create, invites_for_sheet

from tests.a11y import phone_check
from tests.armies.factories import CommanderFactory
from tests.browser import TABLET, chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def test_a_newcomer_signs_up_through_an_invite_on_a_phone_and_lands_on_their_commander(live_server, world):
    vey = CommanderFactory(membership=world.gm, name="Lady Vey", kind=Commander.Kind.PC)
    invite = invite_create(campaign=world.campaign, created_by=world.gm.user, commander=vey)
    with chromium() as browser:
        page = browser.new_context(**PHONE_360).new_page()
        page.goto(f"{live_server.url}/join/{invite.token}/")
        assert page.locator("h1").inner_text() == f"Join {world.campaign.name}"
        assert phone_check(page, "the invite page") == []
        page.fill("input[name=username]", "cora")
        page.fill("input[name=display_name]", "Cora the Brave")
        page.fill("input[name=password1]", "lantern-quarry-91")
        page.fill("input[name=password2]", "lantern-quarry-91")
        page.click("button:has-text('Sign up and join')")
        page.wait_for_url(f"{live_server.url}/c/{world.campaign.slug}/armies/{vey.pk}/")
        assert "Lady Vey" in page.locator("h1").inner_text()
        assert "Welcome to" in page.content()
        # the same link again: already in, nothing used twice
        page.goto(f"{live_server.url}/join/{invite.token}/")
        page.wait_for_url(f"{live_server.url}/c/{world.campaign.slug}/armies/{vey.pk}/")
    vey.refresh_from_db()
    assert vey.membership.user.username == "cora" and vey.kind == "pc" and invite.uses.count() == 1


def test_the_printed_sheet_keeps_every_card_whole_on_one_page(live_server, world):
    for name in ("Lady Vey", "Sir Marr", "Old Tom"):
        CommanderFactory(membership=world.gm, name=name, kind=Commander.Kind.PC)
    invites_for_sheet(campaign=world.campaign, gm=world.gm.user, seats=10)
    # a token holding "ffi" and "fl" (and a hyphen, where a line breaks first): a font's ligatures would print
    # them as one glyph each, and a person types the link letter by letter
    Invite.objects.filter(pk=Invite.objects.order_by("pk").last().pk).update(token="affiflc-" + "x" * 24)
    invites = list(Invite.objects.all())
    assert len(invites) == 13
    with chromium() as browser:
        page = log_in(browser, live_server, "gm", TABLET)
        page.goto(f"{live_server.url}/c/{world.campaign.slug}/invites/sheet/")
        assert page.locator(".invite-card").count() == 13
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=True)
    pages = [re.sub(r"\s+", "", text.extract_text()) for text in PdfReader(io.BytesIO(pdf)).pages]
    assert len(pages) >= 3  # the sheet breaks across pages, so the test means something
    for invite in invites:
        # the card's first line (its number) and its last lines (the link, under the QR code) on one page
        number = re.compile(rf"invite{invite.pk}(?!\d)")  # invite 1, not invite 10
        top = [n for n, text in enumerate(pages) if number.search(text.replace("·", ""))]
        # the link's first line (a card's link wraps, and text extraction may interleave the lines of two
        # cards side by side): "join/" and the token's first characters
        link = [n for n, text in enumerate(pages) if f"join/{invite.token[:8]}" in text]
        assert len(top) == 1 and top == link, (invite.pk, top, link)
    assert all(world.campaign.name.replace(" ", "") in text for text in pages)
