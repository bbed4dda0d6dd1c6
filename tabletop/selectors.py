"""Reads for tables: logs, seats, lists."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from campaign.models import Campaign, Membership

from .engines.kernel import digest
from .engines.replay import LOG_FORMAT, LOG_VERSION, setup_state
from .models import Seat, Table, TableAction


def table_log(table: Table) -> dict:
    """The self-contained log documented in docs/replay-format.md."""
    entries = []
    for entry in TableAction.objects.filter(table=table).select_related("undoes", "user").order_by("seq"):
        row = {"seq": entry.seq, "at": entry.created_at.isoformat(), "by": entry.user.username if entry.user else None}
        if entry.kind == TableAction.Kind.UNDO:
            row["undo"] = entry.undoes.seq
        else:
            row.update(seat=entry.seat, action=entry.action, draws=entry.draws)
        row["digest"] = entry.digest
        entries.append(row)
    return {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "game": table.game,
        "table": {
            "id": table.pk,
            "title": table.title,
            "campaign": table.campaign.slug,
            "created_at": table.created_at.isoformat(),
            "status": table.status,
        },
        "config": table.config,
        "setup_draws": table.setup_draws,
        "setup_digest": digest(setup_state(table.game, table.config, table.setup_draws)),
        "entries": entries,
        "final_digest": digest(table.state),
    }


def campaign_tables(campaign: Campaign) -> QuerySet[Table]:
    return Table.objects.filter(campaign=campaign).prefetch_related("seats__membership__user")


def seats_of(membership: Membership) -> QuerySet[Seat]:
    return Seat.objects.filter(membership=membership).select_related("table").order_by("-table__created_at")


HEAVY_TABLE_FIELDS = ("state", "config", "setup_draws", "outcome")


def seat_by_token(token: str) -> Seat:
    """The seat with its table's light fields (version, status): enough for polls and checks."""
    heavy = [f"table__{name}" for name in HEAVY_TABLE_FIELDS]
    seat = Seat.objects.select_related("table", "membership__user").defer(*heavy).filter(token=token).first()
    if seat is None:
        raise Http404("No such seat.")
    return seat


def table_for_campaign(campaign: Campaign, pk: int, *, light: bool = False) -> Table:
    """The campaign's table ``pk`` or 404; ``light`` leaves out the state (polls, permission checks)."""
    tables = Table.objects.filter(campaign=campaign, pk=pk)
    table = (tables.defer(*HEAVY_TABLE_FIELDS) if light else tables).first()
    if table is None:
        raise Http404("No such table.")
    return table
