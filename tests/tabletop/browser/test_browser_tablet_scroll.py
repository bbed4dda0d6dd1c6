"""The GM's tablet keeps its place when the GM taps a decision for a seat (issue 25: it jumped from the
decision panel to the bottom of the page, 836 -> 1950 px, hiding the panel; phones kept their place)."""

import pytest

from tests.browser import chromium, log_in, wait_for_version
from tests.factories import army_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TABLET_1024 = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}
TOLERANCE_PX = 40


def test_a_decision_tapped_for_a_seat_leaves_the_decision_panel_in_view(live_server, world):
    table = army_table(world.campaign, [world.ann, world.ben])
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET_1024)
        gm.goto(f"{live_server.url}/c/{world.campaign.slug}/tables/{table.pk}/")
        wait_for_version(gm, 0)
        for version in (1, 2):
            gm.evaluate("document.querySelector('#live .army-decision').scrollIntoView({block: 'start'})")
            before = gm.evaluate("window.scrollY")
            gm.locator("#live .army-decision button:not([disabled])").first.tap()
            wait_for_version(gm, version)
            gm.wait_for_timeout(300)  # any late scroll (a focus, a script) has happened
            after = gm.evaluate("window.scrollY")
            top = gm.evaluate("document.querySelector('#live .army-decision').getBoundingClientRect().top")
            assert abs(after - before) <= TOLERANCE_PX, (version, before, after)
            assert -TOLERANCE_PX <= top < 768 - TOLERANCE_PX, (version, top)  # the panel is still in view
