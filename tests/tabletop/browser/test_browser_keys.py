"""Keys on a card (issue 38): Enter or Space on a card only picks it; only a move's own button plays.

A card to pick is a radio (Gridaris's hand) or a checkbox (the tap-to-pick hands: GOT'M's shop and
Coordinated Assault, Mercenarium's offering) inside the form of the move, and a browser submits a form
when Enter is pressed in one of its fields, with the form's first button: a Gridaris card went to the
first playable battlefield, Mercenarium's offering was offered, GOT'M's shop posted a hire.
(The dungeon and the army battle have no card to pick: their cards are the moves' own buttons.)

Each test presses the keys on a guest's phone and asserts that nothing was posted (no request to the
move's URL, the table still at its version) and that the card is picked.
"""

import pytest
from django.urls import reverse

from tabletop.catalog.snapshot import gridaris_config_cards
from tabletop.engines.gotm import cards
from tabletop.models import Table
from tabletop.services.tables import SeatSpec, table_create

from tests.browser import PHONE, chromium, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SORTED_DECKS = {"mercenaries": list(cards.MERCENARIES), "resources": list(cards.RESOURCES),
                "artifacts": list(cards.ARTIFACTS)}
GUESTS = [SeatSpec(guest_name="Guest A"), SeatSpec(guest_name="Guest B")]


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def open_seat(browser, live_server, table: Table, seat: int):
    """The guest's phone at ``seat``, and the list of the moves it posts (filled as it posts them)."""
    page = browser.new_context(**PHONE).new_page()
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.goto(live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=seat).token]))
    wait_for_version(page, table.version)
    return page, posts


def nothing_posted(page, posts, table: Table) -> None:
    page.wait_for_timeout(400)  # a submitted form's request would be under way by now
    assert posts == []
    assert page.get_attribute("#live", "data-version") == str(table.version)
    assert table.actions.count() == 0
    table.refresh_from_db()
    assert table.version == 0


def test_gridaris_enter_on_a_card_picks_it_and_plays_nothing(live_server, world, browser):
    table = table_create(campaign=world.campaign, game="gridaris", title="Keys", seats=GUESTS,
                         config={"mode": "standard", "cards": gridaris_config_cards()}, seed=1)
    page, posts = open_seat(browser, live_server, table, 0)
    radios = page.locator(".hand-card input[type=radio]")
    assert radios.count() >= 2

    radios.nth(0).focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")  # the next card of the hand is picked, as a radio group does
    assert radios.nth(1).is_checked()
    page.keyboard.press("Enter")
    nothing_posted(page, posts, table)
    assert radios.nth(1).is_checked() and not radios.nth(0).is_checked()

    radios.nth(0).focus()
    page.keyboard.press("Enter")  # Enter picks the focused card too
    nothing_posted(page, posts, table)
    assert radios.nth(0).is_checked()


def pick_keys(page, posts, table: Table, form: str) -> None:
    """Space, then Enter on the cards of ``form``'s tap-to-pick hand: each toggles its card, posts nothing."""
    boxes = page.locator(f"{form} input.cardpick-box")
    assert boxes.count() >= 2
    boxes.nth(0).focus()
    page.keyboard.press("Space")
    assert boxes.nth(0).is_checked()
    page.keyboard.press("Enter")
    nothing_posted(page, posts, table)
    assert boxes.nth(0).is_checked(), "Enter on a picked card leaves it picked"
    boxes.nth(1).focus()
    page.keyboard.press("Enter")
    nothing_posted(page, posts, table)
    assert boxes.nth(1).is_checked(), "Enter picks the card"
    summary = page.locator(f"{form} [data-cardpick-summary]").inner_text()
    assert summary.startswith("Picked: ")


def test_gotm_enter_on_a_card_of_the_hand_picks_it_and_hires_nothing(live_server, world, browser):
    table = table_create(campaign=world.campaign, game="gotm", title="Keys", seats=GUESTS,
                         config={"series_game": 0, "decks": SORTED_DECKS}, seed=5)
    page, posts = open_seat(browser, live_server, table, 1)  # Ben shops first (test_browser_gotm.py)
    pick_keys(page, posts, table, "#gotm-pick")


def test_mercenarium_enter_on_a_card_of_the_offering_learns_nothing(live_server, world, browser):
    table = table_create(campaign=world.campaign, game="mercenarium", title="Keys", seats=GUESTS, config={}, seed=5)
    page, posts = open_seat(browser, live_server, table, table.state["turn"])
    pick_keys(page, posts, table, "#merc-learn")
    pick = page.locator("[data-merc-pick^='card:']").first
    pick.focus()
    page.keyboard.press("Enter")  # a card of the hand: selected, its squares lit, nothing played
    assert pick.get_attribute("aria-pressed") == "true"
    nothing_posted(page, posts, table)
