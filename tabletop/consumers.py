"""The push sockets of a table's pages (``muster.live.LiveConsumer``): each hears only the table's
key, and fetches its own view through its page's poll with its own permission."""

from __future__ import annotations

from campaign.permissions import membership_for, require_own
from muster.live import LiveConsumer

from . import selectors
from .live import table_group, table_key


class SeatConsumer(LiveConsumer):
    """A seat's phone: the seat's secret link, and for a member's seat that member's login."""

    def watch(self, user, *, token: str) -> tuple[str, str]:
        seat = selectors.seat_by_token(token)
        require_own(user, seat.membership)
        return table_group(seat.table_id), table_key(seat.table)


class TableConsumer(LiveConsumer):
    """The GM's tablet and the public projector: any member of the campaign (the push holds
    only the version; each page's fetch checks its own permission)."""

    def watch(self, user, *, slug: str, pk: int) -> tuple[str, str]:
        membership = membership_for(user, slug)
        table = selectors.table_for_campaign(membership.campaign, int(pk), light=True)
        return table_group(table.pk), table_key(table)
