"""A Celery worker lowers its own session's scheduling weight where Linux groups by session (issue 40,
ruling BOT35): with autogroup on, a worker leading its own session is first weighed against the web
server's session, whatever its threads' nice values, so as it starts it sets its session's nice
(``/proc/self/autogroup``) to ``COMPUTER_NICENESS``; a worker sharing its session changes nothing and
says so.

Each test starts a fresh Python process (in a session of its own, never the test runner's) that sends
the worker's start-up signal, ``celeryd_after_setup``, to the project's Celery app, and reads the
session's group nice in ``/proc/<pid>/autogroup`` while the process still lives. The last test starts a
real worker (tests/armies/_celery.py). Linux only.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tabletop.computer import priority

from tests.armies._celery import ROOT, Worker, celery_processes  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(
    not priority.autogroup_on(),
    reason="Linux does not group by session here (no /proc/self/autogroup, or sched_autogroup_enabled is not 1)",
)

# A worker's start, in short: the project's Celery app sends the signal a real worker sends once its
# logging is set up. "follower": a child in the session of the process the test started, which leads it.
# "read-only": writing /proc/self/autogroup fails as on a read-only /proc. The group's nice is printed
# before the signal; the process waits for a line on stdin so that the test can read its /proc.
START = """
import logging, os, sys
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(name)s %(message)s")
from celery.signals import celeryd_after_setup
from muster.celery import app
from tabletop.computer import priority

def read_only(value):
    raise OSError(30, "Read-only file system")

if "read-only" in sys.argv:
    priority._set_autogroup_nice = read_only
if "follower" in sys.argv and os.fork():
    os.wait()
    sys.exit(0)
print("before", priority._autogroup_nice(), flush=True)
celeryd_after_setup.send(sender="test@localhost", instance=None, conf=app.conf)
print("started", os.getpid(), flush=True)
sys.stdin.readline()
"""


def group_nice(pid: int) -> int:
    """The nice value of ``pid``'s autogroup, as Linux reports it ("/autogroup-69 nice 0")."""
    return int(re.fullmatch(r"/autogroup-\d+ nice (-?\d+)\n", Path(f"/proc/{pid}/autogroup").read_text())[1])


@contextmanager
def worker_start(*options: str, niceness: str | None = None) -> Iterator[tuple[int, int, int, str]]:
    """(the leader's pid, the pid that ran the start, its group's nice before, the log so far), in a
    process started in a session of its own; ``niceness``: its COMPUTER_NICENESS (None: the default)."""
    env = {key: value for key, value in os.environ.items() if key != "COMPUTER_NICENESS"}
    if niceness is not None:
        env["COMPUTER_NICENESS"] = niceness
    process = subprocess.Popen(
        [sys.executable, "-c", START, *options], cwd=ROOT, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        lines = []
        while not (lines and lines[-1].startswith("started")):
            line = process.stdout.readline()
            assert line, "the process ended before its start:\n" + "".join(lines)
            lines.append(line)
        before = int(next(line for line in lines if line.startswith("before")).split()[1])
        yield process.pid, int(lines[-1].split()[1]), before, "".join(lines)
    finally:
        process.stdin.close()
        process.wait(30)
        process.stdout.close()
    assert process.returncode == 0


def test_a_worker_leading_its_session_lowers_its_sessions_weight_to_computer_niceness():
    with worker_start() as (leader, pid, before, log):
        assert pid == leader == os.getsid(pid)  # it leads its session
        assert group_nice(pid) == 10 > before  # the default COMPUTER_NICENESS
    assert "INFO tabletop.computer.priority computer turns: this worker's session weighs as nice 10" in log

    with worker_start(niceness="7") as (leader, pid, before, log):
        assert group_nice(pid) == 7 > before
    assert "weighs as nice 7 beside the pages' sessions" in log


def test_a_worker_sharing_its_session_leaves_the_sessions_weight_and_says_how_to_fix_it():
    with worker_start("follower") as (leader, pid, before, log):
        assert os.getsid(pid) == leader != pid  # a child in its parent's session, as from one shell script
        assert group_nice(leader) == group_nice(pid) == before == 0
    assert re.search(r"WARNING .* this worker shares its session with other processes, .*setsid", log), log
    assert "weighs as nice" not in log


def test_computer_niceness_0_leaves_the_sessions_weight():
    with worker_start(niceness="0") as (leader, pid, before, log):
        assert group_nice(pid) == before == 0
    assert "keeps its weight (COMPUTER_NICENESS is 0)" in log


def test_a_session_that_cannot_be_lowered_is_a_warning_not_a_crash():
    with worker_start("read-only") as (leader, pid, before, log):
        assert group_nice(pid) == before == 0
    assert re.search(r"WARNING .* could not be lowered \(\[Errno 30\] Read-only file system\): .*setsid", log), log
    assert "weighs as nice" not in log


@pytest.mark.redis
@pytest.mark.postgres
def test_a_real_worker_in_its_own_session_weighs_as_computer_niceness(tmp_path, celery_processes):  # noqa: F811
    """``celery -A muster worker`` started in a session of its own (as ``setsid celery ...``): the signal
    the hook listens to is the one a real worker sends, before it reads its queue."""
    queue, processes = celery_processes
    processes.append(worker := Worker(tmp_path / "worker.log", queue))  # started: it said "ready."
    assert group_nice(worker.process.pid) == 10
    assert "this worker's session weighs as nice 10 beside the pages' sessions (it was nice 0)" in worker.output()
