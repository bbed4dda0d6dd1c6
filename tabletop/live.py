"""A table's push (muster/live.py): every open page of a table (the GM's tablet, each seat's
phone, the projector) is told the table's new key when an action, an undo or an abandon
commits, and fetches its own view."""

from __future__ import annotations

from campaign.permissions import membership_for, require_own
from muster.live import LiveConsumer, announce_on_commit

from . import selectors
from .models import Table


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def table_key(table: Table) -> str:
    """What a page compares with: the version, and whether the table was abandoned (which keeps
    its version)."""
    return f"{table.version}-abandoned" if table.status == Table.Status.ABANDONED else str(table.version)


def table_moved(table: Table) -> None:
    """Every page of ``table`` learns its new key once the current transaction commits."""
    key = table_key(table)
    announce_on_commit(table_group(table.pk), key)


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
