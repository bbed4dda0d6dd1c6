"""Test helpers for the browser tests that visit every game's pages (test_browser_phone_pages.py,
test_browser_a11y_tables.py, test_browser_zoom.py): each game's table a few moves in, the seat's and the GM's
address of a table, a page opened and checked to answer, a page given one axe pass. Shared here so no test
module imports another (CONVENTIONS 16b).
"""

from __future__ import annotations

from django.core.management import call_command
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.services.tables import SeatSpec, table_create

from tests.a11y import axe_findings
from tests.factories import army_table, gridaris_table
from tests.tables import play_next

GAMES = ("army", "gridaris", "gotm", "mercenarium", "dungeon")


def mid_game(table, moves: int = 6):
    """The table a few legal actions in, so its page shows a board and choices, not only a start."""
    engine = get_engine(table.game)
    for _ in range(moves):
        if not engine.to_act(table.state):
            break
        table = play_next(table)
    return table


def tables(world) -> dict:
    """Each game's table a few moves in, and a finished Gridaris table."""
    seats = [SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)]
    made = {
        "army": army_table(world.campaign, [world.ann, world.ben]),
        "gridaris": gridaris_table(world.campaign, [world.ann, world.ben]),
        "gotm": table_create(campaign=world.campaign, game="gotm", title="Booty Bay duel", seats=seats,
                             config={"series_game": 0}, seed=5),
        "mercenarium": table_create(campaign=world.campaign, game="mercenarium", title="Anthromancer night",
                                    seats=seats, config={}, seed=5),
        "dungeon": table_create(campaign=world.campaign, game="dungeon", title="Distelblute Mansion", seats=seats,
                                config={"mode": "competitive", "variant": "pairs"}, seed=5),
    }
    # the dungeon far enough for monsters in both rows and mercenaries to enter (its tap squares, issue 38)
    played = {game: mid_game(table, 12 if game == "dungeon" else 6) for game, table in made.items()}
    # a finished game: the outcome, the score and a board no one can play any more
    played["gridaris, finished"] = mid_game(gridaris_table(world.campaign, [world.ann, world.ben], title="Done"), 200)
    assert not get_engine("gridaris").to_act(played["gridaris, finished"].state), "the game should be over"
    return played


def game_tables(world) -> dict:
    """Each game's table a few moves in, the finished one left out (the dungeon's starter cards loaded first)."""
    call_command("load_starter_dungeon", verbosity=0)
    return {game: table for game, table in tables(world).items() if game in GAMES}


def seat_url(live_server, table, index: int = 0) -> str:
    return live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=index).token])


def gm_url(live_server, world, table) -> str:
    return live_server.url + reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])


def open_page(page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200, f"{url}: {response and response.status}"
    page.wait_for_selector("#live")


def axe_pass(page, url: str, where: str, status: int = 200, ready: str = "main", unfold: bool = False) -> list[str]:
    """``url`` opened: a finding if it does not answer ``status``, else axe-core's serious and critical ones once
    ``ready`` shows (with ``unfold``, every <details> of the page opened first)."""
    response = page.goto(url)
    if response is None or response.status != status:
        return [f"{where}: {url} answered {response and response.status}, not {status}"]
    page.wait_for_selector(ready)
    if unfold:
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    return axe_findings(page, where)
