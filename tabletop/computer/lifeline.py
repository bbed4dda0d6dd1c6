"""A computer pool process ends with the server that started it (issue 34).

The pool (``pool``) is a ``ProcessPoolExecutor`` of spawned processes. When the server stops cleanly
it shuts the pool down (``pool.shutdown``, from the ASGI lifespan's shutdown: muster/lifespan.py);
but a server that dies without that (``kill -9``, out of memory, a crash) would leave its pool's
processes running with no parent, and with them ``multiprocessing``'s resource tracker, which waits
for every process holding it to end. So each pool process watches its parent as it starts
(``start``, the pool's initializer): a small daemon thread checks every ``CHECK_SECONDS`` whether its
parent is still the server that started it, and ends the process at once when it is not (its
decision is worthless without the server). ``os.getppid`` works on every POSIX system, where
``prctl(PR_SET_PDEATHSIG)`` is Linux only; the thread runs between a search's bytecodes, so a
process deep in a decision ends too.

A pool process also ignores SIGINT (issue 35). Ctrl-C in ``make run``'s terminal goes to every process
of its foreground group, the pool's too, and each printed a ``KeyboardInterrupt`` traceback from
wherever it waited; the server stops them itself (``pool.shutdown``), so the signal is the server's
alone. (A process still starting when Ctrl-C comes, before this initializer runs, can still print one.)

This module imports no Django: the pool's fresh interpreter imports it to run ``start``.
"""

from __future__ import annotations

import os
import signal
import threading
import time

from . import priority

CHECK_SECONDS = 0.5


def start(parent_pid: int, niceness: int) -> None:
    """The pool process's initializer: leave Ctrl-C to the server, lower its priority (``priority.lower``)
    and watch ``parent_pid``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    priority.lower(niceness)
    watch_parent(parent_pid)


def watch_parent(parent_pid: int) -> None:
    """End this process as soon as its parent is no longer ``parent_pid`` (it died: the process was
    handed to another). Ends at once if that happened before the watch began."""
    threading.Thread(target=_watch, args=(parent_pid,), name="computer-lifeline", daemon=True).start()


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(CHECK_SECONDS)
    os._exit(0)  # no cleanup owed: the server's side of every queue is gone
