"""Browser test: the roster, ledger and treasury pages fit a 360 px phone (and a tablet) with no sideways scroll.

At 360 px the busy pages (long unbroken names, long ledgers) also keep 44 px tap targets and pass axe-core
(tests/a11y.py), the checks tests/test_browser_phone_pages.py makes on every page with ordinary data."""

from __future__ import annotations

import pytest
from django.utils import timezone

from armies.models import Battle, Commander, UnitUse
from armies.services.battles import battle_finish
from armies.services.recruiting import recruit_buy
from armies.services.settlement import day_settle
from campaign.models import LedgerEntry

from tests.a11y import phone_check
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.browser import chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
TABLET_1024 = {"viewport": {"width": 1024, "height": 768}}
A4_PRINTABLE_PX = int((210 - 2 * 12) / 25.4 * 96)  # A4 inside the sheet's 12 mm margins, in CSS px
LONG = "Evangelinequitaniamaximilianadelacroixfeatherstonehaugh"


def busy_campaign(world):
    """A commander with a long unbroken name, many units, a long ledger and a long history."""
    campaign = world.campaign
    vey = CommanderFactory(membership=world.ann, name=f"Lady {LONG} of the Northern Marches", balance=60)
    marr = CommanderFactory(membership=world.ben, name=f"Lord {LONG[::-1]}", balance=3)
    retired = CommanderFactory(membership=world.gm, name=f"Old {LONG}", kind=Commander.Kind.NPC, balance=1)
    Commander.objects.filter(pk=retired.pk).update(retired_day=1)
    offer = RecruitOfferFactory(
        campaign=campaign, card=UnitCardFactory(name=f"Halberdiers{LONG}", upkeep=2), price=2, quantity=12
    )
    units = [recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user) for _ in range(8)]
    golems = [ArmyUnitFactory(commander=marr, card=UnitCardFactory(name=f"Golem{LONG}", upkeep=6)) for _ in range(3)]
    battle = Battle.objects.create(campaign=campaign, attacker=vey, defender=marr, day=1)
    battle_finish(
        battle=battle,
        ended_at=timezone.now(),
        winner=vey,
        routed=marr,
        used_units=units + golems,
        killed_units=units[:2],
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            account=vey.account,
            amount=1,
            day=1,
            kind="adjustment",
            reason=f"Reward{LONG}{n} for holding the ford",
            cause_type="quest",
            cause_id=n,
        )
        for n in range(30)
    )
    day_settle(campaign=campaign, day=1)  # Lord ... cannot pay: golems desert
    for unit in units[2:]:
        UnitUse.objects.create(unit=unit, commander=vey, day=2)
    return vey


def fits(page, url: str) -> tuple[int, int]:
    page.goto(url)
    page.wait_for_selector("main")
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def test_the_roster_ledger_and_treasury_pages_fit_a_phone_and_a_tablet(live_server, transactional_db, world):
    vey = busy_campaign(world)
    slug = world.campaign.slug
    base = live_server.url
    player_pages = [f"{base}/c/{slug}/armies/", f"{base}/c/{slug}/armies/{vey.pk}/"]
    gm_pages = [f"{base}/c/{slug}/treasury/", f"{base}/c/{slug}/armies/{vey.pk}/", f"{base}/c/{slug}/armies/"]
    findings: list[str] = []
    with chromium() as browser:
        for device in (PHONE_360, TABLET_1024):
            for username, urls in (("ann", player_pages), ("gm", gm_pages)):
                page = log_in(browser, live_server, username, device)
                for url in urls:
                    width = device["viewport"]["width"]
                    scroll_width, inner_width = fits(page, url)
                    # a phone zooms out to show an overflowing page, which widens innerWidth: pin both
                    assert scroll_width <= inner_width == width, f"{username} at {width} px: {url} is {scroll_width}"
                    if device is PHONE_360:
                        findings += phone_check(page, f"{username} {url}")
                page.context.close()
        # the phone still shows the history and the ledger, not an empty shell
        page = log_in(browser, live_server, "ann", PHONE_360)
        page.goto(f"{base}/c/{slug}/armies/{vey.pk}/")
        assert page.locator("#history li").count() >= 10
        assert "killed in battle" in page.locator("#history").inner_text()
        page.context.close()
    assert not findings, "\n".join(findings)


# Every word of a cell that fits in its cell's width, read with the cell's own font: a cell narrower than one of
# its words breaks it mid-word ("Stren gth", "Soldie r"). ``skip`` is the column whose unbroken long names may
# wrap anywhere (a unit's name); each finding names the cell and the word.
WORDS_WIDER_THAN_CELLS = """([selector, skip]) => {
  const canvas = document.createElement('canvas').getContext('2d');
  const found = [];
  for (const row of document.querySelectorAll(selector)) {
    [...row.children].forEach((cell, column) => {
      if (column === skip || !cell.textContent.trim()) return;
      const style = getComputedStyle(cell);
      canvas.font = style.font;
      const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 0.5;
      for (const word of cell.textContent.split(/\\s+/).filter(Boolean)) {
        const width = canvas.measureText(word).width;
        if (width > room) found.push(`${cell.tagName} "${word}": ${width.toFixed(0)} px in ${room.toFixed(0)}`);
      }
      if (cell.scrollWidth > cell.clientWidth) found.push(`${cell.tagName} "${cell.textContent.trim()}" overflows`);
    });
  }
  return found;
}"""


def test_the_roster_table_breaks_no_word_at_360_px_and_its_print_page_neither(live_server, transactional_db, world):
    """Issue 35: at 360 px the roster's columns were narrower than their headers ("Stren gth") and its print
    page, laid out for paper, wrapped letter by letter on a phone; printed on A4 it keeps every word whole too."""
    vey = busy_campaign(world)
    base = f"{live_server.url}/c/{world.campaign.slug}/armies/{vey.pk}/"
    with chromium() as browser:
        page = log_in(browser, live_server, "ann", PHONE_360)
        page.goto(base)
        rows = "#roster table tr"
        assert page.locator("#roster table tbody tr").count() == 6
        assert page.evaluate(WORDS_WIDER_THAN_CELLS, [rows, 0]) == []
        assert page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]") == [360, 360]

        page.goto(base + "print/")
        rows = ".sheet-table tr"
        assert page.locator(".sheet-table tbody tr").count() == 6
        assert page.evaluate(WORDS_WIDER_THAN_CELLS, [rows, 1]) == []  # on the phone's screen
        assert page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]") == [360, 360]
        page.emulate_media(media="print")
        page.set_viewport_size({"width": A4_PRINTABLE_PX, "height": 900})
        assert page.evaluate(WORDS_WIDER_THAN_CELLS, [rows, 1]) == []  # on A4 paper
        page.context.close()
