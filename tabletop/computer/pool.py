"""The in-process runner without a Celery worker (``make run``): a process pool deciding computer turns.

The pure ``decide`` runs in a spawn process pool (created on first use, ``BOT_PROCESSES`` workers,
1 by default): a fresh interpreter that imports only the pure ``tabletop.bots`` (no Django, no copy of
the server's threads or sockets), so a decision never holds the request thread, the server's GIL or
a database lock. Each process lowers its own OS priority as it starts (``priority.lower``, by
``COMPUTER_NICENESS``, ruling BOT35), so a search takes only the CPU the pages leave over. Its first
decision pays the start-up. What is sent is plain data, checked by ``scheduling`` where it sends
(``plain``): a Django enum once killed the pool's process as it unpickled its job (issue 22). When a
decision is ready, ``done(future)`` runs in a small thread of its own (the pool's management thread
must not touch the database).

Each decision is registered under its key, ``(table_id, version)``, until its ``done`` has returned:

* At most ``BOT_PROCESSES`` decisions run at once, and a table has at most one registered: a table's
  next computer turn is sent only once its last one was played (the next version), even with every
  seat the computer's; the other tables' wait in the pool's queue, one each.
* One decision per key: ``submit`` sends nothing and answers False while one is in flight (the GM
  pressing "computer, quick" again at the same version), unless ``replace`` (the watchdog's retry).
* A table that moved on: ``submit`` at a newer version, or ``moved_on``, cancels the table's older
  decisions still queued (``Future.cancel``), so they never hold the pool; their ``done`` is not
  called. One already running cannot be stopped: it is bounded by its strength's budget (its
  seconds cap), its ``done`` is not called either, so its move is never applied (it would be
  dropped as stale anyway). A ``ProcessPoolExecutor`` counts a job handed to its process's queue as
  running: with one process, the two oldest decisions.
* A dead process (killed, out of memory): every decision it held or queued fails with
  ``BrokenProcessPool``. Each is sent once more, to a fresh pool (``ATTEMPTS``); if that one dies too,
  ``done`` gets the broken future, and scheduling hands the seat back (ruling BOT30). So a process
  dying never leaves a page thinking, nor drops the turns queued behind it.

``wait_idle`` waits until every decision sent here was decided (or cancelled) and its ``done`` has
returned (tests, and a server shutting down); ``in_flight`` lists the registered decisions.

The coach's questions (``coach_search``, issue 34) think in a spawn pool of their own (``coach_submit``),
lowered further than the turns': its queue is not theirs, so neither waits behind the other.

A server that stops (SIGTERM, Ctrl-C) calls ``shutdown`` from its ASGI lifespan (muster/lifespan.py):
the registered decisions are dropped like those of a table that moved on (nothing is applied as the
server goes), queued ones cancelled, and the pool's processes ended, so neither they nor
``multiprocessing``'s resource tracker outlive the server. A process deep in a search is stopped
rather than waited for: its move would come after the server stopped. And should the server die
without a shutdown (``kill -9``), each process ends by itself (``lifeline``: its parent is watched).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import wait as wait_for_sentinels

from django.conf import settings
from django.db import connections

from ..bots import decide
from . import lifeline
from .strengths import niceness

logger = logging.getLogger(__name__)

ATTEMPTS = 2  # a decision whose process died is sent once more, to a fresh pool
SHUTDOWN_GRACE_SECONDS = 1.0  # an idle process ends at once when told; a busy one is then terminated

Key = tuple[int, int]  # (table_id, version)


@dataclass(eq=False)
class _Decision:
    key: Key
    arguments: tuple
    budget: dict
    done: Callable[[Future], None]
    attempts: int = 0
    stale: bool = False  # the table moved on: its move is not wanted
    future: Future | None = None
    executor: ProcessPoolExecutor | None = field(default=None, repr=False)


class _Spawned:
    """A spawn process pool made on first use and dropped (its processes ended) when it died or the server
    stops: the turns' pool and the coach's are two of these."""

    def __init__(self):
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None

    def get(self, workers: int, lowered_by: int) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = _spawn_pool(workers, lowered_by)
            return self._executor

    def drop(self, broken: ProcessPoolExecutor | None = None, grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
        """End the pool's processes (``broken``: only if it is still that pool), so the next use starts a new one."""
        with self._lock:
            if broken is not None and self._executor is not broken:
                return
            dropped, self._executor = self._executor, None
        if dropped is not None:
            _end(dropped, grace)

    def processes(self) -> list[int]:
        with self._lock:
            executor = self._executor
        return list(executor._processes or {}) if executor is not None else []  # the executor's own map by pid


_turns = _Spawned()
_coaches = _Spawned()
_registry_lock = threading.Lock()
_registry: dict[Key, _Decision] = {}
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


def in_flight() -> dict[Key, Future | None]:
    """The registered decisions, by (table_id, version), with their futures (tests, diagnostics)."""
    with _registry_lock:
        return {key: decision.future for key, decision in _registry.items()}


def holds(table_id: int) -> bool:
    """Whether a decision of ``table_id`` is registered (no query: scheduling asks on every change)."""
    with _registry_lock:
        return any(key[0] == table_id for key in _registry)


def reset(broken: ProcessPoolExecutor | None = None) -> None:
    """Drop the pool (its process died; ``broken``: only if it is still that one), so the next decision
    starts a new one. Decisions still queued on it were failed by the pool itself."""
    _turns.drop(broken)


def _spawn_pool(workers: int, lowered_by: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=max(1, workers),
        mp_context=get_context("spawn"),
        # its processes serve only the computer: below the pages (BOT35); and they end with this process
        initializer=lifeline.start,
        initargs=(os.getpid(), lowered_by),
    )


def shutdown(grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
    """The server is stopping: drop every registered decision (none is applied now), cancel the queued
    ones and end the pool's processes: idle ones at once, one still searching after ``grace`` seconds."""
    with _registry_lock:
        dropped = list(_registry.values())
        _registry.clear()
        for decision in dropped:
            decision.stale = True
    _turns.drop(grace=grace)
    _coaches.drop(grace=grace)


def _end(executor: ProcessPoolExecutor, grace: float) -> None:
    # The executor has no public list of its processes before Python 3.14 (terminate_workers).
    processes = list((executor._processes or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    wait_for_sentinels([process.sentinel for process in processes], timeout=grace)
    for process in processes:
        if process.is_alive():
            process.terminate()


def _pool() -> ProcessPoolExecutor:
    return _turns.get(int(getattr(settings, "BOT_PROCESSES", 1)), niceness())


# The coach's questions (``coach_search``, issue 34) think in processes of their own, started on first use:
# a question never queues behind the computers' turns, nor a turn behind a question, and their number is
# the most the coach thinks at once here (its leases keep to it, so nothing waits in their queue).


def coach_submit(fn: Callable, /, *arguments, workers: int, lowered_by: int) -> Future:
    """``fn(*arguments)`` (plain data) in one of the coach's ``workers`` processes, each ``lowered_by``
    nicer than this one; a pool found dead is replaced once."""
    executor = _coaches.get(workers, lowered_by)
    try:
        return executor.submit(fn, *arguments)
    except (BrokenProcessPool, RuntimeError):  # died, or shut down by another thread meanwhile
        _coaches.drop(executor)
        return _coaches.get(workers, lowered_by).submit(fn, *arguments)


def coach_shutdown(broken: ProcessPoolExecutor | None = None, *, grace: float = SHUTDOWN_GRACE_SECONDS) -> None:
    """End the coach's processes (``broken``: only if they are still that pool), so the next question
    starts new ones: after a process died, as a server stops (``shutdown``), between tests."""
    _coaches.drop(broken, grace)


def coach_processes() -> list[int]:
    """The pids of the coach's processes running now (tests, diagnostics)."""
    return _coaches.processes()


def submit(key: Key, arguments: tuple, budget: dict, done: Callable[[Future], None], *, replace: bool = False) -> bool:
    """Decide ``decide(*arguments, **budget)`` in the pool; then ``done(future)`` in a thread of its own.
    False, and nothing sent, when a decision for ``key`` is in flight already (unless ``replace``: the
    one in flight is cancelled if still queued, and left to finish if running)."""
    decision = _Decision(key, arguments, budget, done)
    with _registry_lock:
        previous = _registry.get(key)
        if previous is not None and not replace:
            return False
        _registry[key] = decision
        older = _unregister_older(*key)
    _cancel(older)
    if previous is not None and previous.future is not None:
        previous.future.cancel()  # queued: it goes; running: its move, if it comes first, is still good
    _track(+1)
    try:
        _send(decision)
    except BaseException:
        _unregister(decision)
        _track(-1)
        raise
    return True


def moved_on(table_id: int, version: int) -> None:
    """``table_id`` is at ``version`` now: cancel its decisions of older versions still queued."""
    with _registry_lock:
        older = _unregister_older(table_id, version)
    _cancel(older)


def _unregister_older(table_id: int, version: int) -> list[_Decision]:
    older = [decision for key, decision in _registry.items() if key[0] == table_id and key[1] < version]
    for decision in older:
        decision.stale = True
        del _registry[decision.key]
    return older


def _cancel(decisions: list[_Decision]) -> None:
    for decision in decisions:
        if decision.future is not None and decision.future.cancel():
            logger.info("computer decision at table %s (version %s) cancelled: the table moved on", *decision.key)


def _unregister(decision: _Decision) -> None:
    with _registry_lock:
        if _registry.get(decision.key) is decision:
            del _registry[decision.key]


def _send(decision: _Decision) -> None:
    decision.attempts += 1
    executor = _pool()
    try:
        future = executor.submit(decide, *decision.arguments, **decision.budget)
    except (BrokenProcessPool, RuntimeError):  # died, or shut down by another thread meanwhile: a new pool
        reset(executor)
        executor = _pool()
        future = executor.submit(decide, *decision.arguments, **decision.budget)
    decision.future, decision.executor = future, executor
    future.add_done_callback(lambda decided: _in_thread(decision, decided))


def _in_thread(decision: _Decision, future: Future) -> None:
    threading.Thread(target=_finish, args=(decision, future), name="computer-turn", daemon=True).start()


def _finish(decision: _Decision, future: Future) -> None:
    sent_again = False
    try:
        if future.cancelled() or decision.stale:
            return
        broken = isinstance(future.exception(), BrokenProcessPool)
        if broken:
            reset(decision.executor)  # the next decision, this one's or another's, starts a fresh pool
        if broken and decision.attempts < ATTEMPTS:
            logger.warning("computer at table %s (version %s): its process died; trying on a fresh pool", *decision.key)
            try:
                _send(decision)
                sent_again = True
                return
            except Exception as error:  # no pool to be had: the decision fails like the process
                future = Future()
                future.set_exception(error)
        decision.done(future)
    except Exception:
        logger.exception("a computer decision could not be applied")
    finally:
        if not sent_again:
            _unregister(decision)
            connections.close_all()  # this thread's own connections
            _track(-1)
