"""A GM on a tablet and two players on their phones play Gridaris to the final score.

Three separate browser contexts (three sessions, as on three devices). After every
move each phone's HTML is checked for the other seat's hand.
"""

import pytest

from tabletop.engines import get_engine
from tabletop.engines.kernel import GM
from tabletop.models import Table

from tests.browser import chromium, gridaris_move, open_two_seat_table, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def hand_names(table: Table, seat: int) -> list[str]:
    return [card["name"] for card in get_engine("gridaris").view(table.state, GM)["players"][seat]["hand"]]


def test_a_gm_and_two_phones_play_gridaris_to_the_final_score(live_server, world):
    with chromium() as browser:
        gm, table, phones = open_two_seat_table(
            browser, live_server, world, "New Mercenaries of Gridaris table", "Duel at the Inn")

        engine = get_engine("gridaris")
        moves = 0
        while engine.outcome(table.state) is None:
            for seat, page in phones.items():
                html = page.content()
                leaked = [name for name in hand_names(table, 1 - seat) if name in html]
                assert leaked == [], f"seat {seat}'s phone shows the other hand: {leaked}"
            (acting,) = engine.to_act(table.state)
            page = phones[acting]
            wait_for_version(page, table.version)
            gridaris_move(page)
            moves += 1
            wait_for_version(page, moves)
            table.refresh_from_db()
            assert table.version == moves

        assert table.status == Table.Status.FINISHED and moves >= 16
        winner_names = [("Ann the Bold", "Ben the Sly")[seat] for seat in table.outcome["winners"]]
        for page in (gm, *phones.values()):
            wait_for_version(page, table.version)
            score = page.locator(".score")
            assert score.locator("h2").inner_text() == "Final score"
            for name in winner_names:
                assert score.locator("tr.winner", has_text=name).count() == 1
