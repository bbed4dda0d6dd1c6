"""The live push (muster/live.py, tabletop/viewers.py and push.py, armies/live.py) through the real ASGI
application: who may listen, what is said, that no pushed message ever holds a secret, and
that a push lost never fails the write that caused it.

The sockets are tests/sockets.py's (one event loop per test, a fresh in-process layer).
"""

from __future__ import annotations

import json
import logging
import random
import re

import channels.consumer
import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from django.db import transaction

from armies.live import day_end_key
from armies.models import DayEnd
from armies.services.settlement import day_settle
from campaign.models import Membership
from muster import live as muster_live
from muster import presence
from tabletop.engines import get_engine
from tabletop.engines.kernel import GM, PUBLIC, IllegalAction
from tabletop.models import Table
from tabletop.services.abandon import table_abandon
from tabletop.services.projector import projector_issue
from tabletop.services.tables import SeatSpec, StaleVersion, table_create, table_play, table_undo
from tabletop.viewers import gm_viewer, seat_viewer, table_key, table_moved, table_space

from tests.armies._upkeep import many_commanders
from tests.cards import names_a_secret
from tests.factories import CampaignFactory, MembershipFactory, army_table, gridaris_table
from tests.sockets import ORIGIN, WAIT, Socket, close_all, gm_path, opened, run, seat_path, session_cookie
from tests.tables import next_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_layer")]
KEY = re.compile(r"^\d+(-abandoned)?$")
REFUSED = (False, muster_live.REFUSED)



def table_path(table: Table) -> str:
    """A member's public view of the table."""
    return f"/ws/c/{table.campaign.slug}/tables/{table.pk}/"



def day_end_path(day_end: DayEnd) -> str:
    return f"/ws/c/{day_end.campaign.slug}/day-end/{day_end.pk}/"


# 1. Who may listen ------------------------------------------------------------------------------


def attempt(application, path, user=None, origin=ORIGIN):
    """(accepted, close code) of one connection attempt, and the first message if accepted."""
    cookie = session_cookie(user) if user is not None else None

    async def scenario():
        socket = Socket(application, path, cookie, origin)
        result = await socket.connect()
        if not result[0]:
            return result, None
        first = await socket.text()
        await socket.close()
        return result, first

    return run(scenario)


def test_a_guest_seat_listens_by_its_token_alone(application, world):
    table = gridaris_table(world.campaign, ["Ann", "Ben"])
    assert attempt(application, seat_path(table, 0)) == ((True, None), json.dumps({"key": "0"}))
    assert attempt(application, seat_path(table, 1), world.outsider)[0] == (True, None)


def test_a_members_seat_listens_for_that_member_alone(application, world, table):
    assert attempt(application, seat_path(table, 0), world.ann.user)[0] == (True, None)
    for someone in (None, world.ben.user, world.gm.user, world.outsider, world.staff):
        assert attempt(application, seat_path(table, 0), someone)[0] == REFUSED, someone


def test_an_unknown_token_is_refused(application, world, table):
    assert attempt(application, "/ws/play/not-a-token/", world.ann.user)[0] == REFUSED
    assert attempt(application, "/ws/play/not-a-token/")[0] == REFUSED


def test_the_table_route_is_for_members_of_its_campaign(application, world, table):
    path = table_path(table)
    for member in (world.gm.user, world.ann.user, world.ben.user):
        assert attempt(application, path, member) == ((True, None), json.dumps({"key": "0"})), member
    for stranger in (None, world.outsider, world.staff):
        assert attempt(application, path, stranger)[0] == REFUSED, stranger


def test_a_table_of_another_campaign_is_refused_under_this_campaigns_address(application, world, table):
    other = CampaignFactory(slug="elsewhere")
    their_gm = MembershipFactory(campaign=other, role=Membership.Role.GM)
    theirs = gridaris_table(other, ["Cid", "Dee"])
    assert attempt(application, f"/ws/c/{world.campaign.slug}/tables/{theirs.pk}/", world.gm.user)[0] == REFUSED
    assert attempt(application, f"/ws/c/elsewhere/tables/{table.pk}/", their_gm.user)[0] == REFUSED
    assert attempt(application, f"/ws/c/elsewhere/tables/{table.pk}/", world.gm.user)[0] == REFUSED
    assert attempt(application, f"/ws/c/{world.campaign.slug}/tables/999999/", world.gm.user)[0] == REFUSED


def test_the_day_end_route_is_for_the_gm_alone(application, world):
    day_end = DayEnd.objects.create(campaign=world.campaign, day=1)
    path = day_end_path(day_end)
    assert attempt(application, path, world.gm.user) == ((True, None), json.dumps({"key": "queued-0"}))
    for someone in (None, world.ann.user, world.ben.user, world.outsider, world.staff):
        assert attempt(application, path, someone)[0] == REFUSED, someone
    other = DayEnd.objects.create(campaign=CampaignFactory(), day=1)
    assert attempt(application, f"/ws/c/{world.campaign.slug}/day-end/{other.pk}/", world.gm.user)[0] == REFUSED


@pytest.mark.parametrize("origin", ["http://evil.example", "http://testserver.evil.example", None])
def test_a_page_from_a_foreign_origin_is_refused(application, world, origin):
    table = gridaris_table(world.campaign, ["Ann", "Ben"])
    (accepted, _), first = attempt(application, seat_path(table, 0), origin=origin)
    assert not accepted and first is None
    assert attempt(application, seat_path(table, 0), origin=ORIGIN)[0] == (True, None)  # the same origin


ROLES = ["anonymous", "outsider", "player", "other_player", "gm", "staff"]  # as tests/test_authorization.py
YES, NO = True, False


def routes(world, table) -> dict:
    """Every websocket route (muster/routing.py) x role: may it listen? "player" owns seat 0 (Ann)."""
    slug = world.campaign.slug
    day_end = DayEnd.objects.create(campaign=world.campaign, day=1)
    return {
        "seat": (f"/ws/play/{table.seats.get(index=0).token}/", [NO, NO, YES, NO, NO, NO]),
        "unknown seat": ("/ws/play/not-a-token/", [NO] * 6),
        "table": (f"/ws/c/{slug}/tables/{table.pk}/", [NO, NO, YES, YES, YES, NO]),
        "gm table": (f"/ws/c/{slug}/tables/{table.pk}/gm/", [NO, NO, NO, NO, YES, NO]),  # issue 26: every hand
        "missing gm table": (f"/ws/c/{slug}/tables/999999/gm/", [NO] * 6),
        "missing table": (f"/ws/c/{slug}/tables/999999/", [NO] * 6),
        "missing campaign": (f"/ws/c/no-such/tables/{table.pk}/", [NO] * 6),
        "day end": (f"/ws/c/{slug}/day-end/{day_end.pk}/", [NO, NO, NO, NO, YES, NO]),
        "missing day end": (f"/ws/c/{slug}/day-end/999999/", [NO] * 6),
        # issue 25: a projector link is the permission (no account); a forged one opens nothing (ruling PJ1)
        "projector": (f"/ws/projector/{projector_issue(table_id=table.pk, replacing='').token}/", [YES] * 6),
        "forged projector": ("/ws/projector/not-a-token/", [NO] * 6),
        # issue 25: a member's campaign page hears their own group
        "campaign home": (f"/ws/c/{slug}/home/", [NO, NO, YES, YES, YES, NO]),
        "missing campaign home": ("/ws/c/no-such/home/", [NO] * 6),
    }


# Every websocket route's pattern, as muster/routing.py spells it: a new one must join ``routes``.
ROUTE_PATTERNS = {"ws/play/<str:token>/", "ws/c/<slug:slug>/tables/<int:pk>/", "ws/c/<slug:slug>/day-end/<int:pk>/",
                  "ws/projector/<str:token>/", "ws/c/<slug:slug>/home/", "ws/c/<slug:slug>/tables/<int:pk>/gm/"}


def test_every_websocket_route_is_in_the_matrix():
    from muster.routing import websocket_urlpatterns

    assert {str(route.pattern) for route in websocket_urlpatterns} == ROUTE_PATTERNS


def test_an_unknown_route_is_refused_before_the_accept_with_one_log_line(application, world, caplog):
    """Channels' router raises on a path no route matches (a 500 and a traceback from the server):
    it is closed before the accept instead, which the server answers with HTTP 403."""
    with caplog.at_level(logging.INFO):
        for path in ("/ws/c/x/", "/ws/nothing/", f"/ws/c/{world.campaign.slug}/tables/"):
            assert attempt(application, path, world.gm.user) == ((False, 1000), None), path
    lines = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert [record.getMessage() for record in lines] == [
        "403 WS /ws/c/x/ user=-: no such websocket route",
        "403 WS /ws/nothing/ user=-: no such websocket route",
        f"403 WS /ws/c/{world.campaign.slug}/tables/ user=-: no such websocket route",
    ]
    assert not any(record.exc_info for record in caplog.records)


def test_an_unknown_route_under_a_seat_link_is_logged_without_its_token(application, world, table, caplog):
    """A path no route matches may still carry a seat's token (a page's path with a tail): its line
    writes the token as ``***``, as every other log line does (muster/request_log.py)."""
    token = table.seats.get(index=0).token
    with caplog.at_level(logging.INFO):
        assert attempt(application, f"/ws/play/{token}/extra/", world.gm.user) == ((False, 1000), None)
    lines = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert lines == ["403 WS /ws/play/***/extra/ user=-: no such websocket route"]
    assert token not in caplog.text


def test_a_page_that_sends_anything_is_closed_with_one_log_line(application, world, table, caplog):
    """Pages send nothing: whatever arrives is refused (1003, unsupported data) and logged without the seat's token."""

    path, cookie, token = seat_path(table, 0), session_cookie(world.ann.user), table.seats.get(index=0).token

    async def scenario():
        socket = await opened(Socket(application, path, cookie))
        await socket.key()
        await socket.send_input({"type": "websocket.receive", "text": "hello"})
        closed = await socket.receive_output(WAIT)
        await socket.send_input({"type": "websocket.disconnect", "code": 1003})
        await socket.wait(WAIT)
        return closed

    with caplog.at_level(logging.INFO):
        assert run(scenario) == {"type": "websocket.close", "code": 1003}
    [line] = [record for record in caplog.records if record.name == "muster.live"]
    assert line.levelno == logging.WARNING
    group = f"table.{table.pk}.{seat_viewer(0, token)}"  # the seat's group names a digest of its token
    assert line.getMessage() == f"live socket of {group} sent 5 characters (pages send nothing): closed"
    assert token not in caplog.text


@pytest.mark.parametrize("role", ROLES)
def test_every_websocket_route_answers_each_role_as_the_rules_say(application, world, table, role):
    user = {"anonymous": None, "outsider": world.outsider, "player": world.ann.user,
            "other_player": world.ben.user, "gm": world.gm.user, "staff": world.staff}[role]
    failures = []
    for name, (path, allowed) in routes(world, table).items():
        (accepted, code), _ = attempt(application, path, user)
        expected = allowed[ROLES.index(role)]
        if accepted != expected or (not accepted and code != muster_live.REFUSED):
            failures.append(f"{name}: expected {'accepted' if expected else 'refused'}, got {accepted, code}")
    assert failures == []


def test_connecting_reads_the_session_the_user_and_the_seat_with_its_table_once(
    application, world, table, django_assert_num_queries
):
    cookie = session_cookie(world.ann.user)

    async def connect(path):
        socket = await opened(Socket(application, path, cookie))
        assert await socket.key() == "0"
        await socket.close()

    # and the key once more after joining the group (muster.live.LiveConsumer: no change slips between)
    seat, tablet = seat_path(table, 0), table_path(table)
    with django_assert_num_queries(4):  # session, user, seat with its table and member, key
        run(connect, seat)
    with django_assert_num_queries(5):  # session, user, membership with its campaign, table, key
        run(connect, tablet)


# 2. What is said -------------------------------------------------------------------------------


def test_an_action_tells_every_page_of_its_table_the_new_key_and_no_other_table(application, world, table):
    other = gridaris_table(world.campaign, ["Cid", "Dee"])
    ann, ben, gm = (session_cookie(m.user) for m in (world.ann, world.ben, world.gm))

    our_pages = [(seat_path(table, 0), ann), (seat_path(table, 1), ben),
                 (gm_path(table), gm), (table_path(table), ann)]  # the GM's tablet, a public view
    their_pages = [(seat_path(other, 0), None), (gm_path(other), gm)]

    async def scenario():
        ours = [await opened(Socket(application, path, cookie)) for path, cookie in our_pages]
        theirs = [await opened(Socket(application, path, cookie)) for path, cookie in their_pages]
        for socket in ours + theirs:
            assert await socket.text() == '{"key": "0"}'
        seat, action = next_move(table)
        played = await sync_to_async(table_play)(table_id=table.pk, seat=seat, action=action, version=0)
        assert played.table.version == 1
        for socket in ours:
            assert await socket.key() == "1", socket.path
        for socket in ours + theirs:
            assert await socket.receive_nothing(0.2)
        await close_all(ours + theirs)

    run(scenario)


def test_a_push_reaches_its_socket_without_a_hop_to_a_thread(application, world, monkeypatch):
    """Channels closes the thread's old database connections (a hop to a thread) before each message a
    consumer handles; a push touches no database, so a page's socket takes it without that hop (issue 40:
    the hops were a twentieth of an action's CPU with three phones a table)."""
    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)

    table = gridaris_table(world.campaign, ["Ann", "Ben"])  # guests: the link is the permission
    path, (seat, action) = seat_path(table, 0), next_move(table)

    async def scenario():
        page = await opened(Socket(application, path))
        assert json.loads(await page.text()) == {"key": "0"}
        before = len(hops)
        await sync_to_async(table_play)(table_id=table.pk, seat=seat, action=action, version=0)
        assert await page.key() == "1"
        assert len(hops) == before  # the push came without one
        await page.close()

    run(scenario)


def test_undo_and_abandon_announce_and_refused_actions_announce_nothing(application, world, table):
    gm = session_cookie(world.gm.user)

    async def scenario():
        socket = await opened(Socket(application, gm_path(table), gm))
        assert await socket.key() == "0"
        moved = table
        for version in (1, 2):
            seat, action = await sync_to_async(next_move)(moved)
            moved = (await sync_to_async(table_play)(table_id=table.pk, seat=seat, action=action,
                                                      version=moved.version)).table
            assert await socket.key() == str(version)
        seat, action = await sync_to_async(next_move)(moved)
        with pytest.raises(StaleVersion):  # a tap on an old screen
            await sync_to_async(table_play)(table_id=table.pk, seat=seat, action=action, version=1)
        with pytest.raises(IllegalAction):  # not a legal move: rolled back, nothing said
            await sync_to_async(table_play)(table_id=table.pk, seat=seat, action={"type": "no-such"}, version=2)
        with pytest.raises(IllegalAction):  # abandoning needs a reason
            await sync_to_async(table_abandon)(table_id=table.pk, version=2, gm=world.gm.user, reason=" ")
        assert await socket.receive_nothing(0.2)
        undone = await sync_to_async(table_undo)(table_id=table.pk, version=2, user=world.gm.user)
        assert await socket.key() == "3" == str(undone.version)
        abandoned = await sync_to_async(table_abandon)(table_id=table.pk, version=3, gm=world.gm.user,
                                                       reason="The tavern closes.")
        assert await socket.key() == "3-abandoned" == table_key(abandoned)
        with pytest.raises(IllegalAction):  # abandoned: no more play, and nothing said
            await sync_to_async(table_play)(table_id=table.pk, seat=seat, action=action, version=3)
        assert await socket.receive_nothing(0.2)
        await socket.close()

    run(scenario)


def test_a_move_rolled_back_after_it_was_announced_is_never_said(application, world, table):
    """The announcement waits for the commit: a write that fails later in its transaction
    (a finish hook's refusal, a crash) leaves the pages as they were."""
    path = table_path(table)
    cookie = session_cookie(world.gm.user)

    def moved_then_failed():
        with pytest.raises(RuntimeError), transaction.atomic():
            table.version = 1
            table_moved(table)
            raise RuntimeError("the finish hook refused")
        table_moved(Table.objects.get(pk=table.pk))  # outside a transaction: said at once

    async def scenario():
        socket = await opened(Socket(application, path, cookie))
        assert await socket.key() == "0"
        await sync_to_async(moved_then_failed)()
        assert await socket.key() == "0"  # the second announcement, not the rolled-back "1"
        assert await socket.receive_nothing(0.2)
        await socket.close()

    run(scenario)


def test_a_page_connecting_after_an_abandon_is_told_so_at_once(application, world, table):
    table_abandon(table_id=table.pk, version=0, gm=world.gm.user, reason="Rain.")
    assert attempt(application, seat_path(table, 0), world.ann.user)[1] == '{"key": "0-abandoned"}'


def test_a_day_end_tells_the_gms_bar_its_progress_ending_with_done(application):
    armies = many_commanders(5)
    day_end = DayEnd.objects.create(campaign=armies.campaign, day=1)
    gm = session_cookie(armies.gm.user)

    async def scenario():
        socket = await opened(Socket(application, day_end_path(day_end), gm))
        keys = [await socket.key()]
        await sync_to_async(day_settle)(campaign=armies.campaign, day=1, chunk_size=2)
        while keys[-1] != "done-5":
            keys.append(await socket.key())
        assert await socket.receive_nothing(0.2)
        await socket.close()
        return keys

    keys = run(scenario)
    assert keys[0] == "queued-0" and keys[-1] == "done-5" == day_end_key(DayEnd.objects.get(pk=day_end.pk))
    progress = [int(key.split("-")[1]) for key in keys[1:-1]]
    assert progress == sorted(progress) and len(keys) >= 4, keys  # running, chunks of 2, 2, 1, done
    assert all(re.fullmatch(r"(queued|running|done)-\d+", key) for key in keys), keys


# 3. No secret is pushed --------------------------------------------------------------------------


def hidden_table(game: str, world, guests: bool) -> Table:
    seats = ["Ann", "Ben"] if guests else [world.ann, world.ben]
    if game == "gridaris":
        return gridaris_table(world.campaign, seats)
    if game == "army":
        return army_table(world.campaign, seats)
    specs = [SeatSpec(guest_name=s) if guests else SeatSpec(membership=s) for s in seats]
    config = {"gotm": {"series_game": 0}, "mercenarium": {},
              "dungeon": {"mode": "competitive", "variant": "pairs"}}[game]
    return table_create(campaign=world.campaign, game=game, title=f"A {game} night", seats=specs,
                        config=config, seed=5)


# A random dungeon runs to about 2000 actions and a random Mercenarium game to about 400 (a minute each
# here, every action pushed to four pages): their first 80 go through the placing, the first fights and the
# draws that hide and show their cards; the random games of test_contract.py and test_secrets.py check the
# rest of them, and tabletop/test_push.py every game's pushed regions. The other games play to the end.
LONGEST = {"dungeon": 80, "mercenarium": 80}


def secrets_of(engine, state) -> set[str]:
    """Every hidden card's id and name now, whoever it is hidden from."""
    names = engine.card_names(state)
    found = set()
    for viewer in (0, 1, PUBLIC):
        for card_id in engine.hidden_from(state, viewer):
            found |= {card_id, names.get(card_id, card_id)}
    return found


@pytest.mark.parametrize(("game", "guests"), [("gotm", False), ("mercenarium", True), ("gridaris", False),
                                               ("dungeon", True), ("army", False)])
def test_a_whole_game_pushes_each_page_only_what_its_viewer_may_see(application, world, game, guests):
    """Issue 26: each change pushes every page its own viewer's region; no message names a card hidden
    from the viewer whose socket hears it (the GM's tablet sees every hand)."""
    table = hidden_table(game, world, guests)
    engine = get_engine(game)
    cookies = {who: session_cookie(m.user) for who, m in (("ann", world.ann), ("ben", world.ben), ("gm", world.gm))}
    rng = random.Random(game)

    pages = [(seat_path(table, 0), None if guests else cookies["ann"]),
             (seat_path(table, 1), None if guests else cookies["ben"]),
             (gm_path(table), cookies["gm"]), (table_path(table), cookies["ben"])]
    viewers = [0, 1, GM, PUBLIC]

    async def scenario():
        sockets = [await opened(Socket(application, path, cookie)) for path, cookie in pages]
        said = [await socket.text() for socket in sockets]
        secrets = secrets_of(engine, table.state)
        state, version, actions = table.state, 0, 0
        while engine.outcome(state) is None and actions < LONGEST.get(game, 3000):
            action = dict(rng.choice(engine.legal_actions(state)))
            seat = action.pop("seat")
            moved = (await sync_to_async(table_play)(table_id=table.pk, seat=seat, action=action,
                                                      version=version)).table
            state, version, actions = moved.state, moved.version, actions + 1
            secrets |= secrets_of(engine, state)
            for socket, viewer in zip(sockets, viewers, strict=True):
                text = await socket.text()
                message = json.loads(text)
                assert message["key"] == str(version) and f'data-key="{version}"' in message["html"], socket.path
                if viewer != GM:
                    assert names_a_secret(engine, state, viewer, message["html"]) is None, (viewer, version)
                said.append(text)
        for socket in sockets:
            assert await socket.receive_nothing(0.2)
        await close_all(sockets)
        return said, secrets, actions

    said, secrets, actions = run(scenario)
    assert Table.objects.get(pk=table.pk).is_finished or actions == LONGEST[game]
    assert actions >= 5 and len(said) == 4 * (actions + 1) and secrets
    for text in said:
        message = json.loads(text)
        assert set(message) <= {"key", "html"} and KEY.fullmatch(message["key"]), text


# 4. A push lost is not fatal ---------------------------------------------------------------------


class BrokenLayer(InMemoryChannelLayer):
    """A channel layer whose broadcast fails (Redis gone away): our own boundary."""

    async def group_send(self, group, message):
        raise ConnectionError("the channel layer is down")


def test_an_action_succeeds_and_the_lost_push_is_logged_when_the_layer_fails(world, table, settings, caplog):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.BrokenLayer"}}
    presence.started(table_space(table.pk), gm_viewer(world.gm.pk))  # the GM's tablet is open
    seat, action = next_move(table)
    with caplog.at_level(logging.ERROR, logger="muster.live"):
        played = table_play(table_id=table.pk, seat=seat, action=action, version=0)
    assert played.applied and Table.objects.get(pk=table.pk).version == 1
    failures = [record for record in caplog.records if record.name == "muster.live"]
    assert len(failures) == 1 and failures[0].message == f"live push to table.{table.pk}.gm.{world.gm.pk} failed"
    assert isinstance(failures[0].exc_info[1], ConnectionError)
