"""The coach on a 360 px phone (issue 27): a guest whose turn it is taps "What would the computer do?" and
reads three moves, each with a whole percent, all within the screen; when the GM stops the coach from the
tablet, the phone's button goes with the next render of its table; a tap while the computer is busy with other
tables' questions reads the sentence that says so (a 429, issue 34), and the next tap gets its moves.

The search runs with a small iteration budget (``BOT_BUDGET``): a seeded, quick answer."""

from __future__ import annotations

import re

import pytest

from tabletop.computer import coach_bounds
from tabletop.engines import get_engine
from tabletop.models import Seat, Table
from tabletop.services.tables import SeatSpec, table_create

from tests.a11y import phone_check
from tests.browser import TABLET, chromium, log_in, wait_for_version
from tests.factories import gridaris_table
from tests.tables import play_next

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
PERCENT = re.compile(r"^\d{1,3} %$")


def at_a_seats_turn(table: Table) -> tuple[Table, int]:
    engine = get_engine(table.game)
    for _ in range(80):
        for seat in engine.to_act(table.state):
            if isinstance(seat, int) and sum(a["seat"] == seat for a in engine.legal_actions(table.state)) > 1:
                return table, seat
        table = play_next(table)
    pytest.fail(f"no seat of {table.game} came to act with a choice")


def ask_on_the_phone(page) -> list[tuple[str, str]]:
    """Tap the button; the moves and their percents as the phone shows them, once every row fits the screen."""
    page.locator("#coach-ask").click()
    page.wait_for_selector("#coach-moves li", timeout=30_000)
    rows = page.locator("#coach-moves li")
    shown = [(rows.nth(i).locator(".coach-move").inner_text(), rows.nth(i).locator(".coach-chance").inner_text())
             for i in range(rows.count())]
    for i in range(rows.count()):
        box = rows.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (shown[i], box)
    return shown


def test_a_phone_asks_the_computer_and_reads_three_moves_within_the_screen(live_server, world, settings):
    settings.BOT_BUDGET = {"iterations": 40}
    gotm = table_create(campaign=world.campaign, game="gotm", title="Practice GOT'M",
                        seats=[SeatSpec(guest_name="Gus"), SeatSpec(guest_name="Ida")], config={"series_game": 0},
                        seed=5)
    tables = [at_a_seats_turn(gridaris_table(world.campaign, ["Gus", "Ida"], title="Practice Gridaris")),
              at_a_seats_turn(gotm)]
    with chromium() as browser:
        for table, seat in tables:
            token = Seat.objects.values_list("token", flat=True).get(table=table, index=seat)
            page = browser.new_context(**PHONE_360).new_page()
            page.goto(f"{live_server.url}/play/{token}/")
            wait_for_version(page, table.version)
            moves = ask_on_the_phone(page)
            assert len(moves) == 3, moves
            assert all(label.strip() and PERCENT.match(chance) for label, chance in moves), moves
            assert "from what your seat sees" in page.locator(".coach-note").inner_text()
            assert phone_check(page, f"{table.game} seat with the coach's answer") == []
            page.context.close()


def practice_phone(browser, live_server, world):
    """A practice Gridaris table at a guest seat's turn, and that seat's page open on a 360 px phone."""
    table, seat = at_a_seats_turn(gridaris_table(world.campaign, ["Gus", "Ida"], title="Practice Gridaris"))
    token = Seat.objects.values_list("token", flat=True).get(table=table, index=seat)
    phone = browser.new_context(**PHONE_360).new_page()
    phone.goto(f"{live_server.url}/play/{token}/")
    wait_for_version(phone, table.version)
    return table, phone


def test_the_gm_stops_the_coach_and_the_phone_loses_its_button(live_server, world):
    with chromium() as browser:
        table, phone = practice_phone(browser, live_server, world)
        assert phone.locator("#coach-ask").is_visible()
        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(f"{live_server.url}/c/{world.campaign.slug}/tables/{table.pk}/")
        gm.locator("#coach-off").click()
        wait_for_version(gm, table.version + 1)
        assert gm.locator("#coach-on").is_visible()
        wait_for_version(phone, table.version + 1)
        assert phone.locator("#coach-ask").count() == 0


def test_a_tap_while_the_computer_is_busy_reads_why_and_the_next_tap_is_answered(live_server, world, settings):
    settings.BOT_BUDGET, settings.COACH_SEARCHES = {"iterations": 24}, 1
    with chromium() as browser:
        _table, phone = practice_phone(browser, live_server, world)
        with coach_bounds.held("seat:elsewhere", 0, 60):  # another campaign's question holds the site's one slot
            phone.locator("#coach-ask").click()
            phone.wait_for_selector(".coach-refusal", timeout=30_000)
            assert phone.locator(".coach-refusal").inner_text() == coach_bounds.ALL_BUSY
        assert len(ask_on_the_phone(phone)) == 3
        assert phone.locator(".coach-refusal").count() == 0
