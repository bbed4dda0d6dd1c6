"""Give the computer its turn once a change of a table commits.

After every committed change of a table (an action, an undo, the table's creation, a fork, a seat
handed over), ``turn_after_commit`` schedules a computer turn when the table is in play and a
computer seat is to act (the lowest such seat; the next one follows once it has moved). A change
that gives no computer a turn still tells the pool the table moved on, so its older decisions still
queued are cancelled (``pool.moved_on``).

Where the turn runs, by task name (the tasks live in ``tabletop.tasks``, which imports ``services.computer_moves``):
with a Celery worker (``REDIS_URL`` set, tasks not eager) the task ``COMPUTER_TURN(table_id,
version)`` reads, decides and plays; without one (``make run``) the decision runs in ``pool`` and its
move is applied by the task ``COMPUTER_MOVE`` run in this process.

``send`` is the one place a turn leaves this process, so it is where what is sent is checked
(``plain``: a Django enum or a model refused with a sentence naming it, CONVENTIONS 14f), and where
the turn's bound starts (``watchdog``, ruling BOT33: sent once more, then the seat handed back, by
``COMPUTER_WATCH``).
A turn that cannot be sent at all hands its seat back at once (ruling BOT30): no page says
"thinking" for a turn nobody has. An all-computer table at its action limit (``action_limit``, issue
36) gets no more turns: the task ``COMPUTER_LIMIT`` abandons it with a sentence instead.

One decision per table and version (ruling BOT34): in-process the pool's registry refuses a second
one; with a worker, a key in the cache (shared, Redis) does, for the turn's two bounds. So the GM
pressing "computer, quick" again on a seat that is already the computer's (``seat_set_bot`` schedules
the turn again) starts nothing while the turn is under way, and gives a lost turn (a restart) again.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import NamedTuple

from celery import current_app
from django.core.cache import cache
from django.db import connections, transaction

from ..engines import get_engine
from ..models import Table
from ..selectors import computer_seats
from . import action_limit, pool, watchdog
from .plain import NotPlain, plain_arguments
from .strengths import budget, decision_seed

logger = logging.getLogger(__name__)

COMPUTER_TURN = "tabletop.computer_turn"  # a worker's whole turn: read, decide, play
COMPUTER_MOVE = "tabletop.computer_move"  # in-process: play a move the pool decided, or hand the seat back
COMPUTER_WATCH = "tabletop.computer_watch"  # the turn's bound passed: send it again, or hand the seat back


class Turn(NamedTuple):
    """A computer turn as read with the change that committed: everything the decision needs."""

    table_id: int
    game: str
    seed: int
    version: int
    state: dict
    seat: int
    strength: str


def turn_after_commit(table: Table) -> None:
    """Once the current transaction commits, give the computer its turn at ``table`` if a computer
    seat is to act (called wherever a table changes); an all-computer table at its action limit is
    ended instead."""
    if action_limit.reached(table):
        table_id, version = table.pk, table.version
        transaction.on_commit(lambda: _end_at_limit(table_id, version))
        return
    turn = _turn(table)
    if turn is not None:
        transaction.on_commit(lambda: send(turn))
    elif pool.holds(table.pk):  # in-process, an older decision of this table may still be queued
        table_id, version = table.pk, table.version
        transaction.on_commit(lambda: moved_on(table_id, version))


def _turn(table: Table) -> Turn | None:
    if table.status != Table.Status.ACTIVE:
        return None
    bots = computer_seats(table)  # from the annotated row the change loaded: no query on an action
    acting = [seat for seat in get_engine(table.game).to_act(table.state) if isinstance(seat, int) and seat in bots]
    if not acting:
        return None
    seat = min(acting)
    return Turn(table.pk, table.game, table.seed, table.version, table.state, seat, bots[seat])


def in_process() -> bool:
    """No Celery worker to send to: tasks run eagerly (no ``REDIS_URL``), so turns run in this process."""
    return bool(current_app.conf.task_always_eager)


def moved_on(table_id: int, version: int) -> None:
    """``table_id`` is at ``version`` now: its older decisions still queued, and their watches, go."""
    pool.moved_on(table_id, version)
    watchdog.settle(table_id, below=version)


def send(turn: Turn, *, attempt: int = 1, limit: float | None = None) -> bool:
    """Send ``turn`` (attempt 1, or the watchdog's attempt 2) to the pool or the worker, with its watch.
    False when nothing was sent: one is under way for this version, or it could not be sent (then the
    seat is handed back). Never raises: the write that committed must not fail for it."""
    limit = limit or watchdog.turn_limit(turn.strength)
    again = attempt > 1
    try:
        if in_process():
            seed, decision_budget = decision_seed(turn.seed, turn.version), budget()
            plain_arguments(game=turn.game, state=turn.state, seat=turn.seat, strength=turn.strength, seed=seed,
                            budget=decision_budget)
            arguments = (turn.game, turn.state, turn.seat, turn.strength, seed)
            done = partial(_decided, turn=turn)
            if not pool.submit((turn.table_id, turn.version), arguments, decision_budget, done, replace=again):
                logger.info("computer turn at table %s (version %s) already under way", turn.table_id, turn.version)
                return False
            watchdog.settle(turn.table_id, below=turn.version)
            watchdog.start(turn.table_id, turn.version, limit, lambda: _overdue(turn, attempt, limit))
            return True
        watch = plain_arguments(table_id=turn.table_id, seat=turn.seat, version=turn.version, attempt=attempt,
                                limit=limit)
        if not again and not cache.add(_sent_key(turn), attempt, timeout=watchdog.ATTEMPTS * limit):
            logger.info("computer turn at table %s (version %s) already sent", turn.table_id, turn.version)
            return False
        current_app.tasks[COMPUTER_TURN].delay(turn.table_id, turn.version)  # the worker reads the table afresh
        current_app.tasks[COMPUTER_WATCH].apply_async(kwargs=watch, countdown=limit)
        return True
    except NotPlain as refusal:
        logger.error("computer turn at table %s (version %s) not sent: %s", turn.table_id, turn.version, refusal)
        _give_back(turn, "its turn could not be sent to it (a bug: not plain data)")
    except Exception as error:
        logger.exception("computer turn at table %s (version %s) not sent", turn.table_id, turn.version)
        _give_back(turn, f"its turn could not be sent to it ({type(error).__name__})")
    return False


def _end_at_limit(table_id: int, version: int) -> None:
    """Send ``COMPUTER_LIMIT`` (run at once without a worker); never raises: the write committed."""
    try:
        current_app.tasks[action_limit.COMPUTER_LIMIT].delay(table_id, version)
    except Exception:
        logger.exception("all-computer table %s at its action limit (version %s) could not be ended", table_id,
                         version)


def _sent_key(turn: Turn) -> str:
    return f"tabletop:computer-turn:{turn.table_id}:{turn.version}"


def _give_back(turn: Turn, reason: str) -> None:
    try:
        current_app.tasks[COMPUTER_MOVE].apply(args=[turn.table_id, turn.seat, turn.version, None, reason], throw=True)
    except Exception:
        logger.exception("computer at table %s (seat %s) could not give its seat back", turn.table_id, turn.seat)


def _decided(future: Future, turn: Turn) -> None:
    """The pool's answer (in a thread of its own): the move, or why there is none, to ``COMPUTER_MOVE``.
    A move played settles the turn's watch; anything else leaves it to check the table when it fires."""
    action, failure = None, ""
    try:
        action = future.result()
    except BrokenProcessPool:
        logger.exception("computer at table %s (seat %s, version %s): its process died again", turn.table_id,
                         turn.seat, turn.version)
        failure = "its process died twice while deciding"
    except Exception as error:
        logger.exception("computer at table %s (seat %s, version %s) failed to decide", turn.table_id, turn.seat,
                         turn.version)
        failure = f"it could not decide ({type(error).__name__})"
    played = current_app.tasks[COMPUTER_MOVE].apply(
        args=[turn.table_id, turn.seat, turn.version, action, failure], throw=True
    ).get()
    if played:
        watchdog.settle(turn.table_id, turn.version)


def _overdue(turn: Turn, attempt: int, limit: float) -> None:
    """In-process, the turn's bound passed (in the watch's own thread): ``COMPUTER_WATCH`` checks the table."""
    try:
        current_app.tasks[COMPUTER_WATCH].apply(
            kwargs={"table_id": turn.table_id, "seat": turn.seat, "version": turn.version, "attempt": attempt,
                    "limit": limit},
            throw=True,
        )
    except Exception:
        logger.exception("computer turn at table %s (version %s): its watch failed", turn.table_id, turn.version)
    finally:
        connections.close_all()  # this thread's own connections
