"""Mercenarium on a 390 px phone (issue 15): the board's text is never under 12 px, a tapped card lights exactly
the squares the engine allows it, and tapping a lit square plays the move. axe-core finds nothing serious."""

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.services.tables import SeatSpec, table_create, table_play

from tests.a11y import phone_check
from tests.browser import chromium, log_in, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_390 = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PHONE_360 = {**PHONE_390, "viewport": {"width": 360, "height": 740}}

# Every element of the board that shows text of its own, with its computed font size.
BOARD_TEXT_SIZES_JS = """() => [...document.querySelectorAll('.merc-board *')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
    && [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .map(el => [el.className || el.tagName, el.textContent.trim(), parseFloat(getComputedStyle(el).fontSize)])"""
LIT_JS = "() => [...document.querySelectorAll('.merc-cell.lit')].map(c => c.dataset.mercCell).sort()"


def small_text(page) -> list:
    return [found for found in page.evaluate(BOARD_TEXT_SIZES_JS) if found[2] < 12]


def test_a_phone_selects_a_card_sees_its_legal_squares_and_plays_by_tapping_one(live_server, world):
    table = table_create(campaign=world.campaign, game="mercenarium", title="Anthromancer night",
                         seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)], config={}, seed=5)
    engine = get_engine("mercenarium")
    for _ in range(2):  # each player summons their lowest card to their House: dots, moves and summons on the board
        lowest = min((a for a in engine.legal_actions(table.state) if a["type"] == "summon"),
                     key=lambda a: table.state["cards"][a["card"]]["value"])
        table = table_play(table_id=table.pk, seat=lowest.pop("seat"), action=lowest, version=table.version,
                           client_action_id="").table
    seat = engine.to_act(table.state)[0]
    actions = engine.legal_actions(table.state)
    summons = {}
    for action in actions:
        if action["type"] == "summon":
            summons.setdefault(action["card"], []).append(action["to"])
    moves = {}
    for action in actions:
        if action["type"] in ("move", "capture", "annihilate"):
            moves.setdefault(action["from"], []).append(action["to"])
    assert summons and moves and table.state["board"]
    card, squares = max(summons.items(), key=lambda item: len(item[1]))

    with chromium() as browser:
        page = log_in(browser, live_server, ("ann", "ben")[seat], PHONE_390)
        page.goto(live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=seat).token]))
        wait_for_version(page, table.version)
        assert small_text(page) == []
        assert page.evaluate(LIT_JS) == []
        findings = phone_check(page, "the board at rest")

        page.locator(f'[data-merc-pick="card:{card}"]').click()
        assert page.evaluate(LIT_JS) == sorted(squares)
        assert page.locator(f'[data-merc-pick="card:{card}"]').get_attribute("aria-pressed") == "true"
        assert page.locator(".merc-pick.selected").count() == 1
        assert small_text(page) == []
        findings += phone_check(page, "a card selected")

        origin, targets = next(iter(sorted(moves.items())))
        page.locator(f'[data-merc-pick="cell:{origin}"]').click()
        assert page.evaluate(LIT_JS) == sorted(targets), "another card: its own squares only"
        page.locator(f'[data-merc-pick="cell:{origin}"]').click()
        assert page.evaluate(LIT_JS) == [], "tapping the selected card again clears the selection"
        assert findings == []

        page.locator(f'[data-merc-pick="card:{card}"]').click()
        target = squares[-1]
        page.locator(f'.merc-cell[data-merc-cell="{target}"] .merc-go.lit button').click()
        wait_for_version(page, table.version + 1)
        table.refresh_from_db()
        assert table.state["board"][target] == {"card": card, "owner": seat}
        assert page.evaluate(LIT_JS) == [], "the move clears the selection"

        table.refresh_from_db()  # the GM, on a 360 px phone, can enter the next player's move the same way
        gm = log_in(browser, live_server, "gm", PHONE_360)
        gm.goto(live_server.url + reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]))
        wait_for_version(gm, table.version)
        assert small_text(gm) == []
        chosen = next(a["card"] for a in engine.legal_actions(table.state) if a["type"] == "summon")
        gm.locator(f'[data-merc-pick="card:{chosen}"]').click()
        assert gm.evaluate(LIT_JS) == sorted(a["to"] for a in engine.legal_actions(table.state)
                                             if a["type"] == "summon" and a["card"] == chosen)
        assert phone_check(gm, "the GM's page, a card selected") == []


def test_a_phone_learns_a_hymn_by_tapping_the_offering_then_learn(live_server, world):
    """Ruling MC4: tap the cards of the offering, then "Learn a hymn"; a refused set stays picked with the sentence."""
    table = table_create(campaign=world.campaign, game="mercenarium", title="Anthromancer night",
                         seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)], config={}, seed=5)
    seat = table.state["turn"]
    hymn = next(c for c in table.state["hands"][seat] if c.startswith("H"))
    plain = [c for c in table.state["hands"][seat] if not c.startswith("H")]
    card = lambda card_id: page.locator(f'#merc-learn label.cardpick-card:has(input[value="{card_id}"])')  # noqa: E731

    with chromium() as browser:
        page = log_in(browser, live_server, ("ann", "ben")[seat], PHONE_390)
        page.goto(live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=seat).token]))
        wait_for_version(page, table.version)
        card(plain[0]).click()
        card(plain[1]).click()
        summary = page.locator("#merc-learn [data-cardpick-summary]").inner_text()
        assert summary.startswith("Picked: ") and "worth" not in summary
        findings = phone_check(page, "an offering picked")
        page.locator("#merc-learn button.merc-learn-go").click()
        page.get_by_text("(2 picked besides it)").wait_for()
        assert page.locator("#merc-learn input.cardpick-box:checked").count() == 2
        table.refresh_from_db()
        assert table.version == 0
        card(plain[1]).click()
        page.locator("#merc-learn button.merc-learn-go").click()
        wait_for_version(page, 1)
        table.refresh_from_db()
        assert hymn not in table.state["hands"][seat] and plain[0] in table.state["discard"]
        assert findings == []
