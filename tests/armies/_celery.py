"""A real Celery worker (or beat) process over Redis for the tests, on the test's own PostgreSQL database and
a queue of its own: the day end's worker tests and the computer's worker tests share it (CONVENTIONS 16b).

The worker is a separate process, so it needs the same database as the test: PostgreSQL (the test database
``test_<name>``; its URL is built from ``connection.settings_dict``). The test's own Celery app is pointed at
Redis for the duration of each test (``celery_processes``), with a queue of its own (the worker and beat
processes get it as their default queue, ``CELERY_QUEUE``), and restored afterwards. Processes are always
stopped in ``finally``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from kombu import pools

from muster.celery import app

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"
TIMEOUT = 120  # a bound on waiting, not a time asserted: generous for a loaded 2-core machine


def _database_url() -> str:
    db = connection.settings_dict
    credentials = f"{quote(db['USER'], safe='')}:{quote(str(db['PASSWORD']), safe='')}@" if db["USER"] else ""
    return f"postgres://{credentials}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def reset_connections() -> None:
    pools.reset()  # kombu's process-wide connection and producer pools
    app._pool = None
    app._backend_cache = None  # the result backend, cached per app or per thread
    app._local.__dict__.pop("backend", None)
    app.__dict__.pop("amqp", None)  # its queues and producer pool were built for the old settings


@contextmanager
def celery_over_redis(queue: str):
    """The test process's Celery app sends to Redis (not eagerly) on ``queue``."""
    url = os.environ["TEST_REDIS_URL"]
    keys = ("broker_url", "result_backend", "task_always_eager", "task_default_queue")
    saved = {key: app.conf[key] for key in keys}
    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False, task_default_queue=queue)
    reset_connections()
    try:
        yield
    finally:
        app.conf.update(saved)
        reset_connections()


class Worker:
    """``celery -A muster worker`` (or ``beat``) in its own process group, logging to a file."""

    def __init__(self, log: Path, queue: str, kind: str = "worker", **env: str):
        self.log = log
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "muster.settings",
            "DATABASE_URL": _database_url(),
            "REDIS_URL": os.environ["TEST_REDIS_URL"],
            "SECRET_KEY": os.environ.get("SECRET_KEY", "test-only-secret-not-for-production"),
            "SECURE_SSL_REDIRECT": "0",
            "CONN_MAX_AGE": "0",
            "CELERY_QUEUE": queue,
            **env,
        }
        if kind == "beat":
            command = [
                str(CELERY), "-A", "muster", "beat", "-l", "info", "--max-interval", "1",
                "-s", str(log.with_suffix(".schedule")),
            ]  # fmt: skip
            started = "beat: Starting..."
        else:
            command = [
                str(CELERY), "-A", "muster", "worker", "--pool", "solo", "--concurrency", "1", "-l", "info",
                "-Q", queue, "-n", f"{log.stem}-{uuid.uuid4().hex[:6]}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ]  # fmt: skip
            started = "ready."
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_for(lambda: started in self.output() or self.process.poll() is not None, f"the {kind} to start", self)
        assert self.process.poll() is None, f"the {kind} exited:\n{self.output()}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL, as when a machine dies: no cleanup, no acknowledgement."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_for(condition: Callable[[], bool], what: str, worker: Worker | None = None) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(
                f"timed out after {TIMEOUT}s waiting for {what}"
                + (f"; worker log:\n{worker.output()}" if worker else "")
            )
        time.sleep(0.1)


@pytest.fixture
def celery_processes():
    """(queue, processes): a queue of the test's own that the test's Celery app sends to; every
    worker or beat process the test appends to ``processes`` is stopped at the end."""
    queue = f"muster-test-{uuid.uuid4().hex[:8]}"
    processes: list[Worker] = []
    try:
        with celery_over_redis(queue):
            yield queue, processes
    finally:
        for process in processes:
            process.stop()
