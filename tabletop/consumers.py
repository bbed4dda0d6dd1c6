"""The push sockets of a table's pages (``muster.live.LiveConsumer``): each hears only the table's
key, and fetches its own view through its page's poll with its own permission."""

from __future__ import annotations

from campaign.permissions import membership_for, require_own
from muster.live import LiveConsumer

from . import selectors
from .live import projector_group, table_group, table_key


class SeatConsumer(LiveConsumer):
    """A seat's phone: the seat's secret link, and for a member's seat that member's login."""

    def watch(self, user, *, token: str) -> tuple[str, str]:
        seat = selectors.seat_by_token(token)
        require_own(user, seat.membership)
        return table_group(seat.table_id), table_key(seat.table)


class TableConsumer(LiveConsumer):
    """The GM's tablet and a member's public view of the table: any member of the campaign (the push
    holds only the version; each page's fetch checks its own permission)."""

    def watch(self, user, *, slug: str, pk: int) -> tuple[str, str]:
        membership = membership_for(user, slug)
        table = selectors.table_for_campaign(membership.campaign, int(pk), light=True)
        return table_group(table.pk), table_key(table)


class ProjectorConsumer(LiveConsumer):
    """A projector link's screen (ruling PJ1): no login, the link is the permission. It hears the table's
    key, and on ``projector_group`` that its link was revoked or replaced (then its poll sends the page to
    the refusal)."""

    projector = ""

    def watch(self, user, *, token: str) -> tuple[str, str]:
        table = selectors.table_by_projector_token(token, light=True)
        self.projector = projector_group(table.pk)
        return table_group(table.pk), table_key(table)

    async def connect(self):
        await super().connect()
        if self.group and self.projector:
            await self.channel_layer.group_add(self.projector, self.channel_name)

    async def disconnect(self, code):
        if self.projector:
            await self.channel_layer.group_discard(self.projector, self.channel_name)
        await super().disconnect(code)
