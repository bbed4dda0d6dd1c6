"""The "Sound on my turn" toggle (static/js/live.js) belongs to a table still being played (issue 35): it is
part of the seat's live region, so the region the push (or the poll) brings after the last move takes it away,
and a finished table's seat page never shows it."""

import pytest
from django.urls import reverse

from tabletop.models import Table

from tests.tables import play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
TOGGLE = "data-turn-sound"


def seat_region(client, table, index: int) -> str:
    """The seat's live region as the poll (and the push, the same partial) renders it."""
    token = table.seats.get(index=index).token
    response = client.get(reverse("tabletop:seat_poll", args=[token]), {"v": "x"}, **HX)
    assert response.status_code == 200
    return response.content.decode()


def seat_page(client, table, index: int) -> str:
    response = client.get(reverse("tabletop:seat_table", args=[table.seats.get(index=index).token]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_toggle_is_in_the_live_region_while_the_table_is_played(client, world, table):
    client.force_login(world.ann.user)
    assert TOGGLE in seat_page(client, table, 0)
    region = seat_region(client, table, 0)
    assert 'id="live"' in region and TOGGLE in region  # re-rendered with the region, so a swap can remove it


def test_the_last_move_swaps_the_toggle_away_and_a_finished_tables_page_has_none(client, world, table):
    while table.status == Table.Status.ACTIVE:
        table = play_next(table)
    assert table.status == Table.Status.FINISHED
    client.force_login(world.ann.user)
    region = seat_region(client, table, 0)
    assert 'data-status="finished"' in region and TOGGLE not in region
    page = seat_page(client, table, 0)
    assert 'data-status="finished"' in page and TOGGLE not in page
