"""Every player can read a table (issue 38): without colour, by ear, at 200 % zoom, without motion, by keyboard.

One table of each game a few moves in (the dungeon far enough for monsters in both rows and mercenaries to enter),
opened on a 360 px phone as its first seat and on the GM's page; each page is opened once and every check runs on it:

* whose card a Gridaris battlefield holds is readable without colour: read aloud it names the owner (and "yours" or
  "theirs" on a seat's phone), and each owner's battlefields have a border style of their own, the same as the swatch
  beside that player's name; every card's edges are read in one order, each number with its side, on the board and in
  the hand alike;
* the dungeon's tinted rows say what they are in words, and a monster is read as ranged or melee;
* no text of a game under 12 px on the phone;
* every scrollable strip that takes focus (a hand) has a name; headings go down one level at a time;
* the focus ring is at least 2 px and 3:1 against what is behind it;
* with reduced motion, nothing in the page animates or transitions;
* axe-core (tests/vendor/axe.min.js, every default rule) finds nothing serious or critical on any of these pages,
  nor on each game's "What if…" page, the GM table page with its what-if box opened, the undo question, the seats'
  sheet to print and a what-if forked for the players (the GM's page and a seat), nor on a refused projector link.

Findings are gathered per test, so one run lists every page's problems.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tabletop.services.forks import table_fork

from tests.a11y import axe_findings
from tests.browser import PHONE_360, chromium, log_in
from tests.browser_pages import axe_pass, game_tables, gm_url, open_page, seat_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EDGES = re.compile(r"top (\w+), right (\w+), bottom (\w+), left (\w+)")


# The text a screen reader reads for an element: its aria-label, else its text without aria-hidden parts.
SPOKEN_JS = """
(el) => {
  const read = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || node.getAttribute('aria-hidden') === 'true') return '';
    if (node !== el && node.hasAttribute('aria-label')) return ' ' + node.getAttribute('aria-label') + ' ';
    const style = getComputedStyle(node);
    if (style.display === 'none' || style.visibility === 'hidden') return '';
    const inner = [...node.childNodes].map(read).join('');
    return style.display === 'inline' ? inner : ' ' + inner + ' ';
  };
  const text = el.hasAttribute('aria-label') ? el.getAttribute('aria-label') : read(el);
  return text.replace(/\\s+/g, ' ').replace(/ ([,.:])/g, '$1').trim();
}
"""

# Gridaris board cells holding a card: what is read, the edges as drawn (by position), owner seat, border style.
CELLS_JS = """
(spoken) => [...document.querySelectorAll('.board .cell')].filter((c) => c.querySelector('.card-name')).map((c) => {
  const edge = (side) => [...c.querySelector('.edge.' + side).childNodes]
    .filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim();
  const owner = [...c.classList].find((k) => k.startsWith('owner-'));
  return {spoken: spoken(c), owner, border: getComputedStyle(c).borderTopStyle,
          drawn: [edge('top'), edge('right'), edge('bottom'), edge('left')]};
})
"""


def spoken_cells(page) -> list[dict]:
    return page.evaluate(f"(() => {{ const spoken = {SPOKEN_JS}; return ({CELLS_JS})(spoken); }})()")


def spoken(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, f"(els) => els.map({SPOKEN_JS})")


def gridaris_findings(page, where: str, names: dict[str, str], viewer: str | None) -> list[str]:
    """Every battlefield with a card read with its owner, edges labelled in one order; owners told apart by style."""
    found = []
    cells = spoken_cells(page)
    if len({cell["owner"] for cell in cells}) < 2:
        found.append(f"{where}: the board should hold cards of both players by now")
    styles: dict[str, set] = {}
    for cell in cells:
        text, owner = cell["spoken"], cell["owner"]
        styles.setdefault(owner, set()).add(cell["border"])
        if names[owner] not in text:
            found.append(f"{where}: a card of {names[owner]} is read without its owner: {text!r}")
        if viewer is not None:
            word = "yours" if owner == viewer else "theirs"
            if word not in text:
                found.append(f"{where}: a card of {names[owner]} is not read as {word}: {text!r}")
        match = EDGES.search(text)
        if not match:
            found.append(f"{where}: the edges are not read as top, right, bottom, left: {text!r}")
        elif list(match.groups()) != cell["drawn"]:
            found.append(f"{where}: edges read {match.groups()} but drawn {cell['drawn']}: {text!r}")
    swatches = dict(page.evaluate("""[...document.querySelectorAll('.players .swatch')].map((s) =>
        [[...s.classList].find((k) => k.startsWith('owner-')), getComputedStyle(s).borderTopStyle])"""))
    for owner, seen in styles.items():
        others = set().union(*(s for o, s in styles.items() if o != owner))
        if seen & others or len(seen) != 1:
            found.append(f"{where}: {names[owner]}'s battlefields share a border style with another's: {styles}")
        elif swatches.get(owner) not in seen:
            found.append(f"{where}: {names[owner]}'s swatch ({swatches.get(owner)}) is not drawn as their "
                         f"battlefields ({seen})")
    for text in spoken(page, ".hand .hand-card"):
        if not EDGES.search(text):
            found.append(f"{where}: a card in hand is not read with its edges top, right, bottom, left: {text!r}")
    return found


# Visible text under 12 px inside the live region (the visually hidden words excepted).
SMALL_TEXT_JS = """
() => {
  const found = new Set();
  const walker = document.createTreeWalker(document.querySelector('#live'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.checkVisibility({checkOpacity: false, checkVisibilityCSS: true})) continue;
    // a Gridaris battlefield is a picture of the board whose text scales with its square (8 columns on some
    // maps); each card is read aloud whole and shown at full size in the hand (issue 38 leaves it so)
    if (el.closest('.visually-hidden, details:not([open]), .board .cell')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 11.95) {
      const name = typeof el.className === 'string' ? el.className.trim().split(/\\s+/).join('.') : '';
      const text = node.textContent.trim().slice(0, 20);
      found.add(`${el.tagName.toLowerCase()}${name ? '.' + name : ''} "${text}" ${size.toFixed(1)} px`);
    }
  }
  return [...found];
}
"""

# Headings as they come, with their level; a jump of more than one level down is a skip.
HEADINGS_JS = """
() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  .filter((h) => h.classList.contains('visually-hidden')
    || h.checkVisibility({checkOpacity: false, checkVisibilityCSS: true}))
  .map((h) => [Number(h.tagName[1]), h.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)])
"""

# Boxes that take focus but are no control (a hand that scrolls sideways): each needs a name.
NAMELESS_FOCUS_BOXES_JS = """
() => [...document.querySelectorAll('[tabindex]:not(a, button, input, select, textarea, summary)')]
  .filter((el) => el.tabIndex >= 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
  .map((el) => el.tagName.toLowerCase() + '.' + String(el.className).trim().split(/\\s+/).join('.'))
"""


def page_findings(page, where: str) -> list[str]:
    """What every table page must meet: axe, 12 px text, named focus boxes, heading order."""
    found = axe_findings(page, where)
    found += [f"{where}: text under 12 px: {small}" for small in page.evaluate(SMALL_TEXT_JS)]
    found += [f"{where}: a box that takes focus has no name: {box}" for box in page.evaluate(NAMELESS_FOCUS_BOXES_JS)]
    headings = page.evaluate(HEADINGS_JS)
    for (before, text_before), (level, text) in zip(headings, headings[1:], strict=False):
        if level > before + 1:
            found.append(f"{where}: heading order skips from h{before} ({text_before!r}) to h{level} ({text!r})")
    return found


def test_gridaris_owners_edges_the_dungeon_rows_and_every_seat_and_gm_page(live_server, world):
    by_game = game_tables(world)
    names = {"owner-0": "Ann", "owner-1": "Ben"}
    found: list[str] = []
    with chromium() as browser:
        ann = log_in(browser, live_server, "ann", PHONE_360)
        for game, table in by_game.items():
            open_page(ann, seat_url(live_server, table))
            where = f"{game}, Ann's seat"
            if game == "gridaris":
                players = ann.eval_on_selector_all(".players .player strong", "els => els.map(e => e.textContent)")
                names = {f"owner-{i}": name for i, name in enumerate(players)}
                found += gridaris_findings(ann, where, names, viewer="owner-0")
            if game == "dungeon":
                rows = spoken(ann, ".dungeon-row-name")
                if not any("Ranged" in r for r in rows) or not any("Melee" in r for r in rows):
                    found.append(f"{where}: the ranged and melee rows are not named in words: {rows}")
                monsters = ann.eval_on_selector_all(
                    ".dungeon-monster", f"els => els.map(e => [e.className, ({SPOKEN_JS})(e)])")
                if not any("ranged" in cls for cls, _ in monsters):
                    found.append(f"{where}: no ranged monster on the board to check")
                for cls, text in monsters:
                    kind = "ranged" if "ranged" in cls.split() else "melee" if "melee" in cls.split() else None
                    if kind and kind not in text:
                        found.append(f"{where}: a {kind} monster is not read as {kind}: {text!r}")
                if not ann.query_selector(".square-tap"):
                    found.append(f"{where}: no square to tap on the board to check")
            found += page_findings(ann, where)
        ann.context.close()
        gm = log_in(browser, live_server, "gm", PHONE_360)
        for game, table in by_game.items():
            open_page(gm, gm_url(live_server, world, table))
            if game == "gridaris":
                found += gridaris_findings(gm, f"{game}, GM", names, viewer=None)
            found += page_findings(gm, f"{game}, GM")
        gm.context.close()
    assert not found, f"{len(found)} finding(s):\n" + "\n".join(found)


def test_the_what_if_page_and_the_what_if_box_of_every_game_have_no_serious_axe_finding(live_server, world):
    """The "What if…" log of each game, as a page of its own and as the box the GM table page loads when opened:
    each fork button's accessible name holds its visible words whole (label-content-name-mismatch, serious)."""
    by_game = game_tables(world)
    found: list[str] = []
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", PHONE_360)
        for game, table in by_game.items():
            response = gm.goto(live_server.url + reverse("tabletop:table_whatif", args=[world.campaign.slug, table.pk]))
            assert response.status == 200, f"{game}: the what-if page answered {response.status}"
            gm.wait_for_selector(".what-if-entry button.what-if-fork")
            found += axe_findings(gm, f"{game}, the what-if page")
            open_page(gm, gm_url(live_server, world, table))
            gm.click("summary:has-text('Fork this table at a move of its log')")
            gm.wait_for_selector(".what-if-box .what-if-entry button.what-if-fork")
            found += axe_findings(gm, f"{game}, the GM page with its what-if box open")
        gm.context.close()
    assert not found, f"{len(found)} finding(s):\n" + "\n".join(found)


def test_the_undo_question_the_seat_sheet_a_what_if_and_a_refused_projector_link_have_no_serious_axe_finding(
    live_server, world
):
    """The table pages no other test runs axe on, for each game: the GM's undo question (the table page asking what
    Undo takes back), the seats' sheet to print, and a what-if forked for the players, on the GM's page and on Ann's
    seat there; and the page a revoked or forged projector link opens (404, a page of its own)."""
    by_game = game_tables(world)
    slug = world.campaign.slug
    forked = {
        game: table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=True)
        for game, table in by_game.items()
    }
    found: list[str] = []

    def url(name, *args):
        return live_server.url + reverse(name, args=args)

    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", PHONE_360)
        for game, table in by_game.items():
            found += axe_pass(gm, url("tabletop:gm_undo_confirm", slug, table.pk), f"{game}, the undo question",
                              ready="#undo-what")
            found += axe_pass(gm, url("tabletop:gm_seat_sheet", slug, table.pk), f"{game}, the seats' sheet",
                              ready="#seat-sheet")
            found += axe_pass(gm, url("tabletop:gm_table", slug, forked[game].pk), f"{game}, a what-if, GM",
                              ready="[data-what-if]")
        gm.context.close()
        ann = log_in(browser, live_server, "ann", PHONE_360)
        for game, fork in forked.items():
            found += axe_pass(ann, url("tabletop:seat_table", fork.seats.get(index=0).token),
                              f"{game}, a what-if, Ann's seat", ready="[data-what-if]")
        ann.context.close()
        guest = browser.new_context(**PHONE_360).new_page()
        found += axe_pass(guest, url("tabletop:projector", "no-such-link"), "a refused projector link", status=404)
        guest.context.close()
    assert not found, f"{len(found)} finding(s):\n" + "\n".join(found)


# Every element of the live region whose animation or transition would still run.
MOVING_JS = """
() => [...document.querySelectorAll('#live, #live *')].filter((el) => {
  const style = getComputedStyle(el);
  const seconds = (list) => list.split(',').some((t) => parseFloat(t) > 0);
  return (style.animationName !== 'none' && seconds(style.animationDuration)) || seconds(style.transitionDuration);
}).map((el) => el.tagName.toLowerCase() + '.' + String(el.className).trim().split(/\\s+/).join('.')).slice(0, 8)
"""

# The focused element's outline: width, style, and its contrast with the background behind it.
FOCUS_RING_JS = """
() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const linear = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const lum = ([r, g, b]) => [r, g, b].map(linear).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let behind = el.parentElement;
  while (behind && (rgb(getComputedStyle(behind).backgroundColor)[3] === 0)) behind = behind.parentElement;
  const back = behind ? rgb(getComputedStyle(behind).backgroundColor) : [255, 255, 255];
  const [a, b] = [lum(rgb(style.outlineColor)), lum(back)].sort((x, y) => y - x);
  return {what: el.tagName.toLowerCase() + ' ' + (el.textContent || '').trim().slice(0, 30),
          style: style.outlineStyle, width: parseFloat(style.outlineWidth), contrast: (a + 0.05) / (b + 0.05)};
}
"""


def test_reduced_motion_stops_every_animation_and_the_focus_ring_shows_on_the_cream_page(live_server, world):
    table = game_tables(world)["gotm"]
    found = []
    with chromium() as browser:
        # the GM's page of GOT'M shows every hand to pick from and the squads: the cards that slide and lift
        moving = log_in(browser, live_server, "gm", PHONE_360)
        open_page(moving, gm_url(live_server, world, table))
        if not moving.evaluate(MOVING_JS):  # without the preference they do move: a check that can fail
            found.append("nothing moves even without reduced motion: the check would pass whatever the CSS")
        moving.context.close()
        page = log_in(browser, live_server, "gm", {**PHONE_360, "reduced_motion": "reduce"})
        open_page(page, gm_url(live_server, world, table))
        found += [f"still moving with reduced motion: {el}" for el in page.evaluate(MOVING_JS)]
        for _ in range(4):  # the top bar's links, then the page's own: each ring seen on what is behind it
            page.keyboard.press("Tab")
            ring = page.evaluate(FOCUS_RING_JS)
            if ring["style"] in ("none", "auto") or ring["width"] < 2 or ring["contrast"] < 3:
                found.append(f"a faint focus ring on {ring['what']!r}: {ring}")
        page.context.close()
    assert not found, "\n".join(found)
