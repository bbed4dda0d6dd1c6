"""Give the computer its turn once a change of a table commits.

After every committed change of a table (an action, an undo, the table's creation, a fork, a seat
handed over), ``turn_after_commit`` schedules a computer turn when the table is in play and a
computer seat is to act (the lowest such seat; the next one follows once it has moved).

Where the turn runs, by task name (the tasks live in ``tabletop.tasks``, which imports the runner):
with a Celery worker (``REDIS_URL`` set, tasks not eager) the task ``COMPUTER_TURN(table_id,
version)`` reads, decides and plays; without one (``make run``) the decision runs in ``pool`` and its
move is applied by the task ``COMPUTER_MOVE`` run in this process.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

from celery import current_app
from django.db import transaction

from ..engines import get_engine
from ..models import Table
from ..selectors import computer_seats
from . import pool
from .strengths import budget, decision_seed

logger = logging.getLogger(__name__)

COMPUTER_TURN = "tabletop.computer_turn"  # a worker's whole turn: read, decide, play
COMPUTER_MOVE = "tabletop.computer_move"  # in-process: play a move the pool decided, or hand the seat back


def turn_after_commit(table: Table) -> None:
    """Once the current transaction commits, give the computer its turn at ``table`` if a computer
    seat is to act (called wherever a table changes)."""
    if table.status != Table.Status.ACTIVE:
        return
    bots = computer_seats(table)  # from the annotated row the change loaded: no query on an action
    acting = [seat for seat in get_engine(table.game).to_act(table.state) if isinstance(seat, int) and seat in bots]
    if not acting:
        return
    seat = min(acting)
    turn = (table.pk, table.game, table.seed, table.version, table.state, seat, bots[seat])
    transaction.on_commit(lambda: _schedule(*turn))


def in_process() -> bool:
    """No Celery worker to send to: tasks run eagerly (no ``REDIS_URL``), so turns run in this process."""
    return bool(current_app.conf.task_always_eager)


def _schedule(table_id: int, game: str, seed: int, version: int, state: dict, seat: int, strength: str) -> None:
    try:
        if not in_process():
            current_app.tasks[COMPUTER_TURN].delay(table_id, version)  # the worker reads the table afresh
            return
        arguments = (game, state, seat, strength, decision_seed(seed, version))
        pool.submit(arguments, budget(), lambda future: _decided(future, table_id, seat, version))
    except Exception:  # a turn not scheduled must never fail the write that committed
        logger.exception("computer turn at table %s (version %s) not scheduled", table_id, version)


def _decided(future: Future, table_id: int, seat: int, version: int) -> None:
    """The pool's answer (in a thread of its own): the move, or why there is none, to ``COMPUTER_MOVE``."""
    action, failure = None, ""
    try:
        action = future.result()
    except BrokenProcessPool:
        logger.exception("computer at table %s (seat %s, version %s): its process died", table_id, seat, version)
        pool.reset()
        return
    except Exception as error:
        logger.exception("computer at table %s (seat %s, version %s) failed to decide", table_id, seat, version)
        failure = f"it could not decide ({type(error).__name__})"
    current_app.tasks[COMPUTER_MOVE].apply(args=[table_id, seat, version, action, failure], throw=True)
