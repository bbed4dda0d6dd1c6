"""GOT'M on a 390 px phone: the shopper taps cards of the hand, then the card of the shop (issue 15).

Ben shops first with sorted piles (his hearts are 3♥ 5♥ 7♥ 9♥, the shop shows the Ogre Warrior J♥
at 11). Tapping 5♥ and 9♥ and then the Warrior asks first, since 3 would be lost; the picks stay
picked, Ben swaps 5♥ for 3♥, is told the cheaper payment still loses 1, confirms, and hires.
The page stays on the phone (no sideways scroll, 44 px targets, no serious axe finding) meanwhile;
then, at 360 px, Ben places his squad by tapping the Warrior itself. In combat, Ann taps two elites and
two targets for a Coordinated Assault and then the pairing she means (ruling M24).
"""

import os

import pytest
from django.urls import reverse

from tabletop.engines.gotm import cards
from tabletop.services.tables import SeatSpec, table_create, table_play

from tests.a11y import phone_check
from tests.browser import PHONE, chromium, log_in, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SORTED_DECKS = {"mercenaries": list(cards.MERCENARIES), "resources": list(cards.RESOURCES),
                "artifacts": list(cards.ARTIFACTS)}


def test_the_shopper_taps_cards_then_the_mercenary_and_confirms_the_loss(live_server, world):
    table = table_create(campaign=world.campaign, game="gotm", title="Booty Bay duel",
                         seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                         config={"series_game": 0, "decks": SORTED_DECKS}, seed=5)
    url = live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=1).token])
    with chromium() as browser:
        phone = log_in(browser, live_server, world.ben.user.username, PHONE)
        phone.goto(url)
        wait_for_version(phone, 0)
        hand = phone.locator("fieldset.cardpick")
        summary = hand.locator("[data-cardpick-summary]")
        assert summary.inner_text() == "Nothing picked yet."

        hand.locator("label.cardpick-card", has=phone.locator("input[value='5H']")).tap()
        hand.locator("label.cardpick-card", has=phone.locator("input[value='9H']")).tap()
        assert summary.inner_text() == "Picked: 5♥ 9♥ · worth 14"
        assert phone.locator("input[value='9H']").is_checked()
        problems = phone_check(phone, "GOT'M seat page with two cards picked")
        assert not problems, "\n".join(problems)

        phone.get_by_role("button", name="Hire the Ogre Warrior").tap()
        phone.locator("#live .msg.error", has_text="3 over the price is lost").wait_for(timeout=10_000)
        assert "3♥ 9♥ would lose only 1" in phone.locator("#live .msg.error").inner_text()
        assert phone.locator("input[value='5H']").is_checked(), "the picks survive the server's answer"
        assert phone.locator("#live").get_attribute("data-version") == "0"
        if os.environ.get("PHONE_SHOTS"):  # a picture of the page, to look at
            phone.screenshot(path=os.path.join(os.environ["PHONE_SHOTS"], "gotm-confirm.png"), full_page=True)
        problems = phone_check(phone, "GOT'M seat page asking to confirm a loss")
        assert not problems, "\n".join(problems)

        phone.locator("label.cardpick-card", has=phone.locator("input[value='5H']")).tap()
        phone.locator("label.cardpick-card", has=phone.locator("input[value='3H']")).tap()
        assert phone.locator("[data-cardpick-summary]").inner_text() == "Picked: 3♥ 9♥ · worth 12"
        phone.get_by_role("button", name="Hire the Ogre Warrior").tap()
        phone.locator("#live .msg.error", has_text="1 over the price is lost").wait_for(timeout=10_000)
        phone.locator("button", has_text="Pay 3♥ 9♥ and lose 1").tap()
        wait_for_version(phone, 1)
        assert phone.locator("#live .msg.error").count() == 0
        table.refresh_from_db()
        assert "JH" in table.state["hands"][1] and sorted(table.state["spent"]) == ["3H", "9H"]

        for seat, version in ((0, 1), (1, 2)):  # both are done: the squads are placed, at 360 px too
            table_play(table_id=table.pk, seat=seat, action={"type": "done"}, version=version, client_action_id="")
        phone.set_viewport_size({"width": 360, "height": 740})
        phone.goto(url)
        wait_for_version(phone, 3)
        problems = phone_check(phone, "GOT'M seat page placing the squad at 360 px")
        assert not problems, "\n".join(problems)
        phone.get_by_role("button", name="Place Ogre Warrior (J♥) at position 1").tap()
        wait_for_version(phone, 4)
        assert phone.locator("h2", has_text="Place your squad: card 2 of 3").count() == 1
    table.refresh_from_db()
    assert [slot["card"] for slot in table.state["squads"][1]] == ["JH"]


def test_a_coordinated_assault_is_tapped_then_the_pairing_chosen(live_server, world):
    """Ann taps her 7♣ and 9♣, then Ben's 2♣ and 4♣: both pairings are legal, so she is asked which (M24)."""
    table = table_create(campaign=world.campaign, game="gotm", title="Booty Bay duel",
                         seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                         config={"series_game": 0, "decks": SORTED_DECKS}, seed=5)
    moves = [(1, {"type": "done"}), (0, {"type": "done"})]
    for ben, ann in (("JC", "QC"), ("2C", "7C"), ("4C", "9C")):
        moves += [(1, {"type": "deploy", "card": ben}), (0, {"type": "deploy", "card": ann})]
    for seat, action in moves:
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version,
                           client_action_id="").table
    url = live_server.url + reverse("tabletop:seat_table", args=[table.seats.get(index=0).token])
    with chromium() as browser:
        phone = log_in(browser, live_server, world.ann.user.username, PHONE)
        phone.goto(url)
        wait_for_version(phone, 8)
        form = phone.locator("#gotm-assault")
        for card in ("7C", "9C", "2C", "4C"):
            form.locator("label.cardpick-card", has=phone.locator(f"input[value='{card}']")).tap()
        assert form.locator("[data-cardpick-summary]").first.inner_text() == "Picked: 7♣, 9♣"
        form.locator("button", has_text="Coordinated Assault").tap()
        phone.locator("#live .msg.error", has_text="which elite attacks which card").wait_for(timeout=10_000)
        assert phone.locator("#gotm-assault input[value='4C']").is_checked(), "the picks survive the answer"
        problems = phone_check(phone, "GOT'M seat page offering the two pairings of an assault")
        assert not problems, "\n".join(problems)
        phone.locator(".gotm-confirm button", has_text="Coordinated Assault: 7♣ on 4♣, 9♣ on 2♣").tap()
        wait_for_version(phone, 9)
    table.refresh_from_db()
    assert [slot["dead"] for slot in table.state["squads"][1]] == [False, True, True]
    chosen = "Coordinated Assault: 7♣ (Gnoll elite) on 4♣ (Gnoll shield) and 9♣"
    assert any(chosen in str(line) for line in table.state["events"]), "the pairing tapped is the one made"
