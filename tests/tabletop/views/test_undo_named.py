"""Undo names what it takes back (issue 25): the GM's Undo asks in the page (no browser dialog), naming the
action as the GM saw it; every seat's page then says what the GM took back, named only as that seat could
see it: never a card hidden from that seat."""

import pytest
from django.urls import reverse

from tabletop import taken_back
from tabletop.engines import get_engine, sight
from tabletop.engines.kernel import GM
from tabletop.models import Seat, Table, TableAction
from tabletop.services.forks import log_entries
from tabletop.services.tables import table_play, table_undo

from tests.factories import army_table, gridaris_table
from tests.tables import play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def gm_url(table, name):
    return reverse(name, args=[table.campaign.slug, table.pk])


def seat_page(client, table, index, **extra):
    return client.get(reverse("tabletop:seat_table", args=[Seat.objects.get(table=table, index=index).token]), **extra)


def test_undo_asks_in_the_page_naming_the_action_as_the_gm_saw_it(client, world):
    table = play_next(play_next(gridaris_table(world.campaign, [world.ann, world.ben])))
    client.force_login(world.gm.user)
    page = client.get(gm_url(table, "tabletop:gm_table")).content.decode()
    assert "hx-confirm" not in page and 'id="undo"' in page  # no browser dialog

    response = client.get(gm_url(table, "tabletop:gm_undo_confirm"), **HX)

    names = {"0": "Ann the Bold", "1": "Ben the Sly"}
    named = log_entries(table, names)[0][0]  # the what-if list's words for the newest move
    asked = response.content.decode()
    assert response.status_code == 200 and 'id="live"' in asked and "<html" not in asked
    assert f"Take back move 2 (Ben the Sly): <strong>{named['what']}</strong>?" in asked
    assert named["what"] and 'id="undo-yes"' in asked and 'id="undo-keep"' in asked
    assert Table.objects.get(pk=table.pk).version == 2  # asking takes nothing back

    response = client.post(gm_url(table, "tabletop:gm_undo"), {"version": 2}, **HX)
    assert response.status_code == 200 and Table.objects.get(pk=table.pk).version == 3


def test_the_question_is_answered_for_the_version_it_named(client, world):
    """A table that moved on between the question and the answer refuses it: Undo never takes back
    another action than the one it named."""
    table = play_next(gridaris_table(world.campaign, [world.ann, world.ben]))
    client.force_login(world.gm.user)
    assert "Take back move 1" in client.get(gm_url(table, "tabletop:gm_undo_confirm"), **HX).content.decode()
    play_next(table)
    response = client.post(gm_url(table, "tabletop:gm_undo"), {"version": 1}, **HX)
    assert response.status_code == 409 and not TableAction.objects.filter(kind="undo").exists()


def test_a_table_with_nothing_to_undo_asks_nothing(client, world):
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    client.force_login(world.gm.user)
    page = client.get(gm_url(table, "tabletop:gm_undo_confirm"), **HX).content.decode()
    assert "Take back" not in page and "There is nothing to undo." in page


def _face_down_play(table):
    """Play up to the first card a seat plays that stays hidden from the other seat; (table, seat, card name)."""
    engine = get_engine("army")
    for _ in range(40):
        seat = engine.to_act(table.state)[0]
        if seat != GM:
            names = engine.card_names(table.state)
            for action in engine.legal_actions(table.state):
                if action["seat"] == seat and action["type"] == "play":
                    after = table_play(table_id=table.pk, seat=seat, action={k: v for k, v in action.items()
                                                                                if k != "seat"},
                                       version=table.version).table
                    other = 1 - seat
                    if action["card"] in engine.hidden_from(after.state, other):
                        return after, seat, names[action["card"]]
                    table = after
                    break
            else:
                table = play_next(table)
        else:
            table = play_next(table)
    raise AssertionError("no face-down play")


def test_every_seat_is_told_what_the_gm_took_back_and_only_what_it_could_see(client, world):
    table, seat, card = _face_down_play(army_table(world.campaign, [world.ann, world.ben]))
    other = 1 - seat
    members = (world.ann, world.ben)
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)

    client.force_login(members[seat].user)
    own = seat_page(client, table, seat).content.decode()
    assert "The GM took back: Play " in own and card in own[own.index("The GM took back"):][:200]

    client.force_login(members[other].user)
    response = seat_page(client, table, other)
    told = response.content.decode()
    note = told[told.index("The GM took back: "):]
    note = note[: note.index("</p>")]
    assert response.status_code == 200 and card not in note


def test_the_note_names_another_seat_s_hidden_move_only_as_its_move(world):
    table, seat, card = _face_down_play(army_table(world.campaign, [world.ann, world.ben]))
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    table = Table.objects.get(pk=table.pk)
    table.last_undo = table.version
    engine = get_engine("army")
    names = {"0": "Ann", "1": "Ben"}
    own = taken_back.seat_notes(table, seat, names)
    told = taken_back.seat_notes(table, 1 - seat, names)
    assert len(own) == 1 and card in own[0]
    assert len(told) == 1 and card not in told[0]
    secret = engine.card_names(table.state)
    hidden = {secret[i] for i in engine.hidden_from(table.state, 1 - seat) if i in secret}
    visible = sight.names_visible(sight.sight(engine, table.state, 1 - seat), secret)
    assert not [name for name in hidden - visible if name in told[0]]


def test_the_note_stays_a_few_moves_then_goes(client, world):
    table = play_next(gridaris_table(world.campaign, [world.ann, world.ben]))
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    client.force_login(world.ben.user)
    assert "The GM took back: " in seat_page(client, table, 1).content.decode()
    for _ in range(taken_back.NOTE_MOVES - 1):
        table = play_next(table)
    assert "The GM took back: " in seat_page(client, table, 1).content.decode()
    table = play_next(table)
    assert "The GM took back" not in seat_page(client, table, 1).content.decode()


def test_a_seat_page_reads_the_log_only_after_a_recent_undo(client, world, django_assert_num_queries):
    table = play_next(gridaris_table(world.campaign, ["Gus", "Gwen"]))
    poll = reverse("tabletop:seat_poll", args=[Seat.objects.get(table=table, index=1).token])
    with django_assert_num_queries(2):  # the seat, the table (the newest undo in the same query)
        response = client.get(poll, {"v": "-"}, **HX)
    assert response.status_code == 200 and "The GM took back" not in response.content.decode()
    table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    with django_assert_num_queries(2 + 2):  # and the table's start and its log, replayed once
        response = client.get(poll, {"v": "-"}, **HX)
    assert response.status_code == 200 and "The GM took back: " in response.content.decode()
