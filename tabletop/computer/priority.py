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

A nice value only counts against threads of the same scheduler group. Where Linux groups processes by
session (autogroup, ``/proc/sys/kernel/sched_autogroup_enabled``), a worker in a session of its own is
first given its session's share beside the web server's, whatever its threads' nice values (issue 40).
So a worker, as it starts, lowers its own session's weight (``lower_session``: ``/proc/self/autogroup``)
to ``COMPUTER_NICENESS``, but only when it leads that session: a session shared with other processes
(the same shell script as the web server) is left as it is, with a warning saying how to fix it.

This module imports no Django: the pool's fresh interpreter imports it to run ``lower``.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_NICENESS = 10
PER_THREAD = sys.platform.startswith("linux")  # where os.nice() in a thread lowers only that thread
AUTOGROUP_ENABLED = Path("/proc/sys/kernel/sched_autogroup_enabled")
AUTOGROUP = Path("/proc/self/autogroup")  # "/autogroup-69 nice 0": this process's session's group
AUTOGROUP_TRIES = 5  # without CAP_SYS_ADMIN, Linux refuses (EAGAIN) a write within 0.1 s of another one
FIXES = "start the worker with setsid, as a service of its own (systemd) or on another machine"

logger = logging.getLogger(__name__)


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


def autogroup_on() -> bool:
    """Whether Linux weighs this process's session (its autogroup) before any nice value counts."""
    try:
        return AUTOGROUP_ENABLED.read_text().strip() == "1" and AUTOGROUP.exists()
    except OSError:
        return False


def _autogroup_nice() -> int:
    return int(AUTOGROUP.read_text().split()[-1])


def _set_autogroup_nice(value: int) -> None:
    for attempt in range(1, AUTOGROUP_TRIES + 1):
        try:
            AUTOGROUP.write_text(str(value))
            return
        except BlockingIOError:
            if attempt == AUTOGROUP_TRIES:
                raise
            time.sleep(0.11)


def lower_session(niceness: int) -> None:
    """A worker's start (before its pool starts, so the pool's processes share it): its session weighs
    as nice ``niceness`` (capped at 19) beside the pages' sessions, where Linux groups by session and
    the worker leads its own; it is never raised. One log line says what was done, and why not."""
    if niceness <= 0:
        logger.info("computer turns: this worker's session keeps its weight (COMPUTER_NICENESS is 0)")
        return
    if not autogroup_on():
        logger.info("computer turns: Linux does not group by session here, so only the decisions' threads are lowered")
        return
    if os.getsid(0) != os.getpid():
        logger.warning(
            "computer turns: this worker shares its session with other processes, so its weight is left as it is "
            "(lowering it would lower them too): %s, so that the pages come first",
            FIXES,
        )
        return
    target = min(19, niceness)
    try:
        before = _autogroup_nice()
        if before < target:
            _set_autogroup_nice(target)
    except (OSError, ValueError) as error:  # a read-only /proc (a container), or a format not known here
        logger.warning("computer turns: this worker's session could not be lowered (%s): %s", error, FIXES)
        return
    logger.info(
        "computer turns: this worker's session weighs as nice %d beside the pages' sessions (it was nice %d)",
        max(before, target),
        before,
    )
