"""A first-time player who reads only the screen (issue 25): GOT'M, Gridaris and the dungeon, on a 360 px
phone and on a tablet.

Every choice the player needs is on the page without hovering: no element keeps information in a ``title``
its visible text does not show; GOT'M shop cards say their price, the dungeon's resource cards say what they
do, its monsters their attack and defence. No visible word is broken across two lines (``split_words``). On
the phone each page fits (``phone_check``: no sideways scroll, 44 px targets, axe), a GOT'M wounded card
covers neither its squad's heading nor its neighbour, and at Gridaris the hand and the board are both on the
screen at once; a battlefield tapped before a card says "Pick a card from your hand first" in the page (no
browser validation bubble), then a card and a battlefield play the move.
"""

from __future__ import annotations

import os
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.models import Table
from tabletop.services.tables import SeatSpec, table_create, table_play

from tests.a11y import phone_check, split_words
from tests.browser import TABLET, chromium, log_in, wait_for_version
from tests.factories import gridaris_table
from tests.tables import play_next

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DEVICES = {"phone": PHONE_360, "tablet": TABLET}

# a [title] whose words the element's own visible text does not hold: information only a mouse can reach
TITLE_ONLY_JS = """
() => [...document.querySelectorAll('main [title]')].filter((el) => el.checkVisibility())
  .filter((el) => {
    const shown = (el.innerText || '').replace(/\\s+/g, ' ').toLowerCase();
    return !el.title.toLowerCase().split(/[^\\p{L}\\p{N}]+/u).filter(Boolean).every((w) => shown.includes(w));
  })
  .map((el) => `${el.tagName.toLowerCase()}.${el.className} title="${el.title}" shows "${el.innerText.trim()}"`)
"""


def seats(world):
    return [SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)]


def gotm_with_wounds(world) -> Table:
    """A GOT'M table in combat whose first squad has two wounded cards side by side."""
    table = table_create(campaign=world.campaign, game="gotm", title="Booty Bay duel", seats=seats(world),
                         config={"series_game": 0}, seed=5)
    engine = get_engine("gotm")
    for _ in range(200):  # end the shopping at once, then place the squads
        if table.state["phase"] in ("equip", "combat") or not engine.to_act(table.state):
            break
        seat = engine.to_act(table.state)[0]
        legal = [a for a in engine.legal_actions(table.state) if a["seat"] == seat]
        action = next((a for a in legal if a["type"] in ("done", "ready")), legal[0])
        table = table_play(table_id=table.pk, seat=seat, action={k: v for k, v in action.items() if k != "seat"},
                           version=table.version).table
    assert table.state["phase"] in ("equip", "combat"), table.state["phase"]
    state = table.state
    for slot in state["squads"][0][:2]:
        slot["wounded"] = True
    Table.objects.filter(pk=table.pk).update(state=state)
    table.refresh_from_db()
    return table


def a_few_moves_in(table: Table, moves: int = 8) -> Table:
    """The monsters placed and the mercenaries in: a board to read."""
    for _ in range(moves):
        if not get_engine(table.game).to_act(table.state):
            break
        table = play_next(table)
    return table


def tables(world) -> dict:
    call_command("load_starter_dungeon", verbosity=0)
    return {
        "gotm shop": table_create(campaign=world.campaign, game="gotm", title="Shop at the Inn", seats=seats(world),
                                  config={"series_game": 0}, seed=5),
        "gotm wounded": gotm_with_wounds(world),
        "gridaris": gridaris_table(world.campaign, [world.ann, world.ben], title="Gridaris first time"),
        "dungeon": a_few_moves_in(table_create(campaign=world.campaign, game="dungeon", title="The Mansion",
                                               seats=seats(world), config={"mode": "competitive", "variant": "pairs"},
                                               seed=5)),
    }


def seat_url(live_server, table: Table, index: int) -> str:
    return live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=index).token])


def read_only_the_screen(page, where: str, device: str) -> list[str]:
    """What a first-time player on ``device`` cannot read from the screen of ``page``."""
    problems = [f"{where} ({device}): only in a title: {found}" for found in page.evaluate(TITLE_ONLY_JS)]
    problems += [f"{where} ({device}): a word broken across lines: {found}" for found in split_words(page)]
    if device == "phone":
        problems += phone_check(page, where)
    return problems


def overlaps(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] - 1 and b["x"] < a["x"] + a["width"] - 1 and \
        a["y"] < b["y"] + b["height"] - 1 and b["y"] < a["y"] + a["height"] - 1


def check_wounded(page, where: str) -> list[str]:
    """A wounded (turned) card covers neither its squad's heading nor the card beside it."""
    problems = []
    for squad in page.locator(".gotm-squad").all():
        heading = squad.locator("h2").bounding_box()
        cards = [card.bounding_box() for card in squad.locator(".gotm-slot > .gotm-card").all()]
        wounded = [card.bounding_box() for card in squad.locator(".gotm-slot.wounded > .gotm-card").all()]
        for box in wounded:
            if overlaps(box, heading):
                problems.append(f"{where}: a wounded card covers the squad's heading")
            if any(other != box and overlaps(box, other) for other in cards):
                problems.append(f"{where}: a wounded card covers the card beside it")
    return problems


def both_on_screen(page) -> bool:
    """The first hand card and the first playable battlefield are both inside the phone's screen."""
    return page.evaluate("""() => {
      const inView = (el) => { const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; };
      const card = document.querySelector('.hand:not(.shown) .hand-card');
      const cell = document.querySelector('button.cell.playable');
      cell.scrollIntoView({block: 'center'});
      return inView(card) && inView(cell);
    }""")


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_a_first_time_player_reads_every_choice_on_the_screen(live_server, world, device):
    made = tables(world)
    findings: list[str] = []
    with chromium() as browser:
        pages = {index: log_in(browser, live_server, name, DEVICES[device]) for index, name in ((0, "ann"), (1, "ben"))}
        for what, table in made.items():
            for index, page in pages.items():
                page.goto(seat_url(live_server, table, index))
                page.wait_for_selector("#live")
                where = f"{what}, seat {index + 1}"
                page.evaluate("document.querySelectorAll('main details').forEach((d) => { d.open = true; })")
                findings += read_only_the_screen(page, where, device)
                if os.environ.get("PHONE_SHOTS"):  # a directory: keep a picture of each page, to look at
                    page.screenshot(path=f"{os.environ['PHONE_SHOTS']}/{device}-{what}-{index}.png", full_page=True)
                if what == "gotm wounded":
                    findings += check_wounded(page, where)

        shop = made["gotm shop"]
        shopper = pages[get_engine("gotm").to_act(shop.state)[0]]
        shopper.goto(seat_url(live_server, shop, get_engine("gotm").to_act(shop.state)[0]))
        verbs = shopper.locator(".gotm-target .gotm-verb").all_inner_texts()
        if not verbs or not all(re.fullmatch(r"(Hire|Buy) for \d+", v) for v in verbs):
            findings.append(f"gotm shop ({device}): a shop card without its price: {verbs}")

        dungeon = made["dungeon"]
        page = pages[0]
        page.goto(seat_url(live_server, dungeon, 0))
        page.locator(".dungeon-resources summary").click()
        stacks = page.locator(".dungeon-stack").all_inner_texts()
        if not (stacks and any("Melee +" in s for s in stacks) and any("Play to heal" in s for s in stacks)):
            findings.append(f"dungeon ({device}): the resource area does not say what its cards do: {stacks}")
        assert not findings, f"{len(findings)} finding(s):\n" + "\n".join(findings)

        grid = made["gridaris"]
        acting = get_engine("gridaris").to_act(grid.state)[0]
        page = pages[acting]
        page.goto(seat_url(live_server, grid, acting))
        page.wait_for_selector("button.cell.playable")
        if device == "phone":
            assert both_on_screen(page), "the hand and the board are not on the phone's screen together"
        assert page.evaluate("document.querySelector('.play-form').noValidate")
        page.locator("button.cell.playable").first.click()
        page.get_by_text("Pick a card from your hand first").wait_for()
        grid.refresh_from_db()
        assert grid.version == 0
        page.locator(".hand:not(.shown) .hand-card input[type=radio]").first.check()
        page.locator("button.cell.playable").first.click()
        wait_for_version(page, 1)


def test_a_word_broken_across_lines_is_found_and_a_whole_one_is_not(live_server, world):
    """``split_words`` can fail: "Crossbowmen" forced to break in a narrow box is named; kept whole, it is not."""
    with chromium() as browser:
        page = browser.new_context(**PHONE_360).new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.evaluate("""document.querySelector('main')
          .insertAdjacentHTML('beforeend', '<p id=narrow>Crossbowmen Sum</p>');
          Object.assign(document.getElementById('narrow').style, {width: '3rem', overflowWrap: 'anywhere'})""")
        assert split_words(page) == ['"Crossbowmen" in p']
        page.evaluate("document.getElementById('narrow').style.overflowWrap = 'normal'")
        assert split_words(page) == []


def test_mercenariums_lit_squares_keep_their_words_whole_on_a_phone(live_server, world):
    """The squares a picked card can go to say Summon / Move / Capture, each word on one line, at 360 px."""
    table = a_few_moves_in(table_create(campaign=world.campaign, game="mercenarium", title="Anthromancer night",
                                        seats=seats(world), config={}, seed=5), moves=6)
    acting = get_engine("mercenarium").to_act(table.state)[0]
    with chromium() as browser:
        page = log_in(browser, live_server, ("ann", "ben")[acting], PHONE_360)
        page.goto(seat_url(live_server, table, acting))
        picks = page.locator("button.merc-pick")
        lit = 0
        for index in range(picks.count()):
            picks.nth(index).click()
            lit += page.locator(".merc-go.lit").count()
            assert split_words(page, ".merc-board") == []
        assert lit, "no card lit a square"
