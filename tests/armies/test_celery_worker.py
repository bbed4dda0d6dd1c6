"""The day end through a real Celery worker process over Redis, and a worker killed mid-run.

The worker and beat processes, on the test's own PostgreSQL database and a Redis queue of the test's own,
are tests/armies/_celery.py's (its ``celery_processes`` fixture, through tests/armies/conftest.py).

A killed worker is recovered three ways, each proven here with a real SIGKILL: beat's periodic
check sends the silent day end again (the lease), the broker hands the unacknowledged message
out again (the visibility timeout), and the GM presses End day once the lease has run out.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from armies.models import DayEnd, Settlement
from armies.services.day_end import DayEndUnderway, day_end_start
from campaign.models import Campaign

from tests.armies._celery import TIMEOUT, Worker, wait_for
from tests.armies._upkeep import assert_charged_once, many_commanders

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def day_end_row(campaign: Campaign) -> DayEnd | None:
    return DayEnd.objects.filter(campaign=campaign, day=1).first()


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
