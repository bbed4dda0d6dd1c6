"""On a 360 px phone the GM filters the activity log and changes a setting, with no sideways scroll."""

import pytest

from campaign.activity import activity_record
from campaign.models import Activity, Campaign

from tests.browser import chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_the_gm_uses_the_activity_log_and_settings_on_a_phone(live_server, world):
    campaign = world.campaign
    for number in range(3):
        activity_record(
            campaign=campaign,
            actor=world.gm.user,
            kind=Activity.Kind.ADJUSTMENT,
            summary=f"Adjusted Lady Vey's treasury with a rather long reason number {number} " + "x" * 60,
        )
    activity_record(campaign=campaign, actor=None, kind=Activity.Kind.DAY_END, summary="Day 1 ended")

    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", PHONE_360)
        gm.goto(f"{live_server.url}/c/{campaign.slug}/activity/")
        assert gm.locator(".activity-line").count() == 4
        assert gm.evaluate(NO_SIDEWAYS_SCROLL)

        gm.select_option("select[name=who]", "schedule")  # htmx swaps the list on change
        gm.locator(".activity-line", has_text="Adjusted").first.wait_for(state="detached")
        assert gm.locator(".activity-line").count() == 1
        assert "Day 1 ended" in gm.locator("#activity-log").inner_text()
        assert "who=schedule" in gm.url

        gm.goto(f"{live_server.url}/c/{campaign.slug}/settings/")
        assert gm.evaluate(NO_SIDEWAYS_SCROLL)
        gm.fill("input[name=battle_cooldown_minutes]", "90")
        gm.click("button:has-text('Save the settings')")
        gm.locator(".msg", has_text="battle cooldown 60 → 90 minutes").wait_for()
        assert gm.evaluate(NO_SIDEWAYS_SCROLL)

    assert Campaign.objects.get(pk=campaign.pk).battle_cooldown_minutes == 90
