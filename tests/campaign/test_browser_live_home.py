"""A player's campaign page shows a table the GM opens for them without a reload (issue 25)."""

import pytest

from tests.browser import PHONE, TABLET, chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_ann_s_phone_shows_the_table_the_gm_opens_for_her_without_a_reload(live_server, world):
    home = f"{live_server.url}/c/{world.campaign.slug}/"
    with chromium() as browser:
        ann = log_in(browser, live_server, "ann", PHONE)
        ann.goto(home)
        ann.wait_for_selector("[data-live-region]")
        assert ann.locator("text=Market night").count() == 0
        ann.evaluate("window.stillThisPage = true")  # gone if the page were loaded again

        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(home)
        gm.click("text=New Mercenaries of Gridaris table")
        gm.fill("input[name=title]", "Market night")
        gm.check(f"input[name=members][value='{world.ann.pk}']")
        gm.check(f"input[name=members][value='{world.ben.pk}']")
        gm.click("button:has-text('Open the table')")
        gm.wait_for_selector("#live")

        ann.locator("[data-live-region] a", has_text="Market night").wait_for(timeout=15_000)
        assert ann.evaluate("window.stillThisPage") is True
        ann.locator("[data-live-region] a", has_text="Market night").click()
        ann.wait_for_selector("#live")  # her seat's page, from the link that appeared
        assert "Market night" in ann.locator("h1").inner_text()
