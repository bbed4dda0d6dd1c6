"""A GM opens a dungeon table and two phones play "2 Pairs" through the opening of the first area.

Three browser contexts (tablet, two phones). The deciding phone taps a square on the
board when the choice is one, else its first button; the waiting phone offers only its
own "At any time" choices. After every tap neither phone's HTML holds a card id from
the other player's hands.
"""

import pytest
from django.core.management import call_command

from tabletop.engines import get_engine
from tabletop.engines.kernel import GM
from tabletop.models import Table

from tests.browser import chromium, open_two_seat_table, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hand_ids(table: Table, seat: int) -> list[str]:
    mercs = get_engine("dungeon").view(table.state, GM)["mercs"]
    return [card["id"] for m in mercs if m["seat"] == seat for card in m["hand"]]


def test_two_phones_play_the_opening_of_a_pairs_game_and_never_see_each_others_hands(live_server, world):
    call_command("load_starter_dungeon", verbosity=0)
    engine = get_engine("dungeon")
    with chromium() as browser:
        gm, table, phones = open_two_seat_table(
            browser, live_server, world, f"New {engine.TITLE} table", "The Mansion", ready=".dungeon-board")
        assert table.state["variant"] == "pairs" and len(table.state["mercs"]) == 4

        seen = set()
        for _ in range(40):
            table.refresh_from_db()
            for seat, page in phones.items():
                wait_for_version(page, table.version)
                html = page.content()
                leaked = [card for card in hand_ids(table, 1 - seat) if card in html]
                assert leaked == [], f"seat {seat}'s phone shows the other player's cards: {leaked}"
            acting = engine.to_act(table.state)
            opened = {"place_monster", "enter", "lead", "tap"} <= seen and table.state["turn"] >= 1
            if not acting or (opened and all(m["pos"] for m in table.state["mercs"])):
                break  # nobody to act, or the opening played: every step below seen, the party in the dungeon
            page = phones[acting[0]]
            if len(acting) == 1:  # the other phone offers no decision, only its own "At any time" choices
                assert phones[1 - acting[0]].locator(".dungeon-choices button").count() == 0
            seen.add(table.state["pending"]["type"] if table.state["pending"] else table.state["phase"])
            taps = page.locator(".dungeon-board .square-tap")
            if taps.count():  # a square to choose: tap it on the board
                seen.add("tap")
                taps.first.click()
            else:
                page.locator(".dungeon-choices button").first.click()
            wait_for_version(page, table.version + 1)
        table.refresh_from_db()
        assert {"place_monster", "enter", "lead", "tap"} <= seen
        assert table.state["turn"] >= 1 and all(m["pos"] for m in table.state["mercs"])
        wait_for_version(gm, table.version)
        assert gm.locator(".dungeon-monster").count() == len(table.state["board"])
