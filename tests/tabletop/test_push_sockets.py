"""The pushed render through real sockets (tabletop/consumers.py, tabletop/push.py, issue 26): a seat's
socket hears its own seat's region and nobody else's, its devices share one render, and a seat handed
on (to the computer, a renewed link) or a GM no longer GM has its sockets closed with the refusal."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from campaign.models import Membership
from muster.live import REFUSED
from people.services.members import member_remove
from tabletop import push
from tabletop.engines import get_engine
from tabletop.models import Seat, Table, new_token
from tabletop.services.seats import seat_set_bot
from tabletop.services.tables import table_play

from tests.sockets import WAIT, Socket, close_all, gm_path, opened, run, seat_path, session_cookie
from tests.tables import next_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_layer")]




async def closed_with(socket: Socket) -> int | None:
    """The close code the server sent next (None if it sent a message instead)."""
    output = await socket.receive_output(WAIT)
    return output.get("code") if output["type"] == "websocket.close" else None


def test_each_seat_hears_its_own_region_and_its_devices_share_one_render(application, world, table, monkeypatch):
    renders = []
    render = push.shared_render
    monkeypatch.setattr(push, "shared_render", lambda template, context: renders.append(template) or render(
        template, context))
    ann, ben = session_cookie(world.ann.user), session_cookie(world.ben.user)
    pages = [(seat_path(table, 0), ann), (seat_path(table, 0), ann), (seat_path(table, 1), ben)]

    async def scenario():
        phone, tablet, other = [await opened(Socket(application, path, cookie)) for path, cookie in pages]
        for socket in (phone, tablet, other):
            assert json.loads(await socket.text()) == {"key": "0"}
        seat, action = await sync_to_async(next_move)(table)
        await sync_to_async(table_play)(table_id=table.pk, seat=seat, action=action, version=0)
        said = [json.loads(await socket.text()) for socket in (phone, tablet, other)]
        for socket in (phone, tablet, other):
            assert await socket.receive_nothing(0.2)  # one message each: no other seat's group
        await close_all((phone, tablet, other))
        return said

    mine, again, theirs = run(scenario)
    assert mine == again and mine["key"] == theirs["key"] == "1"
    ann_seat, ben_seat = (f"<strong>{table.seats.get(index=index).name}</strong> ·" for index in (0, 1))
    assert ann_seat in mine["html"] and ann_seat not in theirs["html"]
    assert ben_seat in theirs["html"] and ben_seat not in mine["html"]
    assert len(renders) == 2  # Ann's region once for her two devices, Ben's once


def test_a_seat_handed_to_the_computer_has_its_sockets_closed_and_its_old_link_refused(application, world, table):
    engine = get_engine(table.game)
    idle = next(index for index in (0, 1) if index not in engine.to_act(table.state))
    member = (world.ann, world.ben)[idle]
    cookie = session_cookie(member.user)
    old_path, tablet, gm_cookie = seat_path(table, idle), gm_path(table), session_cookie(world.gm.user)

    async def scenario():
        phone = await opened(Socket(application, old_path, cookie))
        gm = await opened(Socket(application, tablet, gm_cookie))
        await phone.text(), await gm.text()
        await sync_to_async(seat_set_bot)(table_id=table.pk, index=idle, bot="quick", version=0,
                                          user=world.gm.user)
        assert await closed_with(phone) == REFUSED  # the page falls back to its poll, which refuses it
        assert json.loads(await gm.text())["key"] == "1"  # the GM's tablet shows the computer's seat
        await sync_to_async(seat_set_bot)(table_id=table.pk, index=idle, bot="", version=1, user=world.gm.user)
        assert json.loads(await gm.text())["key"] == "2"
        refused = Socket(application, old_path, cookie)
        assert await refused.connect() == (False, REFUSED)  # a new link: the old one opens nothing
        new_phone = await opened(Socket(application, await sync_to_async(seat_path)(table, idle), cookie))
        assert json.loads(await new_phone.text()) == {"key": "2"}
        await close_all((gm, new_phone))

    run(scenario)


def test_a_renewed_link_or_a_gm_no_longer_gm_is_closed_at_the_next_push(application, world, table):
    ann_cookie, ben_cookie, gm_cookie = (session_cookie(m.user) for m in (world.ann, world.ben, world.gm))
    ann_path, ben_path, tablet = seat_path(table, 0), seat_path(table, 1), gm_path(table)

    def renew_and_demote():
        Seat.objects.filter(table=table, index=0).update(token=new_token())  # as removing a member does
        Membership.objects.filter(pk=world.gm.pk).update(role=Membership.Role.PLAYER)
        seat, action = next_move(table)
        table_play(table_id=table.pk, seat=seat, action=action, version=0)

    async def scenario():
        ann = await opened(Socket(application, ann_path, ann_cookie))
        ben = await opened(Socket(application, ben_path, ben_cookie))
        gm = await opened(Socket(application, tablet, gm_cookie))
        for socket in (ann, ben, gm):
            await socket.text()
        await sync_to_async(renew_and_demote)()
        assert await closed_with(ann) == REFUSED
        assert await closed_with(gm) == REFUSED
        assert json.loads(await ben.text())["key"] == "1"
        await ben.close()

    run(scenario)


def test_a_removed_members_seat_sockets_are_closed_when_the_member_goes(application, world, table):
    """Removing a member gives their seats at finished tables new links without a move (ruling MB4): the
    old links' sockets are closed then, not left open until the table next changes (ruling LV5)."""
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)  # a member's open seat forbids it
    ann_cookie, ben_cookie = session_cookie(world.ann.user), session_cookie(world.ben.user)
    ann_path, ben_path = seat_path(table, 0), seat_path(table, 1)

    async def scenario():
        ann = await opened(Socket(application, ann_path, ann_cookie))
        ben = await opened(Socket(application, ben_path, ben_cookie))
        await ann.text(), await ben.text()
        await sync_to_async(member_remove)(membership=world.ann, gm=world.gm.user)
        assert await closed_with(ann) == REFUSED
        assert json.loads(await ben.text())["key"] == str(table.version)  # Ben's seat is still Ben's
        await ben.close()

    run(scenario)
