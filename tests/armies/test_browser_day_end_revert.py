"""The GM takes back a day end from the armies overview, on a tablet and on a 360 px phone.

Tap the button, see the confirmation with the refunds, confirm, see the day number back and the
message; on the phone, nothing scrolls sideways.
"""

import pytest

from armies.models import ArmyUnit
from campaign.models import Campaign

from tests.armies._day_end import Day1
from tests.browser import chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"viewport": {"width": 1024, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def no_sideways_scroll(page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide on a {widths[1]} px screen"


def take_back(page, live_server, world, *, touch: bool) -> None:
    page.goto(f"{live_server.url}/c/{world.campaign.slug}/armies/")
    button = page.get_by_role("button", name="Take back the end of day 1…")
    button.tap() if touch else button.click()
    page.wait_for_selector("#revert-refunds")
    refunds = page.inner_text("#revert-refunds")
    assert "Lady Vey" in refunds and "Lord Marr" in refunds and "Golem" in refunds and "6 coins" in refunds
    no_sideways_scroll(page)
    confirm = page.get_by_role("button", name="Yes, take back the end of day 1")
    confirm.tap() if touch else confirm.click()
    page.wait_for_url(f"{live_server.url}/c/{world.campaign.slug}/armies/")
    assert "Day 1 end taken back: 2 commanders refunded 6 coins, 1 unit returned." in page.inner_text("main")
    assert page.inner_text("section.card h2 >> nth=0") == "Day 1"
    assert page.get_by_role("button", name="End day 1…").is_visible()
    no_sideways_scroll(page)


def test_the_gm_takes_back_a_day_end_on_a_tablet_and_on_a_phone(live_server, world):
    siege = Day1(world)
    siege.end()
    with chromium() as browser:
        tablet = log_in(browser, live_server, "gm", TABLET)
        take_back(tablet, live_server, world, touch=False)
        assert Campaign.objects.get(pk=world.campaign.pk).current_day == 1
        assert ArmyUnit.objects.get(pk=siege.golem.pk).status == ArmyUnit.Status.ACTIVE

        siege.end()
        phone = log_in(browser, live_server, "gm", PHONE)
        take_back(phone, live_server, world, touch=True)
        assert Campaign.objects.get(pk=world.campaign.pk).current_day == 1
