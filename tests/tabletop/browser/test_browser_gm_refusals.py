"""The GM's table page stays whole when the rules refuse what the GM typed or pressed.

A refused override (a modifier of 0, an impossible die) or a refused undo shows its
sentence inside the styled page, like a stale click; the rest of the page (top bar,
stylesheet, GM tools) stays in place and the next action works without a reload.
"""

import pytest

from tabletop.engines import army
from tabletop.engines.army.choices import dice_needed
from tabletop.services.tables import table_play, table_release_log

from tests.browser import TABLET, chromium, log_in, wait_for_version
from tests.factories import ARMY_UNITS, army_table
from tests.tables import play_next

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_page_whole(page, sentence: str) -> None:
    alert = page.locator("#live .msg.error", has_text=sentence)
    alert.wait_for(timeout=10_000)
    assert page.locator("header.topbar").count() == 1  # the page around the live region is still there
    assert page.locator("link[rel=stylesheet]").count() == 1
    assert page.locator("#live").count() == 1
    assert page.evaluate("getComputedStyle(document.querySelector('header.topbar')).display") != "inline"


def test_refused_gm_overrides_and_undo_show_their_sentence_in_the_styled_page(live_server, world):
    table = army_table(world.campaign, [world.ann, world.ben])
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(f"{live_server.url}/c/{world.campaign.slug}/tables/{table.pk}/")
        wait_for_version(gm, 0)

        modifier = gm.locator("form.army-override", has=gm.locator("input[name='amount:int']"))
        modifier.locator("input[name='amount:int']").fill("0")
        modifier.locator("button").click()
        assert_page_whole(gm, "A modifier of 0 changes nothing.")

        dice = gm.locator("form.army-override", has=gm.locator("input[name='values:ints']"))
        dice.evaluate("form => form.noValidate = true")  # what the browser's own check misses reaches the rules
        dice.locator("input[name='values:ints']").fill("9")
        dice.locator("button").click()
        assert_page_whole(gm, "9 is not a die roll")

        modifier = gm.locator("form.army-override", has=gm.locator("input[name='amount:int']"))
        modifier.locator("input[name='amount:int']").fill("2")
        modifier.locator("button").click()
        wait_for_version(gm, 1)  # the page still works: the next override is applied
        assert gm.locator("#live .msg.error").count() == 0

        table.refresh_from_db()
        while not table.is_finished:
            table = play_next(table)
        wait_for_version(gm, table.version)
        assert gm.locator("#undo").is_enabled()
        gm.locator("#undo").click()  # the question in the page, naming the move (no browser dialog)
        gm.wait_for_selector("#undo-yes")
        table_release_log(table_id=table.pk)  # meanwhile a phone downloads the log; the page still asks
        gm.locator("#undo-yes").click()
        assert_page_whole(gm, "A player has downloaded this table's full log")
        assert gm.locator("#undo").is_disabled()
        assert "cannot be undone" in gm.locator("#undo-refusal").inner_text()


def test_an_impossible_die_typed_at_a_physical_dice_table_is_refused_in_the_page(live_server, world):
    config = army.starter_config(players=["Ann", "Ben"], units=ARMY_UNITS, dice="physical")
    table = army_table(world.campaign, [world.ann, world.ben], config=config)
    while not dice_needed(table.state):
        seat = army.to_act(table.state)[0]
        actions = army.legal_actions(table.state)
        action = next((a for a in actions if a["type"] == "play"), actions[0])
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(f"{live_server.url}/c/{world.campaign.slug}/tables/{table.pk}/")
        wait_for_version(gm, table.version)
        dice = gm.locator("form.army-dice")
        dice.evaluate("form => form.noValidate = true")
        for field in dice.locator("input[name='values:ints']").all():
            field.fill("7")
        dice.locator("button").click()
        assert_page_whole(gm, "7 is not a die roll")
        assert gm.locator("form.army-dice").count() == 1  # the dice can be typed again at once
