"""The day end through a real Celery worker process over Redis, and a worker killed mid-run.

The worker is a separate process, so it needs the same database as the test: PostgreSQL
(the test database ``test_<name>``; its URL is built from ``connection.settings_dict``).
The test's own Celery app is pointed at Redis for the duration of each test, with a queue of
its own (the worker and beat processes get it as their default queue, ``CELERY_QUEUE``), and
restored afterwards. Processes are always stopped in ``finally``.

A killed worker is recovered three ways, each proven here with a real SIGKILL: beat's periodic
check sends the silent day end again (the lease), the broker hands the unacknowledged message
out again (the visibility timeout), and the GM presses End day once the lease has run out.
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
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from django.utils import timezone
from kombu import pools

from armies.models import DayEnd, Settlement
from armies.services.day_end import DayEndUnderway, day_end_start
from campaign.models import Campaign
from muster.celery import app

from tests.armies.test_upkeep import assert_charged_once, many_commanders

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"
TIMEOUT = 120  # a bound on waiting, not a time asserted: generous for a loaded 2-core machine


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


def day_end_row(campaign: Campaign) -> DayEnd | None:
    return DayEnd.objects.filter(campaign=campaign, day=1).first()


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


def test_a_real_worker_settles_the_day(tmp_path, celery_processes):
    queue, processes = celery_processes
    world = many_commanders(20)
    processes.append(worker := Worker(tmp_path / "worker.log", queue))
    day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    wait_for(lambda: day_end_row(world.campaign).status in {"done", "failed"}, "the day end", worker)

    day_end = day_end_row(world.campaign)
    assert (day_end.status, day_end.done, day_end.total, day_end.error) == ("done", 20, 20, ""), worker.output()
    # The row says done when the task's last transaction commits; the worker logs "succeeded" only once the
    # task has returned (after announcing the progress), so wait for that line rather than read it at once.
    wait_for(lambda: "succeeded" in worker.output(), "the worker to log the task's success", worker)
    assert "armies.settle_day" in worker.output()  # run by the worker, not in-process
    assert_charged_once(world)
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2


async def _keys_pushed(group: str, last: str) -> list[str]:
    """The keys the day end's group hears on Redis (as the GM's page's socket would) until ``last``."""
    import asyncio

    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = RedisPubSubChannelLayer(hosts=[os.environ["TEST_REDIS_URL"]])
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    keys: list[str] = []
    try:
        async with asyncio.timeout(TIMEOUT):
            while not keys or keys[-1] != last:
                keys.append((await layer.receive(channel))["key"])
    finally:
        await layer.flush()
    return keys


def test_the_workers_progress_is_pushed_to_the_gms_page_through_redis(tmp_path, celery_processes):
    """The worker announces each settled chunk and the end on the day end's group (armies/live.py):
    5 chunks of 4, a pause after each so that the listener, which can join only once the day end
    exists, hears the later ones."""
    import asyncio

    from armies.live import day_end_group

    queue, processes = celery_processes
    world = many_commanders(20)
    slow = {"MUSTER_TEST_SETTLE_CHUNK": "4", "MUSTER_TEST_SETTLE_DELAY": "0.5"}
    processes.append(worker := Worker(tmp_path / "worker.log", queue, **slow))
    day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    keys = asyncio.run(_keys_pushed(day_end_group(day_end_row(world.campaign).pk), "done-20"))

    assert keys[-1] == "done-20", worker.output()
    progress = [int(key.rsplit("-", 1)[1]) for key in keys]
    assert progress == sorted(progress) and len(set(progress)) >= 2  # the bar moved on more than once
    assert all(key.startswith("running-") for key in keys[:-1])


def _kill_after_the_first_chunk(world, queue: str, log: Path, **env: str) -> Worker:
    """A worker settling 12 commanders in 4 chunks of 3, pausing 1.5 s after each: killed after the first."""
    worker = Worker(log, queue, MUSTER_TEST_SETTLE_CHUNK="3", MUSTER_TEST_SETTLE_DELAY="1.5", **env)
    day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    wait_for(lambda: (row := day_end_row(world.campaign)) is not None and row.done >= 3, "chunk 1", worker)
    worker.kill()
    assert 3 <= Settlement.objects.filter(day=1).count() < 12, worker.output()
    assert day_end_row(world.campaign).status == "running"
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 1
    return worker


def assert_settled_once(world, processes: list[Worker]) -> None:
    """Wait (up to TIMEOUT) for the day end to stop; it is done, and everyone was charged once."""
    wait_for(lambda: day_end_row(world.campaign).status in {"done", "failed"}, "the day end", processes[-1])
    day_end = day_end_row(world.campaign)
    logs = "\n".join(process.output() for process in processes)
    assert (day_end.status, day_end.done, day_end.total) == ("done", 12, 12), logs
    assert_charged_once(world)
    assert Settlement.objects.filter(day=1).count() == 12
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2


def test_a_worker_killed_mid_settlement_is_resumed_by_beat_without_anyone_pressing(tmp_path, celery_processes):
    """A fresh worker and beat, with a test-sized lease (3 s) and check (every second); the broker's
    visibility timeout stays at its production value (minutes), so only the lease can finish the day."""
    queue, processes = celery_processes
    world = many_commanders(12)
    processes.append(_kill_after_the_first_chunk(world, queue, tmp_path / "killed.log"))
    lease = {"DAY_END_LEASE_SECONDS": "3", "DAY_END_CHECK_SECONDS": "1", "MUSTER_TEST_SETTLE_CHUNK": "3"}
    processes.append(beat := Worker(tmp_path / "beat.log", queue, kind="beat", **lease))
    processes.append(worker := Worker(tmp_path / "worker.log", queue, **lease))

    assert_settled_once(world, processes)
    assert "showed no life" in worker.output() and "sent again" in worker.output()
    assert "Sending due task armies: run scheduled day ends" in beat.output()


def test_a_killed_workers_day_end_comes_back_from_the_broker_after_the_visibility_timeout(tmp_path, celery_processes):
    """No beat, a lease of an hour: only the broker can hand the unacknowledged task out again."""
    queue, processes = celery_processes
    world = many_commanders(12)
    broker = {"CELERY_VISIBILITY_TIMEOUT": "2", "DAY_END_LEASE_SECONDS": "3600"}
    processes.append(_kill_after_the_first_chunk(world, queue, tmp_path / "killed.log", **broker))
    processes.append(worker := Worker(tmp_path / "worker.log", queue, MUSTER_TEST_SETTLE_CHUNK="3", **broker))

    assert_settled_once(world, processes)
    assert "armies.settle_day" in worker.output() and "succeeded" in worker.output()


def test_the_gm_can_end_the_day_again_once_its_killed_worker_has_been_silent_for_the_lease(
    tmp_path, celery_processes, settings
):
    settings.DAY_END_LEASE_SECONDS = 2
    queue, processes = celery_processes
    world = many_commanders(12)
    processes.append(_kill_after_the_first_chunk(world, queue, tmp_path / "killed.log"))
    with pytest.raises(DayEndUnderway):  # pressed at once: the run may still be alive
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    processes.append(Worker(tmp_path / "second.log", queue, MUSTER_TEST_SETTLE_CHUNK="3"))
    silent = day_end_row(world.campaign).heartbeat_at + timedelta(seconds=settings.DAY_END_LEASE_SECONDS)
    wait_for(lambda: timezone.now() > silent, "the lease to run out")
    day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)

    assert_settled_once(world, processes)
