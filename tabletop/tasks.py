"""Celery tasks of the tabletop app: a computer's turn at a table (issue 16), sent by name by
``computer.scheduling`` once a change of a table commits and a computer seat is to act.

* ``computer_turn(table_id, version)``: with a worker (``REDIS_URL`` set). It decides without holding
  any transaction or lock, then plays through ``table_play`` at the version it was sent for: a table
  that moved on meanwhile (someone moved first) makes it a no-op, so a task delivered twice plays once.
* ``computer_move(table_id, seat, version, action, failure)``: without a worker, run in-process once
  the process pool has decided (``computer.pool``): play the move, or hand the seat back.
* ``computer_watch(table_id, seat, version, attempt, limit)``: the turn's bound passed (``computer.watchdog``,
  ruling BOT33): sent with a countdown to a worker, or run in-process by the turn's timer. A table that
  moved on makes it a no-op; else the turn is sent again, or after the last attempt the seat handed back.
* ``computer_limit(table_id, version)``: an all-computer table reached its action limit (issue 36,
  ``computer.action_limit``): abandoned with a sentence, never left to run for ever.
* ``coach_search(game, state, seat, seed, strength, budget)``: with a worker, a seat's "what would the
  computer do?" (``computer.coach_search``, issue 34): plain data in, the moves out, thought in a thread
  lowered below the worker's computer turns. No retry: the request waits for it only so long.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .computer import coach_job, priority
from .computer.action_limit import COMPUTER_LIMIT
from .computer.coach_search import COACH_SEARCH, lowered_by
from .computer.scheduling import COMPUTER_MOVE, COMPUTER_TURN, COMPUTER_WATCH
from .services import computer_moves

logger = logging.getLogger(__name__)


@shared_task(
    name=COMPUTER_TURN,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=30,
    max_retries=5,
)
def computer_turn(table_id: int, version: int) -> bool:
    """The computer's move at ``table_id`` if it is still at ``version``; True when it was played."""
    played = computer_moves.run_turn(table_id, version)
    logger.info("computer turn at table %s, version %s: %s", table_id, version, "played" if played else "nothing to do")
    return played


@shared_task(name=COMPUTER_MOVE)
def computer_move(table_id: int, seat: int, version: int, action: dict | None, failure: str = "") -> bool:
    """A move the in-process pool decided (or ``failure``: why it could not); True when it was played."""
    return computer_moves.play_or_give_back(table_id, seat, version, action, failure)


@shared_task(
    name=COMPUTER_WATCH,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=30,
    max_retries=5,
)
def computer_watch(table_id: int, seat: int, version: int, attempt: int, limit: float) -> str:
    """The bound of a computer turn passed: "moved on", "sent again" or "given back"."""
    outcome = computer_moves.overdue(table_id, seat, version, attempt, limit)
    logger.info("computer turn at table %s, version %s, attempt %s past its bound: %s", table_id, version, attempt,
                outcome)
    return outcome


@shared_task(name=COMPUTER_LIMIT, acks_late=True, autoretry_for=(OperationalError, InterfaceError), retry_backoff=2,
             max_retries=5)
def computer_limit(table_id: int, version: int) -> bool:
    """End the all-computer table at its action limit; True when it was ended."""
    return computer_moves.end_at_limit(table_id, version)


@shared_task(name=COACH_SEARCH)
def coach_search(game: str, state: dict, seat: int, seed: str, strength: str, budget: dict) -> list[dict]:
    """The coach's moves for ``seat`` (``coach_job.advice``), in a thread lowered below the computer's turns."""
    return priority.in_lowered_thread(lowered_by(), coach_job.advice, game, state, seat, seed, strength, budget)
