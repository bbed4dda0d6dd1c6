"""Ruling P7: a seat's first download of the full log closes the table for good (no GM undo)."""

import html

import pytest
from django.urls import reverse

from tabletop.engines.kernel import IllegalAction
from tabletop.models import Table
from tabletop.services.tables import table_release_log, table_undo, undo_refusal

from tests.tables import play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
RELEASED = "A player has downloaded this table's full log"


def seat_url(table, index, name="tabletop:seat_table"):
    return reverse(name, args=[table.seats.get(index=index).token])


def gm_url(table, name="tabletop:gm_table"):
    return reverse(name, args=[table.campaign.slug, table.pk])


def finished(table: Table) -> Table:
    while not table.is_finished:
        table = play_next(table)
    return table


def undo_button(page: str) -> str:
    start = page.index('id="undo"')
    return html.unescape(page[page.rindex("<form", 0, start): page.index("</form>", start)])


# --- the service ---------------------------------------------------------------------------


def test_a_seat_may_not_release_the_log_of_a_game_in_progress(table):
    with pytest.raises(IllegalAction, match="when the game is over"):
        table_release_log(table_id=table.pk)
    table.refresh_from_db()
    assert table.log_released_at is None


def test_the_first_release_stamps_the_table_and_later_ones_keep_that_moment(table):
    table = finished(table)
    first = table_release_log(table_id=table.pk).log_released_at
    assert first is not None
    assert table_release_log(table_id=table.pk).log_released_at == first


def test_a_released_table_cannot_be_undone(world, table):
    table = finished(table)
    assert undo_refusal(table) is None  # a finished game may be reopened (ruling P4) until then
    table = table_release_log(table_id=table.pk)
    assert undo_refusal(table).startswith(RELEASED)
    with pytest.raises(IllegalAction, match=RELEASED):
        table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert Table.objects.get(pk=table.pk).is_finished


def test_undo_says_why_when_there_is_nothing_to_undo(world, table):
    assert undo_refusal(table) == "There is nothing to undo."
    table = play_next(table)
    assert undo_refusal(table) is None
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert undo_refusal(table) == "There is nothing to undo."


# --- the views -----------------------------------------------------------------------------


def test_a_seat_download_closes_the_table_and_the_gm_undo_is_refused_in_the_page(client, world, table):
    table = finished(table)
    client.force_login(world.ann.user)
    assert "closes the game for good" in client.get(seat_url(table, 0)).content.decode()  # said before the tap
    response = client.get(seat_url(table, 0, "tabletop:seat_log"))
    assert response.status_code == 200 and response.json()["game"] == "gridaris"
    table.refresh_from_db()
    assert table.log_released_at is not None

    client.force_login(world.gm.user)
    refused = client.post(gm_url(table, "tabletop:gm_undo"), {"version": table.version}, **HX)
    assert refused.status_code == 400
    assert RELEASED in html.unescape(refused.content.decode())
    table.refresh_from_db()
    assert table.is_finished and table.version == Table.objects.get(pk=table.pk).version


def test_the_gm_download_does_not_release_the_log(client, world, table):
    table = finished(table)
    client.force_login(world.gm.user)
    assert client.get(gm_url(table, "tabletop:gm_log")).status_code == 200
    table.refresh_from_db()
    assert table.log_released_at is None
    response = client.post(gm_url(table, "tabletop:gm_undo"), {"version": table.version}, **HX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert not table.is_finished


def test_a_seat_cannot_download_the_log_of_a_game_in_progress_nor_release_it(client, world, table):
    client.force_login(world.ann.user)
    assert client.get(seat_url(table, 0, "tabletop:seat_log")).status_code == 403
    table.refresh_from_db()
    assert table.log_released_at is None


def test_the_undo_button_is_disabled_with_its_reason(client, world, table):
    client.force_login(world.gm.user)
    button = undo_button(client.get(gm_url(table)).content.decode())
    assert "disabled" in button and "There is nothing to undo." in button

    table = play_next(table)
    button = undo_button(client.get(gm_url(table)).content.decode())
    assert "disabled" not in button

    table = finished(table)
    table_release_log(table_id=table.pk)
    button = undo_button(client.get(gm_url(table)).content.decode())
    assert "disabled" in button and RELEASED in button


def test_a_refusal_without_javascript_shows_its_sentence_once_in_the_page(client, world, table):
    client.force_login(world.gm.user)
    response = client.post(gm_url(table, "tabletop:gm_undo"), {"version": table.version})  # a plain form post
    page = html.unescape(response.content.decode())
    assert response.status_code == 400 and 'class="topbar"' in page
    assert page.count("There is nothing to undo.") == 2  # the alert, and the disabled button's reason
