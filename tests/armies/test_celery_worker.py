"""The day end through a real Celery worker process over Redis, and a worker killed mid-run.

The worker is a separate process, so it needs the same database as the test: PostgreSQL
(the test database ``test_<name>``; its URL is built from ``connection.settings_dict``).
The test's own Celery app is pointed at Redis for the duration of each test, with a queue of
its own, and restored afterwards. Workers are always stopped in ``finally``.
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

from armies.models import DayEnd, Settlement
from armies.services.upkeep import day_end_start
from campaign.models import Campaign
from muster.celery import app

from tests.armies.test_upkeep import assert_charged_once, many_commanders

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"
TIMEOUT = 60


def _database_url() -> str:
    db = connection.settings_dict
    credentials = f"{quote(db['USER'], safe='')}:{quote(str(db['PASSWORD']), safe='')}@" if db["USER"] else ""
    return f"postgres://{credentials}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _reset_connections() -> None:
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
    _reset_connections()
    try:
        yield
    finally:
        app.conf.update(saved)
        _reset_connections()


class Worker:
    """``celery -A muster worker`` in its own process group, logging to a file."""

    def __init__(self, log: Path, queue: str, **env: str):
        self.log = log
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "muster.settings",
            "DATABASE_URL": _database_url(),
            "REDIS_URL": os.environ["TEST_REDIS_URL"],
            "SECRET_KEY": os.environ.get("SECRET_KEY", "test-only-secret-not-for-production"),
            "SECURE_SSL_REDIRECT": "0",
            "CONN_MAX_AGE": "0",
            **env,
        }
        command = [
            str(CELERY), "-A", "muster", "worker", "--pool", "solo", "--concurrency", "1", "-l", "info",
            "-Q", queue, "-n", f"{log.stem}-{uuid.uuid4().hex[:6]}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_for(lambda: "ready." in self.output() or self.process.poll() is not None, "the worker to start", self)
        assert self.process.poll() is None, f"the worker exited:\n{self.output()}"

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


def day_end_row(campaign: Campaign) -> DayEnd | None:
    return DayEnd.objects.filter(campaign=campaign, day=1).first()


def test_a_real_worker_settles_the_day(tmp_path):
    world = many_commanders(20)
    queue = f"muster-test-{uuid.uuid4().hex[:8]}"
    worker = None
    try:
        with celery_over_redis(queue):
            worker = Worker(tmp_path / "worker.log", queue)
            day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
            wait_for(lambda: day_end_row(world.campaign).status in {"done", "failed"}, "the day end", worker)

        day_end = day_end_row(world.campaign)
        assert (day_end.status, day_end.done, day_end.total, day_end.error) == ("done", 20, 20, ""), worker.output()
        assert "armies.settle_day" in worker.output() and "succeeded" in worker.output()  # not run in-process
        assert_charged_once(world)
        assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2
    finally:
        if worker:
            worker.stop()


def test_a_worker_killed_mid_settlement_then_a_resend_charges_everyone_once(tmp_path):
    world = many_commanders(12)
    queue = f"muster-test-{uuid.uuid4().hex[:8]}"
    first = second = None
    try:
        with celery_over_redis(queue):
            # 4 chunks of 3, each followed by a 1.5 s pause: time to kill it after the first
            first = Worker(tmp_path / "first.log", queue, MUSTER_TEST_SETTLE_CHUNK="3", MUSTER_TEST_SETTLE_DELAY="1.5")
            day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
            wait_for(lambda: (row := day_end_row(world.campaign)) is not None and row.done >= 3, "chunk 1", first)
            first.kill()

            settled = Settlement.objects.filter(day=1).count()
            assert 3 <= settled < 12, first.output()
            assert day_end_row(world.campaign).status == "running"
            assert Campaign.objects.get(pk=world.campaign.pk).current_day == 1

            # the operator starts the day end again; a fresh worker finishes it
            second = Worker(tmp_path / "second.log", queue, MUSTER_TEST_SETTLE_CHUNK="3")
            day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
            wait_for(lambda: day_end_row(world.campaign).status in {"done", "failed"}, "the day end", second)

        day_end = day_end_row(world.campaign)
        assert (day_end.status, day_end.done, day_end.total) == ("done", 12, 12), second.output()
        assert_charged_once(world)
        assert Settlement.objects.filter(day=1).count() == 12
        assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2
    finally:
        for worker in (first, second):
            if worker:
                worker.stop()
