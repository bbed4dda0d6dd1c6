"""Helpers that move a table along with legal actions."""

from tabletop.engines import get_engine
from tabletop.models import Table
from tabletop.services.tables import table_play


def next_move(table: Table) -> tuple[int, dict]:
    """The first legal action of whoever acts now, and their seat."""
    engine = get_engine(table.game)
    seat = engine.to_act(table.state)[0]
    action = next(a for a in engine.legal_actions(table.state) if a["seat"] == seat)
    return seat, {k: v for k, v in action.items() if k != "seat"}


def play_next(table: Table, client_action_id: str = "") -> Table:
    seat, action = next_move(table)
    return table_play(
        table_id=table.pk, seat=seat, action=action, version=table.version, client_action_id=client_action_id
    ).table


def play_random(table: Table, steps: int, chooser) -> Table:
    """``steps`` random legal actions (fewer if the game ends), each through ``table_play``."""
    engine = get_engine(table.game)
    for _ in range(steps):
        if table.status != Table.Status.ACTIVE:
            break
        action = dict(chooser.choice(engine.legal_actions(table.state)))
        seat = action.pop("seat")
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    return table
