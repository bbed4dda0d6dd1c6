"""The GM opens the "What if…" box on a tablet, forks the table at a move of its log and lands on the
what-if for the same players, marked as such; Ben's phone opens his seat there with his login and shows
the marker too (under the page's CSP: the box loads by htmx, no inline script)."""

import pytest

from tabletop.models import Table

from tests.browser import chromium, log_in, wait_for_version
from tests.tables import play_next

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"viewport": {"width": 1024, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_the_gm_forks_a_table_at_a_move_and_the_what_if_is_marked_on_the_tablet_and_a_phone(
    live_server, world, table
):
    table = play_next(play_next(play_next(table)))
    slug = world.campaign.slug
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(f"{live_server.url}/c/{slug}/tables/{table.pk}/")
        wait_for_version(gm, table.version)
        gm.click("text=Fork this table at a move of its log")
        control = gm.locator(".what-if-entry", has_text="Move 2:").locator("button.what-if-players")
        control.wait_for()
        box = control.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
        control.click()
        gm.wait_for_selector("text=Nothing played here counts.")
        assert "What-if: Test table from move 2" in gm.locator("h1").inner_text()
        note = gm.locator(".what-if-note")
        assert "at move 2: nothing here counts." in note.inner_text()
        assert note.locator("a", has_text="Test table").count() == 1

        fork = Table.objects.get(what_if=True)
        phone = log_in(browser, live_server, "ben", PHONE)  # Ben's seat at the what-if opens with his login
        phone.goto(f"{live_server.url}/play/{fork.seats.get(index=1).token}/")
        wait_for_version(phone, fork.version)
        assert "nothing here counts." in phone.locator(".what-if-note").inner_text()
        assert phone.evaluate(NO_SIDEWAYS_SCROLL)
    assert fork.forked_from_id == table.pk and fork.forked_at == 2
