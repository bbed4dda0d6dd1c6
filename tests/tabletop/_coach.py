"""Test helpers for the coach (tabletop/computer/coach.py): open a table, play on to a seat's turn with a
choice, and ask the computer from that seat's link as its phone does."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.models import Seat, Table
from tabletop.services.tables import SeatSpec, table_create

from tests.factories import army_table, gridaris_table
from tests.tables import play_next

HX = {"HTTP_HX_REQUEST": "true"}
CHANCE = re.compile(r'<strong class="coach-chance">(\d+) %</strong>')


def open_game(world, game: str, seats=("Gus", "Ida"), title: str = "Practice") -> Table:
    """A table of ``game`` with guest seats (one client opens every seat's link)."""
    if game == "army":
        return army_table(world.campaign, list(seats))
    if game == "gridaris":
        return gridaris_table(world.campaign, list(seats), title=title)
    config = {"gotm": {"series_game": 0}, "mercenarium": {}, "dungeon": {"mode": "competitive", "variant": "pairs"}}
    return table_create(campaign=world.campaign, game=game, title=title, seats=[SeatSpec(guest_name=name)
                        for name in seats], config=config[game], seed=5)


def to_a_seats_turn(table: Table) -> tuple[Table, int]:
    """Played on (first legal actions) until a seat is to act with more than one move; that seat."""
    engine = get_engine(table.game)
    for _ in range(80):
        for seat in engine.to_act(table.state):
            moves = [a for a in engine.legal_actions(table.state) if a["seat"] == seat]
            if isinstance(seat, int) and len(moves) > 1:
                return table, seat
        table = play_next(table)
    pytest.fail(f"no seat of {table.game} came to act with a choice")


def token(table: Table, index: int) -> str:
    return Seat.objects.values_list("token", flat=True).get(table=table, index=index)


def coach_url(table: Table, index: int) -> str:
    return reverse("tabletop:seat_coach", args=[token(table, index)])


def ask(client, table: Table, index: int, version: int | None = None):
    table.refresh_from_db()
    return client.post(coach_url(table, index), {"version": table.version if version is None else version}, **HX)
