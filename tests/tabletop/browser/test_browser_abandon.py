"""The GM abandons a staked side-event table from a tablet; a player's phone shows it abandoned and the refund.

Tablet context 1024x768; phone context 360x740 (is_mobile, has_touch): no sideways scroll there.
"""

import pytest

from campaign.ledger import balance_of
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import Table
from tabletop.services.stakes import StakeTerms, table_open_with_stakes
from tabletop.services.tables import SeatSpec

from tests.armies.factories import CommanderFactory
from tests.browser import chromium, log_in, wait_for_version
from tests.tables import play_next

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET = {"viewport": {"width": 1024, "height": 768}}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def test_the_gm_abandons_a_staked_table_and_the_players_phone_shows_it_and_the_refund(live_server, world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=50)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=30)
    table = table_open_with_stakes(
        campaign=world.campaign,
        game="gridaris",
        title="Gridaris at the Inn",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
        config={"mode": "standard", "cards": STARTER_CARDS},
        stakes=StakeTerms(entry_fee=10, payout="winner_takes_all", accounts={
            world.ann.pk: vey.account, world.ben.pk: marr.account}),
        created_by=world.gm.user,
        seed=7,
    )
    table = play_next(play_next(table))
    assert (balance_of(vey.account), balance_of(marr.account)) == (40, 20)
    slug = world.campaign.slug

    with chromium() as browser:
        phone = log_in(browser, live_server, "ann", PHONE)
        phone.goto(f"{live_server.url}/play/{table.seats.get(index=0).token}/")
        wait_for_version(phone, table.version)

        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(f"{live_server.url}/c/{slug}/tables/{table.pk}/")
        wait_for_version(gm, table.version)
        gm.click("#abandon")
        gm.wait_for_selector("text=Abandon Gridaris at the Inn?")
        assert gm.locator(".abandon-refunds li", has_text="gets back 10 coins").count() == 2
        gm.fill("textarea[name=reason]", "The inn is closing")
        gm.click("#abandon-confirm")
        gm.wait_for_selector("text=Gridaris at the Inn was abandoned. Every entry fee was refunded.")
        assert gm.locator(".abandoned-note").inner_text().startswith("Abandoned by gm on day 1: The inn is closing")
        assert gm.locator("#undo").count() == 0 and gm.locator("#abandon").count() == 0

        # the phone's poll notices the abandon on its own
        phone.wait_for_selector("#live[data-status=abandoned]", timeout=20_000)
        assert "Abandoned by gm on day 1: The inn is closing" in phone.locator(".abandoned-note").inner_text()
        assert "refunded 10" in phone.locator(".stakes").inner_text()
        assert phone.locator(".abandoned-board button:enabled").count() == 0
        assert phone.evaluate(NO_SIDEWAYS_SCROLL)

        phone.goto(f"{live_server.url}/c/{slug}/armies/{vey.pk}/")
        assert phone.locator("h2", has_text="Treasury: 50 coins").count() == 1
        assert phone.locator("td", has_text="Refund: Gridaris at the Inn was abandoned").count() == 1
        assert phone.evaluate(NO_SIDEWAYS_SCROLL)

    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED
    assert (balance_of(vey.account), balance_of(marr.account)) == (50, 30)


def test_the_confirm_page_fits_a_phone(live_server, world):
    from tests.factories import army_table

    table = army_table(world.campaign, [world.ann, world.ben])
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", PHONE)
        gm.goto(f"{live_server.url}/c/{world.campaign.slug}/tables/{table.pk}/abandon/")
        gm.wait_for_selector("input[name=outcome][value=keep]")
        assert gm.evaluate(NO_SIDEWAYS_SCROLL)
        gm.check("input[name=outcome][value=release]")
        gm.fill("textarea[name=reason]", "Wrong armies")
        gm.click("#abandon-confirm")
        gm.wait_for_selector(".abandoned-note")
        assert gm.evaluate(NO_SIDEWAYS_SCROLL)
