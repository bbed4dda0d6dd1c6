"""The new-table page says which game and how many seats before the GM submits it (issue 15)."""


import pytest
from django.urls import reverse

from tests.browser import PHONE, chromium, log_in
from tests.forms import once
from tests.tabletop._pages import preview, seats

pytestmark = pytest.mark.django_db

GAMES = {
    "gridaris": ("Mercenaries of Gridaris", "seats 2 to 5 players", "2", "5"),
    "gotm": ("Mercenaries (GOT&#x27;M)", "seats 2 players", "2", "2"),
    "mercenarium": ("Mercenarium", "seats 2 to 4 players", "2", "4"),
    "dungeon": ("Mercenaries: the dungeon deck-builder", "seats 2 to 5 players", "2", "5"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_page_names_the_game_and_its_seats_before_anything_is_submitted(client, world, game):
    title, seat_range, low, high = GAMES[game]
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:table_new", args=[world.campaign.slug, game])).content.decode()
    assert f"<h1>New table: {title}</h1>" in html
    shown = preview(html)
    assert title in shown and seat_range in shown
    assert f'data-min="{low}" data-max="{high}"' in shown and f'data-game="{game}"' in shown
    assert "No seats chosen yet" in shown and seats(html) == []
    assert "js/table_new.js" in html and "<script>" not in html  # the live preview is a static file (CSP)


def test_a_re_shown_form_lists_the_seats_as_they_will_be(client, world):
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "gotm"])
    response = client.post(url, {"title": "Too many", "members": [world.ben.pk, world.ann.pk], "guests": "Gus\n\n Ida ",
                                 "series_game": 0, **once()})
    html = response.content.decode()
    assert response.status_code == 200 and "This game seats 2 players; you chose 4." in html
    assert seats(html) == ["Ann the Bold (Player)", "Ben the Sly (Player)", "Gus guest", "Ida guest"]


def test_the_dungeon_page_says_what_its_seats_will_be(client, world):
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:table_new", args=[world.campaign.slug, "dungeon"])).content.decode()
    assert "Two players lead two mercenaries each" in preview(html)
    assert "the last seat is the Deck Master" in preview(html)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_preview_follows_the_ticks_and_the_typing_on_a_phone(live_server, world):
    with chromium() as browser:
        page = log_in(browser, live_server, "gm", {**PHONE, "viewport": {"width": 360, "height": 780}})
        page.goto(live_server.url + reverse("tabletop:table_new", args=[world.campaign.slug, "dungeon"]))
        count = page.locator("[data-preview-count]")
        assert count.inner_text() == "No seats chosen yet: tick members or type guests above."
        page.get_by_label("Ann the Bold (Player)").check()
        assert count.inner_text() == "1 seat chosen; this game seats 2 to 5: add 1 more."
        page.get_by_label("Ben the Sly (Player)").check()
        items = page.locator("[data-preview-seats] li")
        pairs = ["Ann the Bold (Player) two mercenaries", "Ben the Sly (Player) two mercenaries"]
        assert items.all_inner_texts() == pairs
        page.locator('textarea[name="guests"]').fill("Gus")
        page.locator('input[name="deck_master"]').check()
        assert items.all_inner_texts() == [*pairs, "Gus guest Deck Master"]
        assert count.inner_text() == "3 seats: ready to open."
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
