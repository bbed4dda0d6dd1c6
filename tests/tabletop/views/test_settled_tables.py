"""A table nobody plays any more never says anyone is to act (issue 25): an abandoned table keeps its
last position, and a finished one its end, but no page of it names a seat (or the GM) to act."""

import re

import pytest
from django.urls import reverse

from tabletop.models import Seat
from tabletop.services.abandon import table_abandon
from tabletop.services.tables import SeatSpec, table_create

from tests.factories import army_table, gridaris_table
from tests.tables import play_next

pytestmark = pytest.mark.django_db
TO_ACT = ("to act", "to play", "to reinforce", "deciding", "Waiting for", " acting")


def _tables(world):
    members = [world.ann, world.ben]
    mercenarium = table_create(campaign=world.campaign, game="mercenarium", title="Night",
                               seats=[SeatSpec(membership=m) for m in members], config={}, seed=5)
    return [gridaris_table(world.campaign, members), army_table(world.campaign, members), mercenarium]


def _pages(client, world, table):
    slug = world.campaign.slug
    client.force_login(world.gm.user)
    yield "gm", client.get(reverse("tabletop:gm_table", args=[slug, table.pk]))
    yield "projector", client.get(reverse("tabletop:public_table", args=[slug, table.pk]))
    client.force_login(world.ann.user)
    yield "seat", client.get(reverse("tabletop:seat_table", args=[Seat.objects.get(table=table, index=0).token]))


def _words(page: str) -> str:
    """The page without its rules help (a glossary's words, such as "Electing not to play a card")."""
    return re.sub(r'<span class="help-text">.*?</span>', "", page, flags=re.S)


def _status_line(page: str) -> str:
    start = page.index('<p class="status"')
    return page[start:page.index("</p>", start)]


def test_an_abandoned_table_says_nobody_is_to_act(client, world):
    for table in _tables(world):
        table = play_next(table)
        table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Closing time")
        for who, response in _pages(client, world, table):
            page = response.content.decode()
            assert response.status_code == 200 and "Abandoned" in _status_line(page), (table.game, who)
            said = [words for words in TO_ACT if words in _words(page)]
            assert not said, (table.game, who, said)


def test_a_finished_table_says_nobody_is_to_act(client, world):
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    while table.status == "active":
        table = play_next(table)
    for who, response in _pages(client, world, table):
        page = response.content.decode()
        assert response.status_code == 200, who
        said = [words for words in TO_ACT if words in _words(page)]
        assert not said, (who, said)
