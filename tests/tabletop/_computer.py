"""Test helpers for the computer at the table (tabletop/computer/): open a table with computer seats,
wait for a committed computer move with a deadline (a bound on waiting, never a time asserted)."""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError

from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import Table, TableAction
from tabletop.services.tables import SeatSpec, table_create

TIMEOUT = 90  # a bound on waiting (the pool's first process starts on a loaded 2-core machine)
QUICK = {"iterations": 8}


def open_table(world, seats, *, seed=7, title="Practice"):
    """A two-seat Gridaris table; ``seats`` are memberships, guest names or (name, strength) computers."""
    specs = []
    for seat in seats:
        if isinstance(seat, tuple):
            specs.append(SeatSpec(guest_name=seat[0], bot=seat[1]))
        elif isinstance(seat, str):
            specs.append(SeatSpec(guest_name=seat))
        else:
            specs.append(SeatSpec(membership=seat))
    return table_create(
        campaign=world.campaign, game="gridaris", title=title, seats=specs,
        config={"mode": "standard", "cards": STARTER_CARDS}, seed=seed,
    )


def wait_for(condition, what: str):
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {TIMEOUT}s waiting for {what}")
        time.sleep(0.05)


def read(fn):
    """The tests' SQLite database is in memory, shared between threads: a read while the computer's
    thread writes is answered "table is locked" at once (no busy timeout). Read again, for up to 15 s
    (a loaded machine can hold a write that long)."""
    deadline = time.monotonic() + 15
    while True:
        try:
            return fn()
        except OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def version_of(table) -> int:
    return read(lambda: Table.objects.values_list("version", flat=True).get(pk=table.pk))


def status_of(table) -> str:
    return read(lambda: Table.objects.values_list("status", flat=True).get(pk=table.pk))


def log_of(table) -> list[TableAction]:
    return read(lambda: list(TableAction.objects.filter(table=table).select_related("user").order_by("seq")))
