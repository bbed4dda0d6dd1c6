"""The computer's turn with a real Celery worker over Redis (issue 22, rulings BOT33, BOT34): the bound's
check is a task sent with a countdown, and a repeated setting sends nothing more while a turn is under way.
The decision runs below the worker's priority, and the worker (which also settles day ends) keeps its own
(issue 26, ruling BOT35).

PostgreSQL and Redis: the worker is a process of its own on the test database (tests/armies/_celery.py).
"""

from __future__ import annotations

import os
import re

import pytest
from celery import current_app

from campaign.models import Activity
from tabletop.computer import pool, scheduling
from tabletop.computer.scheduling import COMPUTER_WATCH
from tabletop.models import Seat
from tabletop.services import seats

from tests.armies._celery import Worker, celery_processes, wait_for  # noqa: F401 (a fixture)
from tests.tables import play_next
from tests.tabletop._computer import log_of, open_table, version_of

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def lost_turn(world, title: str):
    """Ann has moved and Ben's seat is the computer's, but no turn was ever sent for it (as if lost)."""
    table = play_next(open_table(world, [world.ann, world.ben], title=title))
    Seat.objects.filter(table=table, index=1).update(bot="quick")
    return table


def watch(table, *, attempt: int) -> None:
    current_app.tasks[COMPUTER_WATCH].apply_async(
        kwargs={"table_id": table.pk, "seat": 1, "version": table.version, "attempt": attempt, "limit": 1.5},
        countdown=1.5,
    )


def test_with_a_worker_a_lost_turn_is_sent_again_and_then_handed_back(world, tmp_path, celery_processes):  # noqa: F811
    queue, processes = celery_processes
    processes.append(worker := Worker(tmp_path / "worker.log", queue))
    assert not scheduling.in_process()
    again, given_back = lost_turn(world, "Again"), lost_turn(world, "Given back")

    watch(again, attempt=1)  # the first bound passed: the worker sends the turn again, and plays it
    watch(given_back, attempt=2)  # the second bound passed: the seat is a person's again

    wait_for(lambda: version_of(again) >= 2, "the computer's move sent again", worker)
    assert log_of(again)[-1].seat == "1" and log_of(again)[-1].user is None
    wait_for(lambda: not Seat.objects.get(table=given_back, index=1).bot, "the seat handed back", worker)
    assert version_of(given_back) == 2 and [entry.seat for entry in log_of(given_back)] == ["0"]
    assert Activity.objects.filter(campaign=world.campaign).latest("pk").summary == (
        "Given back: the computer could not play seat 2 (Ben the Sly), so a person plays it now: "
        "it had not moved within 1.5 s, twice"
    )
    wait_for(lambda: "'sent again'" in worker.output() and "'given back'" in worker.output(), "the watches", worker)
    assert pool.wait_idle(0)  # nothing ran in-process


def test_with_a_worker_a_repeated_setting_sends_nothing_more(world, tmp_path, settings, celery_processes):  # noqa: F811
    """15 presses of the strength the seat already has, while its turn is under way: one turn reaches the
    worker, and its watch (sent with the bound as countdown) finds the table moved on."""
    settings.COMPUTER_TURN_MARGIN = 1.0
    queue, processes = celery_processes
    table = play_next(open_table(world, [world.ann, world.ben]))
    seats.seat_set_bot(table_id=table.pk, index=1, bot="quick", version=1, user=world.gm.user)
    for _ in range(15):
        assert seats.seat_set_bot(table_id=table.pk, index=1, bot="quick", version=2, user=world.gm.user).version == 2

    processes.append(worker := Worker(tmp_path / "worker.log", queue))  # started after the presses: all are queued
    wait_for(lambda: version_of(table) >= 3, "the computer's move", worker)
    wait_for(lambda: "'moved on'" in worker.output(), "the turn's watch", worker)
    received = re.findall(r"Task (tabletop\.computer_\w+)\[[^\]]+\] received", worker.output())
    assert received == ["tabletop.computer_turn", "tabletop.computer_watch"], worker.output()
    assert [entry.seat for entry in log_of(table)] == ["0", "1"]


def test_with_a_worker_the_decision_runs_below_the_worker_and_the_worker_keeps_its_priority(
    world, tmp_path, celery_processes  # noqa: F811
):
    queue, processes = celery_processes
    processes.append(worker := Worker(tmp_path / "worker.log", queue))
    table = play_next(open_table(world, [world.ann, world.ben]))
    seats.seat_set_bot(table_id=table.pk, index=1, bot="quick", version=1, user=world.gm.user)

    wait_for(lambda: version_of(table) >= 3, "the computer's move", worker)
    wait_for(lambda: "decided at niceness" in worker.output(), "the decision's log line", worker)
    decided, worker_at = map(int, re.search(r"decided at niceness (-?\d+), its worker at (-?\d+)",
                                            worker.output()).groups())
    server = os.getpriority(os.PRIO_PROCESS, 0)  # the worker was started at this process's priority
    assert worker_at == os.getpriority(os.PRIO_PROCESS, worker.process.pid) == server
    assert decided == min(19, server + 10) > server
