"""The GM edits a commander without the admin, on a tablet and on a 360 px phone (issue 13)."""

import pytest

from armies.models import Commander

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.browser import chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"viewport": {"width": 1024, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def press(locator, device) -> None:
    """A tap on the phone, a click on the tablet."""
    locator.tap() if device is PHONE else locator.click()


@pytest.mark.parametrize(("device", "width"), [(TABLET, 1024), (PHONE, 360)], ids=["tablet", "phone"])
def test_the_gm_edits_a_commander(live_server, world, device, width):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", progression=2, balance=10)
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen of the Long Northern March", strength=3))
    slug = world.campaign.slug
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", device)
        gm.goto(f"{live_server.url}/c/{slug}/armies/{vey.pk}/")
        press(gm.locator("#unit-actions summary").first, device)  # the per-unit GM actions open in place
        gm.wait_for_selector("#unit-actions input[name=reason]")
        assert no_sideways_scroll(gm)
        assert gm.evaluate("document.documentElement.scrollWidth") <= width
        press(gm.get_by_role("link", name="Edit", exact=True), device)
        gm.wait_for_selector("input[name=name]")
        assert no_sideways_scroll(gm)
        gm.fill("input[name=name]", "Lady Vey the Bold")
        gm.fill("input[name=progression]", "6")
        gm.fill("input[name=influence]", "1.5")
        gm.select_option("select[name=membership]", str(world.ben.pk))
        press(gm.get_by_role("button", name="Save"), device)
        gm.wait_for_selector("text=Lady Vey the Bold is saved.")
        assert "progression 6" in gm.content() and "influence 1.5" in gm.content()
        assert no_sideways_scroll(gm)
        assert gm.evaluate("document.documentElement.scrollWidth") <= width
    vey = Commander.objects.select_related("account").get(pk=vey.pk)
    assert (vey.name, vey.progression, vey.influence_halves, vey.membership_id, vey.account.owner_id) == (
        "Lady Vey the Bold", 6, 3, world.ben.pk, world.ben.pk)
