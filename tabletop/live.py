"""A table's push (muster/live.py): every open page of a table (the GM's tablet, each seat's
phone, the projector) is told the table's new key when an action, an undo or an abandon
commits, and fetches its own view. The sockets that listen are in ``consumers``."""

from __future__ import annotations

from campaign.live import member_moved
from muster.live import announce_on_commit

from .models import Seat, Table


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def table_key(table: Table) -> str:
    """What a page compares with: the version, and whether the table was abandoned (which keeps
    its version)."""
    return f"{table.version}-abandoned" if table.status == Table.Status.ABANDONED else str(table.version)


def members_moved(table: Table, membership_ids=None) -> None:
    """The campaign pages of the members seated at ``table`` fetch their panels once this commits: the
    table opened, finished, was abandoned or reopened (issue 25). One query unless the caller knows the
    members (a table just created)."""
    if table.gm_only:  # a what-if only the GM plays is on no player's page
        return
    if membership_ids is None:
        membership_ids = Seat.objects.filter(table=table, membership__isnull=False).values_list("membership_id",
                                                                                               flat=True)
    member_moved(membership_ids)


def table_moved(table: Table) -> None:
    """Every page of ``table`` learns its new key once the current transaction commits."""
    key = table_key(table)
    announce_on_commit(table_group(table.pk), key)


def projector_group(table_id: int) -> str:
    """The projector pages of a table also listen here: a revoked or replaced link is told so
    (``PROJECTOR_REVOKED``), fetches, and its poll sends the page to the refusal (ruling PJ1)."""
    return f"projector.{table_id}"


PROJECTOR_REVOKED = "revoked"
