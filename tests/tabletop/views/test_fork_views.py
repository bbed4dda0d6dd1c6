"""The GM forks a table from its log (tabletop/views/forks.py), and a what-if is marked on every page."""

import html
import re

import pytest
from django.urls import reverse

from tabletop.engines import army
from tabletop.engines.kernel import GM, PUBLIC, digest
from tabletop.models import Table, TableAction
from tabletop.services import forks as fork_services
from tabletop.services.forks import table_fork
from tabletop.services.tables import table_play, table_undo

from tests.cards import names_card
from tests.counted import counted_get
from tests.factories import army_table
from tests.forms import once, tokens_in
from tests.tables import next_move, play_next
from tests.tabletop._pages import pages

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
NOTHING_COUNTS = "nothing here counts."


def url(table, name):
    return reverse(name, args=[table.campaign.slug, table.pk])


def fork_post(client, table, version, **extra):
    return client.post(url(table, "tabletop:table_fork"), once(version=version, **extra))


def played(table, moves):
    for _ in range(moves):
        table = play_next(table)
    return table


def test_each_log_entry_gets_a_what_if_control_that_posts_its_version(client, world, table):
    table = played(table, 3)
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)  # move 4 undoes move 3
    client.force_login(world.gm.user)
    gm_page = client.get(url(table, "tabletop:gm_table")).content.decode()
    assert "Fork this table at a move of its log" in gm_page
    assert f'<summary hx-get="{url(table, "tabletop:table_whatif")}"' in gm_page  # loads when opened

    box = client.get(url(table, "tabletop:table_whatif"), **HX).content.decode()
    versions = re.findall(r'type="hidden" name="version" value="(\d+)"', box)
    assert versions == ["4", "3", "2", "1", "0"]  # newest first; move 0 is the set-up
    assert len(set(tokens_in(box))) == 5  # each control its own one-time token
    assert box.count(">What if… only me</button>") == box.count(">…the players</button>") == 5
    assert "<html" not in box and 'type="number"' not in box  # every move is listed: nothing to type
    assert "Undo of move 3" in box and "taken back by move 4" in box
    whole = client.get(url(table, "tabletop:table_whatif")).content.decode()
    assert "<html" in whole and "Back to the table" in whole


def test_forking_redirects_to_the_forks_gm_page_which_says_it_is_a_what_if(client, world, table):
    table = played(table, 3)
    client.force_login(world.gm.user)
    response = fork_post(client, table, 2)
    fork = Table.objects.get(what_if=True)
    assert response.status_code == 302 and response["Location"] == url(fork, "tabletop:gm_table")
    assert digest(fork.state) == TableAction.objects.get(table=table, seq=2).digest

    page = client.get(response["Location"]).content.decode()
    assert "What-if: Test table from move 2" in page and 'class="badge what-if"' in page
    assert f'<a href="{url(table, "tabletop:gm_table")}">Test table</a>' in page
    assert "at move 2: " + NOTHING_COUNTS in page
    assert "a what-if of Test table at move 2. Only you play it" in page  # the message
    assert "Nothing played here counts." in page

    original = client.get(url(table, "tabletop:gm_table")).content.decode()
    assert "What-ifs forked from this table" in original
    assert f'href="{url(fork, "tabletop:gm_table")}">What-if: Test table from move 2</a>' in original


def test_the_marker_is_on_every_seat_phone_and_the_projector_without_a_link_to_the_gm_page(client, world, table):
    table = played(table, 2)
    fork = table_fork(table_id=table.pk, version=1, user=world.gm.user, players=True)
    client.force_login(world.gm.user)
    shown = pages(client, fork)
    for index, member in ((0, world.ann), (1, world.ben)):  # a member's fork seat opens with their login (WI3)
        client.force_login(member.user)
        seat_url = reverse("tabletop:seat_table", args=[fork.seats.get(index=index).token])
        shown[index] = client.get(seat_url).content.decode()
    client.force_login(world.gm.user)
    for viewer in (0, 1, PUBLIC):
        assert NOTHING_COUNTS in shown[viewer] and 'class="badge what-if"' in shown[viewer], viewer
        assert "<strong>Test table</strong>" in shown[viewer]
        assert url(table, "tabletop:gm_table") not in shown[viewer]
    assert NOTHING_COUNTS not in "".join(pages(client, table).values())  # the original is no what-if


def test_the_live_region_after_an_action_keeps_the_marker(client, world, table):
    fork = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    client.force_login(world.gm.user)
    seat, action = next_move(fork)
    response = client.post(url(fork, "tabletop:gm_act"),
                           {**action, "version": 0, "as_seat": seat, "client_action_id": "x"}, **HX)
    assert response.status_code == 200 and NOTHING_COUNTS in response.content.decode()


def test_an_older_move_than_the_list_shows_is_forked_by_typing_it(client, world, table, monkeypatch):
    monkeypatch.setattr(fork_services, "SHOWN_ENTRIES", 2)
    table = played(table, 4)
    client.force_login(world.gm.user)
    box = client.get(url(table, "tabletop:table_whatif"), **HX).content.decode()
    assert re.findall(r'type="hidden" name="version" value="(\d+)"', box) == ["4", "3", "0"]
    assert "The list shows the newest 2 moves; type the number of an older move of the log" in box
    assert 'type="number" name="version" min="0" max="4"' in box
    response = fork_post(client, table, "1")
    assert response.status_code == 302 and Table.objects.get(what_if=True).forked_at == 1


def test_a_double_submit_makes_one_fork(client, world, table):
    client.force_login(world.gm.user)
    data = once(version=0)
    first = client.post(url(table, "tabletop:table_fork"), data)
    second = client.post(url(table, "tabletop:table_fork"), data)
    fork = Table.objects.get(what_if=True)
    assert first["Location"] == second["Location"] == url(fork, "tabletop:gm_table")
    page = client.get(second["Location"]).content.decode()
    assert "Already done" in page


def test_a_bad_version_or_a_missing_token_is_refused_with_a_sentence_and_nothing_is_made(client, world, table):
    client.force_login(world.gm.user)
    response = fork_post(client, table, 5)
    assert response.status_code == 400
    assert "Test table has no move 5: a what-if starts from one of its moves 0 to 0." in response.content.decode()
    response = client.post(url(table, "tabletop:table_fork"), {"version": 0})
    assert response.status_code == 400 and "one-time token" in response.content.decode()
    response = fork_post(client, table, "two")
    assert response.status_code == 400 and "whole number" in response.content.decode()
    assert not Table.objects.filter(what_if=True).exists()


def test_a_player_cannot_fork_or_see_the_log_controls(client, world, table):
    client.force_login(world.ann.user)
    assert fork_post(client, table, 0).status_code == 403
    assert client.get(url(table, "tabletop:table_whatif")).status_code == 403
    seat_page = client.get(reverse("tabletop:seat_table", args=[table.seats.get(index=0).token])).content.decode()
    assert "What if…" not in seat_page
    assert not Table.objects.filter(what_if=True).exists()


def test_the_table_lists_mark_a_what_if(client, world, table):
    fork = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    client.force_login(world.gm.user)
    home = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert re.search(r'<span class="badge what-if">What-if</span> <a href="[^"]+">What-if: Test table from move 0</a>',
                     home)
    assert fork.title in home


def test_an_abandon_of_a_battle_what_if_offers_no_result_to_keep(client, world):
    battle = army_table(world.campaign, [world.ann, world.ben])
    fork = table_fork(table_id=battle.pk, version=0, user=world.gm.user)
    client.force_login(world.gm.user)
    assert "Keep the result so far" in client.get(url(battle, "tabletop:table_abandon")).content.decode()
    assert "Keep the result so far" not in client.get(url(fork, "tabletop:table_abandon")).content.decode()


def test_a_battle_what_if_never_shows_a_seat_what_it_cannot_see(client, world):
    table = army_table(world.campaign, [world.ann, world.ben])
    for _ in range(12):
        seat = army.to_act(table.state)[0]
        action = army.legal_actions(table.state)[0]
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    fork = table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=True)
    client.force_login(world.gm.user)
    shown = pages(client, fork)
    for viewer in (0, 1, PUBLIC):
        for card_id in army.hidden_from(fork.state, viewer):
            assert not names_card(shown[viewer], card_id), (viewer, card_id)
    assert NOTHING_COUNTS in shown[GM]
    box = client.get(url(table, "tabletop:table_whatif"), **HX).content.decode()
    named = [card["name"] for card in table.state["cards"].values() if html.escape(card["name"]) in box]
    assert named  # the GM's list names what was played, cards and all (ruling WI11): the GM sees everything


def test_the_pages_do_a_fixed_number_of_queries_however_many_forks_and_moves(client, world, table):
    client.force_login(world.gm.user)
    table = played(table, 2)
    table_fork(table_id=table.pk, version=1, user=world.gm.user)
    gm_page, whatif = url(table, "tabletop:gm_table"), url(table, "tabletop:table_whatif")
    forks = "What-ifs forked from this table"
    few = counted_get(client, gm_page, queries=11, contains=[forks, "What-if: Test table from move 1"]).queries
    box = counted_get(client, whatif, queries=8, contains='name="version" value="2"', **HX).queries
    table = played(table, 6)
    for version in (0, 3, 5):
        fork = table_fork(table_id=table.pk, version=version, user=world.gm.user)
    counted_get(client, gm_page, queries=few, contains=[forks, "What-if: Test table from move 5"])
    counted_get(client, whatif, queries=box, contains='name="version" value="8"', **HX)
    fork = played(fork, 2)
    # one more: the original's title
    counted_get(client, url(fork, "tabletop:gm_table"), queries=few + 1,
                contains=["at move 5: " + NOTHING_COUNTS, f'<a href="{gm_page}">Test table</a>'])
