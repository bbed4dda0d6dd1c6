"""The projector across a room (issue 35): every game's projector page on a 1920x1080 screen, after a long game.

The page is read from the back of a room, and nobody touches the screen: it fits the viewport with no
scrolling (the board's bottom row on the screen however long the capture lists grow), the player lines and
commander panels are at least 28 px, the turn line larger still, no control is shown (no button, link, form
field or "Rules help" chip), and every card is upright (a phone held across the table turns the other side's
Mercenarium cards, and GOT'M turns a wounded card: a projector does neither)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.engines.kernel import SeededRng
from tabletop.models import Table
from tabletop.services.projector import projector_issue
from tabletop.services.tables import SeatSpec, table_create

from tests.browser import chromium
from tests.tables import play_random

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"viewport": {"width": 1920, "height": 1080}}

# Each game's player lines (a player, a commander's panel, a mercenary) and its board.
PLAYER_LINES = {
    "gridaris": ".gridaris .player",
    "army": ".army-commander",
    "gotm": ".gotm-player",
    "mercenarium": ".merc-player",
    "dungeon": ".dungeon-merc",
}
BOARDS = {
    "gridaris": ".board",
    "army": ".army-commanders",
    "gotm": ".gotm-battlefield",
    "mercenarium": ".merc-board",
    "dungeon": ".dungeon-board",
}

MEASURE = """([lines, board]) => {
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const controls = [...document.querySelectorAll(
    "button, a[href], input:not([type=hidden]), select, textarea, [role=button], .help-term, .rules-help-row"
  )].filter(visible).map((el) => el.outerHTML.slice(0, 80));
  const turned = [...document.querySelectorAll('#live *')].filter((el) => {
    const t = getComputedStyle(el).transform;
    const m = /^matrix\\(([^,]+), ([^,]+), ([^,]+)/.exec(t);
    return m && (Math.abs(parseFloat(m[2])) > 0.001 || Math.abs(parseFloat(m[3])) > 0.001 || parseFloat(m[1]) < 0);
  }).map((el) => el.outerHTML.slice(0, 80));
  const players = [...document.querySelectorAll(lines)];
  const font = (el) => parseFloat(getComputedStyle(el).fontSize);
  const boardBox = document.querySelector(board).getBoundingClientRect();
  return {
    scrollHeight: document.documentElement.scrollHeight, scrollWidth: document.documentElement.scrollWidth,
    innerHeight: window.innerHeight, innerWidth: window.innerWidth,
    controls, turned,
    players: players.length,
    playerFont: Math.min(...players.map(font)),
    playerBottom: Math.max(...players.map((el) => el.getBoundingClientRect().bottom)),
    turnFont: font(document.querySelector('.projector-head .status')),
    boardTop: boardBox.top, boardBottom: boardBox.bottom, boardHeight: boardBox.height,
    boardRight: boardBox.right,
  };
}"""


class Lingering(random.Random):
    """Random moves that keep a battle going: a pass or an accepted loss only when nothing else is legal."""

    def choice(self, actions):
        going = [action for action in actions if action["type"] not in ("pass", "accept")]
        return super().choice(going or actions)


def long_game(world, game: str):
    """A table of ``game`` after many random moves; a Mercenarium table's players then hold long capture lists
    (the deck's cards moved into them: what the page shows of a capture is its card)."""
    engine = get_engine(game)
    config = engine.random_config(SeededRng(35))
    names = ("Annabel", "Benedict", "Cordelia", "Dorothea")[: len(config["players"])]
    table = table_create(campaign=world.campaign, game=game, title=f"{game} at the inn", config=config,
                         seats=[SeatSpec(guest_name=name) for name in names], seed=35)
    table = play_random(table, 40 if game == "mercenarium" else 120, Lingering(game))
    if game == "mercenarium":
        state = table.state
        for seat, captures in enumerate(state["captures"]):
            captures += [{"card": state["deck"].pop(), "spent": n % 3 == 0} for n in range(10 - seat * 3)]
        Table.objects.filter(pk=table.pk).update(state=state)
        table.refresh_from_db()
    return table


@pytest.mark.parametrize("game", ["gridaris", "army", "gotm", "mercenarium", "dungeon"])
def test_the_projector_reads_across_a_room_and_fits_a_1080p_screen(live_server, world, game):
    table = long_game(world, game)
    link = projector_issue(table_id=table.pk, replacing="", user=world.gm.user)
    with chromium() as browser:
        screen = browser.new_context(**SCREEN).new_page()
        screen.goto(live_server.url + reverse("tabletop:projector", args=[link.token]))
        screen.wait_for_selector("#live")
        measured = screen.evaluate(MEASURE, [PLAYER_LINES[game], BOARDS[game]])
    assert measured["controls"] == [], measured["controls"]
    assert measured["turned"] == [], measured["turned"]
    assert measured["scrollHeight"] <= measured["innerHeight"], measured  # fits: no scrolling
    assert measured["scrollWidth"] <= measured["innerWidth"], measured
    assert measured["boardBottom"] <= measured["innerHeight"], measured  # the board's bottom row on the screen
    assert measured["playerBottom"] <= measured["innerHeight"], measured
    assert measured["players"] >= 2 and measured["playerFont"] >= 28, measured  # read from the back of the room
    assert measured["turnFont"] >= measured["playerFont"], measured  # the turn first
