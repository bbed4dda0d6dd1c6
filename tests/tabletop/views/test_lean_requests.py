"""The requests every phone makes, counted (issues 14 and 26): an action, the fetch after a push, an idle
poll, for every game.

Each has a fixed number of queries, whatever the table's length. A member's phone reads its session; its
user comes with the seat (campaign.permissions.require_own_login); a guest's phone, with no session,
reads neither. The GM's tablet and the public view read the session, then the membership with its
campaign and user (campaign.permissions.membership_of_login). Under the test's
transaction, ``table_play``'s own transaction is a savepoint: SAVEPOINT and RELEASE are counted too.
"""

import copy
import json

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.models import Seat, Table, TableAction
from tabletop.selectors import NOTHING_TO_UNDO
from tabletop.services.seats import seat_set_bot
from tabletop.services.tables import SeatSpec, action_rng, table_create, table_undo

from tests.factories import army_table, gridaris_table
from tests.tables import next_move, play_next
from tests.tabletop._pages import PLAY, SEAT, SESSION, TABLET
from tests.tabletop._stakes import open_staked, purse

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def url(table, index, name):
    return reverse(name, args=[Seat.objects.get(table=table, index=index).token])


def next_post(table, client_action_id="tap", version=None):
    """The next legal action as the acting seat's phone posts it: (url, data); read before counting."""
    seat, action = next_move(table)
    data = {**action, "version": table.version if version is None else version, "client_action_id": client_action_id}
    return url(table, seat, "tabletop:seat_act"), data


def post_next(client, table, client_action_id="tap", version=None):
    return client.post(*next_post(table, client_action_id, version), **HX)


def the_acting_member(world, table):
    seat = get_engine(table.game).to_act(table.state)[0]
    return (world.ann, world.ben)[seat]


def test_a_member_action_costs_the_session_the_seat_and_the_play_and_renders_without_another_query(
    client, world, table, django_assert_num_queries
):
    for n in range(3):  # the same count early and later in the game
        table.refresh_from_db()
        client.force_login(the_acting_member(world, table).user)
        post = next_post(table, f"tap-{n}")
        with django_assert_num_queries(SEAT + SESSION + PLAY):
            response = client.post(*post, **HX)
        assert response.status_code == 200 and f'data-version="{n + 1}"' in response.content.decode()
    assert TableAction.objects.filter(table=table).count() == 3


def test_a_guest_phone_without_a_session_reads_no_session(client, world, django_assert_num_queries):
    table = gridaris_table(world.campaign, ["Gus", "Gwen"])
    post, poll = next_post(table), url(table, 0, "tabletop:seat_poll")
    with django_assert_num_queries(SEAT + PLAY):
        response = client.post(*post, **HX)
    assert response.status_code == 200 and 'data-version="1"' in response.content.decode()
    with django_assert_num_queries(SEAT):
        assert client.get(poll, {"v": "1"}, **HX).status_code == 204
    with django_assert_num_queries(SEAT + 1):  # the table with its stake
        response = client.get(poll, {"v": "0"}, **HX)
    assert response.status_code == 200 and "Gus" in response.content.decode()


def test_the_fetch_after_a_push_reads_the_table_once_and_an_idle_poll_not_at_all(
    client, world, table, django_assert_num_queries
):
    client.force_login(world.ann.user)
    table = play_next(table)
    poll = url(table, 0, "tabletop:seat_poll")
    with django_assert_num_queries(SEAT + SESSION):
        assert client.get(poll, {"v": str(table.version)}, **HX).status_code == 204
    with django_assert_num_queries(SEAT + SESSION + 1):  # the table with its stake (none here)
        response = client.get(poll, {"v": "0"}, **HX)
    assert response.status_code == 200 and f'data-version="{table.version}"' in response.content.decode()


def test_the_seat_page_reads_the_seat_once(client, world, table, django_assert_num_queries):
    client.force_login(world.ann.user)
    page = url(table, 0, "tabletop:seat_table")
    with django_assert_num_queries(SEAT + SESSION + 1):
        response = client.get(page)
    assert response.status_code == 200 and "Ann" in response.content.decode()


def test_a_double_tap_costs_one_query_more_than_a_stale_click_needs(client, world, table, django_assert_num_queries):
    client.force_login(the_acting_member(world, table).user)
    assert post_next(client, table, "same").status_code == 200
    table.refresh_from_db()
    client.force_login(the_acting_member(world, table).user)
    # the repeat: stale version, its id already in the log (one query) -> the table as it is, applied once
    post = next_post(table, "same", version=0)
    with django_assert_num_queries(SEAT + SESSION + PLAY - 2 + 1):
        response = client.post(*post, **HX)
    assert response.status_code == 200 and TableAction.objects.filter(table=table).count() == 1
    # a stale click with a new id: 409, the table as it is
    response = post_next(client, table, "other", version=0)
    assert response.status_code == 409 and TableAction.objects.filter(table=table).count() == 1


def test_a_reused_id_on_the_current_version_is_still_applied_once(client, world, table):
    """Only a stale post is looked up in the log; a current post carrying an id already used is
    refused by the unique constraint and answered like a repeat."""
    client.force_login(the_acting_member(world, table).user)
    assert post_next(client, table, "same").status_code == 200
    table.refresh_from_db()
    client.force_login(the_acting_member(world, table).user)
    response = post_next(client, table, "same")
    assert response.status_code == 200 and 'data-version="1"' in response.content.decode()
    assert Table.objects.get(pk=table.pk).version == 1 and TableAction.objects.filter(table=table).count() == 1


def test_a_staked_table_reads_its_staked_seats_and_shows_the_payout_in_the_final_action(
    client, world, django_assert_num_queries
):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10, seed=7)
    client.force_login(the_acting_member(world, table).user)
    post = next_post(table, "first")
    with django_assert_num_queries(SEAT + SESSION + PLAY + 1):  # the staked seats with their accounts
        response = client.post(*post, **HX)
    assert response.status_code == 200 and "pot 20" in response.content.decode()
    table.refresh_from_db()
    engine = get_engine(table.game)
    while True:  # up to the last move, which the phone posts
        seat, action = next_move(table)
        after = engine.apply(copy.deepcopy(table.state), {**action, "seat": seat}, action_rng(table, table.version + 1))
        if engine.outcome(after) is not None:
            break
        table = play_next(table)
    client.force_login(the_acting_member(world, table).user)
    response = post_next(client, table, "last")
    page = response.content.decode()
    assert response.status_code == 200 and "The pot is paid out" in page and "received 20" in page




def test_the_gm_tablet_and_the_projector_never_read_the_campaign_again(client, world, table, django_assert_num_queries):
    """The page's links name the campaign's slug: the campaign the permission check read, not another query."""
    slug = world.campaign.slug
    seat, action = next_move(table)
    client.force_login(world.gm.user)
    act = reverse("tabletop:gm_act", args=[slug, table.pk])
    # the Undo button asks nothing more: the stake and whether an action is left come with the table
    with django_assert_num_queries(TABLET + PLAY):
        response = client.post(act, {**action, "version": 0, "as_seat": seat, "client_action_id": "gm"}, **HX)
    assert response.status_code == 200 and 'data-version="1"' in response.content.decode()
    with django_assert_num_queries(TABLET + 1):  # the table with its stake (and what the Undo button asks)
        assert client.get(reverse("tabletop:gm_poll", args=[slug, table.pk]), {"v": "0"}, **HX).status_code == 200
    client.force_login(world.ann.user)
    with django_assert_num_queries(TABLET + 1):
        assert client.get(reverse("tabletop:public_poll", args=[slug, table.pk]), {"v": "0"}, **HX).status_code == 200


# Every game's table for Ann (seat 0) and Ben (seat 1), as tests/tabletop/test_rules_help.py opens them.
CONFIGS = {"gotm": {"series_game": 0}, "mercenarium": {}, "dungeon": {"mode": "competitive", "variant": "pairs"}}


def game_table(world, game: str) -> Table:
    members = [world.ann, world.ben]
    if game == "gridaris":
        return gridaris_table(world.campaign, members)
    if game == "army":
        return army_table(world.campaign, members)
    return table_create(campaign=world.campaign, game=game, title=f"A {game} table", config=CONFIGS[game],
                        seats=[SeatSpec(membership=member) for member in members], seed=5)


@pytest.mark.parametrize("game", ["army", "dungeon", "gotm", "gridaris", "mercenarium"])
def test_in_every_game_an_action_a_fetch_and_an_idle_poll_cost_the_same_few_queries(
    client, world, game, django_assert_num_queries
):
    """The acting member's tap (its legal action as JSON, as the Army's and the dungeon's buttons post it),
    then the other member's fetch after the push and its idle poll."""
    table = game_table(world, game)
    engine = get_engine(game)
    while not isinstance(engine.to_act(table.state)[0], int):  # a step the GM decides, if the game opens so
        table = play_next(table)
    seat = engine.to_act(table.state)[0]
    action = next(a for a in engine.legal_actions(table.state) if a["seat"] == seat)
    members = (world.ann, world.ben)
    client.force_login(members[seat].user)
    post = {"action": json.dumps(action), "version": table.version, "client_action_id": f"{game}-tap"}
    act = url(table, seat, "tabletop:seat_act")
    with django_assert_num_queries(SEAT + SESSION + PLAY):
        response = client.post(act, post, **HX)
    assert response.status_code == 200 and f'data-version="{table.version + 1}"' in response.content.decode()
    watcher = 1 - seat
    client.force_login(members[watcher].user)
    poll = url(table, watcher, "tabletop:seat_poll")
    with django_assert_num_queries(SEAT + SESSION + 1):  # the table with its stake
        response = client.get(poll, {"v": str(table.version)}, **HX)
    assert response.status_code == 200 and f'data-version="{table.version + 1}"' in response.content.decode()
    with django_assert_num_queries(SEAT + SESSION):
        assert client.get(poll, {"v": str(table.version + 1)}, **HX).status_code == 204


def test_the_gms_undo_button_says_the_stakes_are_paid_from_the_stake_read_with_the_table(client, world):
    """The stakes' undo check asks the stake the page's query read (issue 26): the GM's answer to the last
    move, which pays the pot out in the same transaction, and the GM's next poll both refuse the undo."""
    table = open_staked(world, [world.ann, world.ben], [purse(world.ann, 50), purse(world.ben, 50)], fee=10, seed=7)
    engine = get_engine(table.game)
    while True:
        seat, action = next_move(table)
        after = engine.apply(copy.deepcopy(table.state), {**action, "seat": seat}, action_rng(table, table.version + 1))
        if engine.outcome(after) is not None:
            break
        table = play_next(table)
    client.force_login(world.gm.user)
    slug = world.campaign.slug
    act = reverse("tabletop:gm_act", args=[slug, table.pk])
    response = client.post(act, {**action, "version": table.version, "as_seat": seat, "client_action_id": "end"}, **HX)
    assert response.status_code == 200 and "already paid out" in response.content.decode()
    poll = client.get(reverse("tabletop:gm_poll", args=[slug, table.pk]), {"v": "0"}, **HX)
    assert poll.status_code == 200 and "already paid out" in poll.content.decode()


def test_the_undo_button_knows_from_the_table_query_whether_an_action_is_left(client, world, table):
    """``live_action`` comes with the page's table (issue 26): after an action the GM may undo it; once it
    is taken back, and after a hand-over that moved the version on without an action, nothing is left."""
    client.force_login(world.gm.user)
    slug = world.campaign.slug
    seat, action = next_move(table)
    act = reverse("tabletop:gm_act", args=[slug, table.pk])
    response = client.post(act, {**action, "version": 0, "as_seat": seat, "client_action_id": "gm"}, **HX)
    assert response.status_code == 200 and NOTHING_TO_UNDO not in response.content.decode()
    poll = reverse("tabletop:gm_poll", args=[slug, table.pk])
    assert NOTHING_TO_UNDO not in client.get(poll, {"v": "0"}, **HX).content.decode()
    table_undo(table_id=table.pk, version=1, user=world.gm.user)
    response = client.get(poll, {"v": "1"}, **HX)
    assert response.status_code == 200 and NOTHING_TO_UNDO in response.content.decode()
    seat_set_bot(table_id=table.pk, index=1, bot="quick", version=2, user=world.gm.user)
    seat_set_bot(table_id=table.pk, index=1, bot="", version=3, user=world.gm.user)
    response = client.get(poll, {"v": "3"}, **HX)
    assert 'data-version="4"' in response.content.decode() and NOTHING_TO_UNDO in response.content.decode()
