"""The bound on a computer turn (issue 22, ruling BOT33): no page says "thinking" for ever.

A computer turn has ``turn_limit(strength)`` seconds to be applied: its strength's time cap (or the
tests' ``BOT_BUDGET`` seconds) plus ``COMPUTER_TURN_MARGIN`` (30 s by default: the pool's start, a
queue of other tables' decisions, the move's write). When the bound passes and the table is still at
that version with that computer seat to act, the turn is sent once more; when the second bound passes
too, the seat is handed back to a person with an activity line (``services.computer_moves.overdue``). So the GM is told
"a person takes over if it has not moved within ``hand_back_after(strength)`` s" (``ATTEMPTS`` bounds).

Who watches, by mode (``scheduling`` starts the watch when it sends a turn):

* with a Celery worker: the task ``COMPUTER_WATCH`` sent with ``countdown=limit`` (the broker holds
  it, so a restarted web process loses nothing; ``CELERY_BROKER_TRANSPORT_OPTIONS`` bounds a countdown
  at its visibility timeout, well above the limit);
* in-process: a ``threading.Timer`` per turn (here), which runs the same task in its own thread. A move
  played cancels its timer (``settle``), and a table that moved on cancels those of older versions; a
  timer that fires for a table that moved on costs one query and does nothing.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable

from django.conf import settings

from .strengths import seconds_cap

logger = logging.getLogger(__name__)

ATTEMPTS = 2  # the turn as sent, then once more; then the seat goes back to a person
DEFAULT_MARGIN = 30.0

_lock = threading.Lock()
_timers: dict[tuple[int, int], threading.Timer] = {}  # (table_id, version) -> its in-process watch


def turn_limit(strength: str) -> float:
    """Seconds one attempt at a computer turn has to be applied: its time cap plus the margin."""
    return seconds_cap(strength) + float(getattr(settings, "COMPUTER_TURN_MARGIN", DEFAULT_MARGIN))


def hand_back_after(strength: str) -> int:
    """Whole seconds after which a computer seat that has not moved is a person's again (what the GM sees)."""
    return math.ceil(ATTEMPTS * turn_limit(strength))


def start(table_id: int, version: int, limit: float, fire: Callable[[], None]) -> None:
    """In-process: ``fire()`` in a thread of its own after ``limit`` seconds, unless settled first."""
    key = (table_id, version)

    def run() -> None:
        with _lock:
            if _timers.get(key) is timer:
                del _timers[key]
        fire()

    timer = threading.Timer(limit, run)
    timer.daemon = True
    timer.name = f"computer-watch-{table_id}-{version}"
    with _lock:
        previous, _timers[key] = _timers.get(key), timer
    if previous is not None:
        previous.cancel()
    timer.start()


def settle(table_id: int, version: int | None = None, *, below: int | None = None) -> None:
    """Cancel in-process watches of ``table_id``: the one at ``version`` (its move was played), or those
    of every version ``below`` (the table moved on)."""
    with _lock:
        keys = [
            key for key in _timers
            if key[0] == table_id and (key[1] == version or (below is not None and key[1] < below))
        ]  # fmt: skip
        timers = [_timers.pop(key) for key in keys]
    for timer in timers:
        timer.cancel()


def cancel_all() -> None:
    """Cancel every in-process watch (tests between themselves, a server shutting down)."""
    with _lock:
        timers = list(_timers.values())
        _timers.clear()
    for timer in timers:
        timer.cancel()


def watching() -> list[tuple[int, int]]:
    """The (table_id, version) of every in-process watch running (tests)."""
    with _lock:
        return sorted(_timers)
