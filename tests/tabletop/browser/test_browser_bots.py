"""The GM hands an absent player's seat to the computer on a 360 px phone, and every screen follows
(issue 16): the control fits the phone (44 px taps, no sideways scroll, no serious axe finding),
the page says who is thinking, and the computer's move arrives as an ordinary move, which the
player's phone shows without anyone reloading.

The computer decides in this process's pool (no Celery worker in the tests) and its move is applied
from a thread of its own, as under ``make run``.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tabletop.computer import pool
from tabletop.models import TableAction

from tests.a11y import phone_check
from tests.browser import PHONE, chromium, log_in, wait_for_version
from tests.factories import gridaris_table
from tests.tables import play_next

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def test_the_gm_gives_bens_seat_to_the_computer_and_every_screen_sees_it_think_and_move(live_server, world, settings):
    settings.BOT_BUDGET = {"iterations": 8}
    table = play_next(gridaris_table(world.campaign, [world.ann, world.ben]))  # Ann moved: Ben is to act, and away
    slug = world.campaign.slug
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", PHONE_360)
        gm.goto(live_server.url + reverse("tabletop:gm_table", args=[slug, table.pk]))
        gm.click("summary:has-text('Who plays each seat')")
        assert phone_check(gm, "the GM's table page, seat control open") == []
        ann = log_in(browser, live_server, "ann", PHONE)
        ann.goto(live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=0).token]))
        wait_for_version(ann, 1)

        gm.select_option("#seat-bot-1", "quick")
        gm.click("form:has(#seat-bot-1) button:has-text('Set')")
        # the answer to the post says the computer is thinking (and keeps the control open)
        gm.wait_for_selector(".computer-thinking:has-text('Ben the Sly (computer, quick) is thinking…')")
        assert gm.locator("#seat-bot-1").input_value() == "quick"

        wait_for_version(gm, 3)  # version 2: the seat changed hands; 3: the computer's move
        wait_for_version(ann, 3)  # Ann's phone follows by itself
        assert gm.locator(".computer-thinking").inner_text().strip() == ""  # Ann's turn: nobody thinks
        assert "Played by the computer: Ben the Sly" in ann.locator(".computer-seats").inner_text()
        assert phone_check(gm, "the GM's table page after the computer's move") == []
    assert pool.wait_idle(60)
    last = TableAction.objects.filter(table=table).order_by("seq").last()
    assert (last.seq, last.seat, last.user) == (3, "1", None)
