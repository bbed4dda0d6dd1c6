"""The in-process runner without a Celery worker (``make run``): a process pool deciding computer turns.

The pure ``decide`` runs in a spawn process pool (created on first use, ``BOT_PROCESSES`` workers,
1 by default): a fresh interpreter that imports only the pure ``tabletop.bots`` (no Django, no copy of
the server's threads or sockets), so a decision never holds the request thread, the server's GIL or
a database lock. Its first decision pays the start-up. When a decision is ready, ``done(future)`` runs
in a small thread of its own (the pool's management thread must not touch the database).

``wait_idle`` waits until every decision sent here was decided and its ``done`` has returned (tests,
and a server shutting down).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from django.conf import settings
from django.db import connections

from ..bots import decide

logger = logging.getLogger(__name__)

_pool_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None
_pending = 0  # decisions sent to the pool whose ``done`` has not returned yet
_idle = threading.Condition()


def _track(step: int) -> None:
    global _pending
    with _idle:
        _pending += step
        _idle.notify_all()


def wait_idle(timeout: float) -> bool:
    """Wait until no in-process computer turn is deciding or being applied; False on timeout."""
    with _idle:
        return _idle.wait_for(lambda: _pending == 0, timeout)


def reset() -> None:
    """Drop the pool (its process died): the next decision starts a new one."""
    global _executor
    with _pool_lock:
        broken, _executor = _executor, None
    if broken is not None:
        broken.shutdown(wait=False, cancel_futures=True)


def _pool() -> ProcessPoolExecutor:
    global _executor
    with _pool_lock:
        if _executor is None:
            _executor = ProcessPoolExecutor(
                max_workers=max(1, int(getattr(settings, "BOT_PROCESSES", 1))), mp_context=get_context("spawn")
            )
        return _executor


def submit(arguments: tuple, budget: dict, done: Callable[[Future], None]) -> None:
    """Decide ``decide(*arguments, **budget)`` in the pool; then ``done(future)`` in a thread of its own."""
    _track(+1)
    try:
        try:
            future = _pool().submit(decide, *arguments, **budget)
        except BrokenProcessPool:  # its process died (killed, out of memory): a new pool
            reset()
            future = _pool().submit(decide, *arguments, **budget)
    except BaseException:
        _track(-1)
        raise
    future.add_done_callback(lambda decided: _in_thread(decided, done))


def _in_thread(future: Future, done: Callable[[Future], None]) -> None:
    threading.Thread(target=_finish, args=(future, done), name="computer-turn", daemon=True).start()


def _finish(future: Future, done: Callable[[Future], None]) -> None:
    try:
        done(future)
    except Exception:
        logger.exception("a computer decision could not be applied")
    finally:
        connections.close_all()  # this thread's own connections
        _track(-1)
