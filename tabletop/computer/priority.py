"""The computer thinks at a lower OS priority than the pages (issue 26, ruling BOT35): a search takes
only the CPU the people's taps leave over.

Two places decide a computer turn, and each lowers the priority of exactly what does nothing else:

* ``make run`` (no worker): the pool's processes (``pool``) serve only decisions, so each lowers its
  own priority once, as it starts (``lower``: the pool's initializer), by ``COMPUTER_NICENESS``.
* a Celery worker (``services.computer_moves.run_turn``): the worker's process also settles day ends and backups, so
  it is never lowered. The decision runs in a thread of its own that lowers only itself
  (``in_lowered_thread``): on Linux a nice value belongs to a thread, and the thread, with its nice
  value, ends with the decision. Elsewhere (no per-thread nice value) the decision runs at the
  worker's priority rather than lower the whole worker for good.

An unprivileged process can lower its priority but never raise it back, which is why nothing here
ever lowers a process or thread that serves anything after the decision.

This module imports no Django: the pool's fresh interpreter imports it to run ``lower``.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any

DEFAULT_NICENESS = 10
PER_THREAD = sys.platform.startswith("linux")  # where os.nice() in a thread lowers only that thread


def lower(niceness: int) -> None:
    """Lower this process's priority by ``niceness`` (the kernel caps it at 19); 0 leaves it."""
    if niceness > 0:
        os.nice(niceness)


def niceness_now() -> int:
    """The nice value of the calling thread (on Linux; elsewhere of the process)."""
    return os.getpriority(os.PRIO_PROCESS, 0)


def in_lowered_thread(niceness: int, fn: Callable[..., Any], /, *args, **kwargs) -> Any:
    """``fn(*args, **kwargs)`` in a new thread whose priority is ``niceness`` lower than the caller's;
    its answer or its exception, as if called here. The caller's own priority never changes."""
    if niceness <= 0 or not PER_THREAD:
        return fn(*args, **kwargs)
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            lower(niceness)
            outcome["value"] = fn(*args, **kwargs)
        except BaseException as error:  # handed to the caller
            outcome["error"] = error

    thread = threading.Thread(target=run, name="computer-decision", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
