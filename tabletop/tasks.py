"""Celery tasks of the tabletop app: a computer's turn at a table (issue 16).

Sent by ``tabletop.bot_turns`` once a change of a table commits and a computer seat is to act,
when a worker is there to run it (``REDIS_URL`` set); without one, turns run in-process
(``bot_turns``' process pool) and this task is not used. The task decides without holding any
transaction or lock, then plays through ``table_play`` at the version it was sent for: a table that
moved on meanwhile (someone moved first) makes it a no-op, so a task delivered twice plays once.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import bot_turns

logger = logging.getLogger(__name__)

COMPUTER_TURN = "tabletop.computer_turn"


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
    played = bot_turns.run_turn(table_id, version)
    logger.info("computer turn at table %s, version %s: %s", table_id, version, "played" if played else "nothing to do")
    return played
