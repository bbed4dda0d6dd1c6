"""The push sockets of a table's pages (``muster.live.LiveConsumer``): each joins only its own viewer's
group (``viewers.viewer_group``) and counts as watching it, so the table's pusher (``push.py``) renders that
viewer's region once for all its sockets. Permission is checked here as the page checks it; the pusher
checks again that the viewer is still allowed (a seat's link, a GM's role) before each render.

A seat's phone gone for ``away.AFTER_S`` seconds, or back after that, is said to the GM and the other seats
(``away.tell``, issue 38): a timer on the server's loop after the last socket of a seat closes, and the
socket that comes back after such an absence. Neither waits for anything but a thread's read."""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from django.core.exceptions import PermissionDenied

from campaign.permissions import membership_for, require_own
from muster import languages
from muster.live import LiveConsumer

from . import away, selectors, viewers


class TableLiveConsumer(LiveConsumer):
    table_id = 0

    def joined(self, table_id: int, viewer: str, campaign_language: str = "") -> str:
        """This socket watches ``viewer`` of table ``table_id`` in its page's language (decided as the page's
        request was: ``campaign_language`` where the page takes the campaign's): its group."""
        return self.joined_in(table_id, viewer, languages.of_scope(self.scope, campaign_language))

    def joined_in(self, table_id: int, viewer: str, language: str) -> str:
        self.table_id = table_id
        watched = viewers.in_language(viewer, language)
        self.presence = (viewers.table_space(table_id), watched)
        return viewers.viewer_group(table_id, watched)

    def key_now(self) -> str:
        return viewers.key_now(self.table_id)


class SeatConsumer(TableLiveConsumer):
    """A seat's phone: the seat's secret link, and for a member's seat that member's login."""

    seat_index = -1
    was_gone: float | None = None  # how long the seat had no phone connected before this socket

    def watch(self, user, *, token: str) -> tuple[str, str]:
        seat = selectors.seat_by_token(token)
        require_own(user, seat.membership)
        self.seat_index = seat.index
        self.was_gone = away.gone_for(seat.table_id, seat.index)  # read before this socket counts
        viewer = viewers.seat_viewer(seat.index, token)
        group = self.joined(seat.table_id, viewer, selectors.seat_page_language(seat))
        return group, viewers.table_key(seat.table)

    async def connect(self):
        await super().connect()
        if self.counted and (self.was_gone or 0) > away.AFTER_S:  # the others may have been told it is away
            await database_sync_to_async(away.tell)(self.table_id)

    async def disconnect(self, code):
        counted = self.counted
        await super().disconnect(code)
        if counted:  # said once it has been gone a while, unless it is back by then
            table_id, index = self.table_id, self.seat_index
            asyncio.get_running_loop().call_later(away.AFTER_S + 0.5, later, table_id, index)


_later: set[asyncio.Task] = set()  # the loop keeps only a weak reference to a task


def later(table_id: int, index: int) -> None:
    task = asyncio.ensure_future(tell_if_gone(table_id, index))
    _later.add(task)
    task.add_done_callback(_later.discard)


async def tell_if_gone(table_id: int, index: int) -> None:
    if (await database_sync_to_async(away.gone_for)(table_id, index) or 0) > away.AFTER_S:
        await database_sync_to_async(away.tell)(table_id)


class PublicConsumer(TableLiveConsumer):
    """A member's public view of the table: any member of the campaign."""

    def watch(self, user, *, slug: str, pk: int) -> tuple[str, str]:
        membership = membership_for(user, slug)
        table = selectors.table_for_campaign(membership.campaign, int(pk), light=True)
        return self.joined(table.pk, viewers.public_viewer(membership.pk)), viewers.table_key(table)


class GMConsumer(TableLiveConsumer):
    """The GM's tablet: the campaign's GMs only (it is pushed every hand)."""

    def watch(self, user, *, slug: str, pk: int) -> tuple[str, str]:
        membership = membership_for(user, slug)
        if not membership.is_gm:
            raise PermissionDenied("Only the GM can do this.")
        table = selectors.table_for_campaign(membership.campaign, int(pk), light=True)
        return self.joined(table.pk, viewers.gm_viewer(membership.pk)), viewers.table_key(table)


class ProjectorConsumer(TableLiveConsumer):
    """A projector link's screen (ruling PJ1): no login, the link is the permission. It hears its link's
    viewer group, and on ``projector_group`` that its link was revoked or replaced (then its poll sends the
    page to the refusal)."""

    projector = ""

    def watch(self, user, *, token: str) -> tuple[str, str]:
        table = selectors.table_by_projector_token(token, light=True)
        self.projector = viewers.projector_group(table.pk)
        language = languages.of_scope(self.scope, table.campaign.language, campaign_first=True)
        return self.joined_in(table.pk, viewers.projector_viewer(token), language), viewers.table_key(table)

    async def connect(self):
        await super().connect()
        if self.group and self.projector:
            await self.channel_layer.group_add(self.projector, self.channel_name)

    async def disconnect(self, code):
        if self.projector:
            await self.channel_layer.group_discard(self.projector, self.channel_name)
        await super().disconnect(code)
