"""The projector link on a 1920x1080 screen (issue 25, ruling PJ1): the GM makes the link on the table page,
a browser without an account opens it, and the public view fills the screen's width in large type, with no
navigation and no form; it follows the table live, and shows the refusal once the GM revokes the link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tabletop.models import ProjectorLink

from tests.browser import TABLET, chromium, log_in
from tests.factories import army_table, gridaris_table
from tests.tables import play_next

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"viewport": {"width": 1920, "height": 1080}}

# The widths of the page, the live region and the widest child of the game's view, and the root font size.
MEASURE = """() => {
  const live = document.querySelector('#live');
  const game = live.querySelector(':scope > div:not(.msg), :scope > section');
  const box = (el) => el.getBoundingClientRect();
  return {
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    live: box(live).width, liveLeft: box(live).left,
    game: game ? box(game).width : 0,
    font: parseFloat(getComputedStyle(document.documentElement).fontSize),
    nav: document.querySelectorAll('nav, header.topbar, form').length,
  };
}"""


@pytest.mark.parametrize("game", ["army", "gridaris"])
def test_the_projector_fills_a_1920_screen_without_navigation_and_follows_the_table(live_server, world, game):
    table = (army_table if game == "army" else gridaris_table)(world.campaign, ["Ann", "Ben"])
    table = play_next(table)
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(live_server.url + reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]))
        gm.click("#projector-make")
        link = gm.locator("#projector-open").get_attribute("href")
        assert link == reverse("tabletop:projector", args=[ProjectorLink.objects.get(table=table).token])

        screen = browser.new_context(**SCREEN).new_page()  # no login: the link is the permission
        screen.goto(live_server.url + link)
        screen.wait_for_selector("#live")
        measured = screen.evaluate(MEASURE)
        assert measured["scroll"] <= measured["inner"]  # no sideways scroll
        assert measured["live"] >= 0.94 * 1920 and measured["liveLeft"] <= 0.03 * 1920, measured  # the whole width
        assert measured["game"] >= 0.9 * 1920, measured  # the game's view too, not a column in the middle
        assert measured["font"] >= 22, measured  # large type for the back of the room
        assert measured["nav"] == 0, measured  # no navigation, no form

        # Live: a move at the table reaches the screen without a reload.
        table = play_next(table)
        screen.wait_for_selector(f"#live[data-key='{table.version}']")

        # Revoked: the screen shows the refusal, not the table.
        gm.click("#projector-revoke")
        screen.wait_for_selector("text=This projector link was revoked, or never was")
        assert screen.locator("#live").count() == 0
