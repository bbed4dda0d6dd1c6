"""Browser tests: the pages to print (issue 24), printed to PDF by Chromium on A4 and on Letter.

A player prints her commander's roster sheet (20 units, long names among them) from her commander's page:
one page on each size. The GM prints the roster book from the armies page: exactly one page per commander
in service, each name and each unit on its own commander's page. The GM prints a table's seat sheet from
the table page: one page holding every seat's card. "Nothing runs off the page" is checked twice: pypdf
reads each expected text back from the page it belongs on, and, with print media emulated at the
printable width of the paper, no table or element inside the sheet is wider than the sheet, nor the
sheet wider than the paper (a test also proves this check catches a table that does run off).
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from armies.models import Commander

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.browser import TABLET, chromium, log_in
from tests.factories import gridaris_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The paper's printable width in CSS px (96 a inch), inside the sheet's @page margin of 12 mm.
MARGIN_MM = 12
PAPER_MM = {"A4": 210, "Letter": 215.9}
PRINTABLE_PX = {size: int((mm - 2 * MARGIN_MM) / 25.4 * 96) for size, mm in PAPER_MM.items()}
SIZES = ("A4", "Letter")

LONG_WORD = "Evangelinequitaniamaximilianadelacroixfeatherstonehaugh"
UNIT_NAMES = [
    f"Halberdiers{LONG_WORD}",  # one unbroken word, longer than its column
    "Knights of the Long and Winding Road to the Sunken Citadel of Vey Below",
    *(f"Company {n} of the {'Northern' if n % 2 else 'Southern'} Marches" for n in range(18)),
]
ROLES = ("aggressor", "guardian", "healer", "savant", "equipment", "ritual")
PATHS = ("steel", "magic", "faith", "nature", "mind")

# Under print media at the paper's width: what is wider than its sheet, or the sheet than the paper.
OVERFLOWS = """() => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) found.push(`the page: ${root.scrollWidth} > ${root.clientWidth}`);
  for (const sheet of document.querySelectorAll(".print-sheet")) {
    const edge = sheet.getBoundingClientRect().right + 0.5;
    if (edge > root.clientWidth + 0.5) found.push(`${sheet.id}: ends at ${edge}, the paper at ${root.clientWidth}`);
    for (const box of [sheet, ...sheet.querySelectorAll("table")]) {
      if (box.scrollWidth > box.clientWidth) {
        found.push(`${sheet.id} ${box.tagName}: scrollWidth ${box.scrollWidth} > clientWidth ${box.clientWidth}`);
      }
    }
    for (const element of sheet.querySelectorAll("*")) {
      const right = element.getBoundingClientRect().right;
      const text = element.textContent.slice(0, 30);
      if (right > edge) found.push(`${sheet.id} ${element.tagName} "${text}" ends at ${right}`);
    }
  }
  return found;
}"""


# The sheet's print rules undone: the table sizes itself to its content, a long word does not wrap.
BROKEN = ".print-sheet .sheet-table { table-layout: auto } .print-sheet .sheet-table td { overflow-wrap: normal }"


def unit_cards():
    return [
        UnitCardFactory(
            name=name, role=ROLES[n % 6], path=PATHS[n % 5], strength=None if n % 6 == 5 else 2 + n % 4, upkeep=n % 3
        )
        for n, name in enumerate(UNIT_NAMES)
    ]


def flat(text: str) -> str:
    """A PDF page's text without whitespace: a name wrapped over two lines still reads as one."""
    return re.sub(r"\s+", "", text)


def printed(page, size: str) -> list[str]:
    """The page printed on ``size`` paper, each PDF page's text; first the sheet is checked at the printable
    width under print media."""
    page.emulate_media(media="print")
    page.set_viewport_size({"width": PRINTABLE_PX[size], "height": 900})
    assert page.evaluate(OVERFLOWS) == [], size
    pdf = page.pdf(format=size)
    page.emulate_media(media="screen")
    return [flat(text.extract_text()) for text in PdfReader(io.BytesIO(pdf)).pages]


@pytest.fixture
def vey(world):
    """Ann's commander with a realistic roster: 20 units, some trained, two with long names."""
    vey = CommanderFactory(membership=world.ann, name="Lady Vey of the Northern Marches", balance=48)
    for n, card in enumerate(unit_cards()):
        ArmyUnitFactory(commander=vey, card=card, joined_day=1 + n % 3, trained_on=3 if n % 4 == 0 else None)
    world.campaign.current_day = 7
    world.campaign.save()
    return vey


def test_a_player_prints_her_roster_sheet_on_one_page_of_a4_and_of_letter(live_server, world, vey):
    with chromium() as browser:
        page = log_in(browser, live_server, "ann", TABLET)
        page.goto(f"{live_server.url}/c/{world.campaign.slug}/armies/{vey.pk}/")
        page.click("#print-roster")
        page.wait_for_selector(".roster-sheet")
        assert page.locator(".sheet-table tbody tr").count() == 20
        for size in SIZES:
            pages = printed(page, size)
            assert len(pages) == 1, (size, len(pages))
            for text in (vey.name, *UNIT_NAMES, "day7", "48coins", world.campaign.name):
                assert flat(text) in pages[0], (size, text)
            # no top bar (the brand, the log-out button), no back link, no Print button
            assert not any(word in pages[0] for word in ("Muster", "Logout", "Armies", "Print"))


def test_the_fit_check_catches_a_table_that_runs_off_the_paper(live_server, world, vey):
    """The check above can fail: without the sheet's fixed layout and wrapping the long unbroken name
    widens its table past the paper."""
    with chromium() as browser:
        page = log_in(browser, live_server, "ann", {**TABLET, "bypass_csp": True})  # lets the test add a style
        page.goto(f"{live_server.url}/c/{world.campaign.slug}/armies/{vey.pk}/print/")
        page.add_style_tag(content=BROKEN)
        page.emulate_media(media="print")
        page.set_viewport_size({"width": PRINTABLE_PX["A4"], "height": 900})
        found = page.evaluate(OVERFLOWS)
        assert found[0].startswith("the page: "), found
        assert any(line.startswith(f"sheet-{vey.pk} TABLE") for line in found), found


def test_the_gm_prints_the_roster_book_one_page_per_commander_in_service(live_server, world, vey):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=3)
    for card in unit_cards()[2:7]:
        ArmyUnitFactory(commander=marr, card=card)
    king = CommanderFactory(membership=world.gm, name="The Bandit King", kind=Commander.Kind.NPC)
    retired = CommanderFactory(membership=world.gm, name="Old Tom the Retired", kind=Commander.Kind.NPC)
    Commander.objects.filter(pk=retired.pk).update(retired_day=2)
    expected = [  # by name, each with its units
        (vey.name, UNIT_NAMES),
        (marr.name, UNIT_NAMES[2:7]),
        (king.name, ["Nounits."]),
    ]
    with chromium() as browser:
        page = log_in(browser, live_server, "gm", TABLET)
        page.goto(f"{live_server.url}/c/{world.campaign.slug}/armies/")
        page.click("#print-book")
        page.wait_for_selector(".roster-sheet")
        assert page.locator(".roster-sheet").count() == 3
        for size in SIZES:
            pages = printed(page, size)
            assert len(pages) == len(expected), (size, len(pages))
            for number, (name, units) in enumerate(expected):
                assert [n for n, text in enumerate(pages) if flat(name) in text] == [number], (size, name)
                for unit in units:
                    assert flat(unit) in pages[number], (size, name, unit)
            assert not any("OldTom" in text for text in pages)
            # Marr's page holds only his five units, not Vey's others
            assert flat(UNIT_NAMES[10]) not in pages[1]


def test_the_gm_prints_a_tables_seat_sheet_on_one_page(live_server, world):
    table = gridaris_table(world.campaign, [world.ann, world.ben, "Cora", "Dov", "Eli"], title="Five at the inn")
    # a token holding "ffi" and "fl": a font's ligatures would print them as one glyph each (and a reader
    # could not tell the letters apart), and a link must read letter by letter
    table.seats.filter(index=0).update(token="affiflc" + "x" * 25)
    tokens = [seat.token for seat in table.seats.order_by("index")]
    with chromium() as browser:
        page = log_in(browser, live_server, "gm", TABLET)
        page.goto(f"{live_server.url}/c/{world.campaign.slug}/tables/{table.pk}/")
        page.click("#print-seats")
        page.wait_for_selector(".seat-sheet")
        assert page.locator(".seat-card").count() == 5
        for size in SIZES:
            pages = printed(page, size)
            assert len(pages) == 1, (size, len(pages))
            # a link's first line ("play/" and the token's start): a wrapped link's lines may interleave
            # with the card beside it in the PDF's text
            for text in ("Fiveattheinn", "Cora", "Dov", "Eli", *(f"play/{token[:8]}" for token in tokens)):
                assert text in pages[0], (size, text)
            # each QR code is whole on the paper
            boxes = page.locator(".seat-qr").evaluate_all("qrs => qrs.map(qr => qr.getBoundingClientRect().width)")
            assert len(boxes) == 5 and min(boxes) > 100
