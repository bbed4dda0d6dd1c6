"""Every game's "what happened" log is one partial, newest first (docs/rulings.md PH1)."""

import re

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.services.tables import SeatSpec, table_create

from tests.factories import army_table, gridaris_table
from tests.tables import play_next

pytestmark = pytest.mark.django_db

CONFIGS = {"gotm": {"series_game": 0}, "mercenarium": {}, "dungeon": {"mode": "competitive", "variant": "pairs"}}


def a_table(world, game):
    if game == "army":
        return army_table(world.campaign, [world.ann, world.ben])
    if game == "gridaris":
        return gridaris_table(world.campaign, [world.ann, world.ben])
    return table_create(campaign=world.campaign, game=game, title=f"A {game} table",
                        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                        config=CONFIGS[game], seed=5)


def log_lines(html: str) -> list[str]:
    section = re.search(r'<section class="card events[^"]*"[^>]*>(.*?)</section>', html, re.S)
    assert section, "the page has no log"
    assert section.group(0).count("<ol reversed>") == 1
    return [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li>(.*?)</li>", section.group(1), re.S)]


@pytest.mark.parametrize("game", ["army", "gridaris", "gotm", "mercenarium", "dungeon"])
def test_every_game_shows_its_log_newest_first_through_the_one_partial(client, world, game):
    from django.utils.html import escape

    table = a_table(world, game)
    for _ in range(3):
        table = play_next(table)
    events = get_engine(game).view(table.state, "gm")["events"]
    assert len(events) >= 2, "the test needs a log with an order to see"
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert log_lines(html) == [escape(line) for line in reversed(events)]
    assert html.count('data-order="newest-first"') == 1
