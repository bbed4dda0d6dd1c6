"""Computers never slow the humans (issue 26, ruling BOT35): a computer's search runs at a lower OS
priority than the server, in a bounded pool, and a table whose every seat is the computer's has one
decision in flight at a time (its tables queue rather than flood the pool).

In-process, on the real spawn pool of ``make run``; with a worker, the broker's queue is a list here and
the turns are run as a worker runs them (a real worker's priorities are in test_computer_worker.py). A
nice value is read with ``os.getpriority``; no time is asserted.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import Counter
from concurrent.futures import Future, ProcessPoolExecutor

import pytest
from celery import current_app

from tabletop.computer import pool, priority, scheduling
from tabletop.computer.scheduling import COMPUTER_TURN, COMPUTER_WATCH
from tabletop.models import Seat
from tabletop.services import computer_moves

from tests.tabletop._computer import QUICK, open_table, read, version_of, wait_for

pytestmark = pytest.mark.skipif(os.getpriority(os.PRIO_PROCESS, 0) >= 19, reason="already at the lowest priority")


def test_a_lowered_thread_runs_below_its_caller_and_leaves_the_caller_as_it_was():
    before = priority.niceness_now()
    decided_at = priority.in_lowered_thread(5, priority.niceness_now)
    assert decided_at == min(19, before + 5) > before  # Linux: the nice value of the deciding thread alone
    assert priority.niceness_now() == before
    with pytest.raises(ValueError, match="no move"):
        priority.in_lowered_thread(5, lambda: (_ for _ in ()).throw(ValueError("no move")))
    assert priority.in_lowered_thread(0, priority.niceness_now) == before  # 0: not lowered at all


@pytest.mark.django_db(transaction=True)
def test_the_pools_process_runs_at_a_lower_priority_than_the_server(world, quick_bots, settings):
    settings.COMPUTER_NICENESS = 10
    pool.reset()  # a pool made by an earlier test had that test's setting
    server = os.getpriority(os.PRIO_PROCESS, 0)
    table = open_table(world, [("Computer", "quick"), world.ann])  # the computer opens: its turn goes to the pool

    wait_for(lambda: version_of(table) >= 1, "the computer's first move")
    children = [child.pid for child in multiprocessing.active_children()]
    assert len(children) == settings.BOT_PROCESSES == 1  # bounded
    assert os.getpriority(os.PRIO_PROCESS, children[0]) == min(19, server + 10) > server
    assert os.getpriority(os.PRIO_PROCESS, 0) == server  # the server itself is untouched


@pytest.fixture
def decisions(monkeypatch) -> list[tuple[str, Future, int, int]]:
    """Every decision handed to the pool's processes: (its table's seed, its future, how many decisions
    of the same table were still undecided then, how many of any table)."""
    sent: list[tuple[str, Future, int, int]] = []
    lock = threading.Lock()
    submit = ProcessPoolExecutor.submit

    def counted(executor, fn, /, *args, **kwargs):
        table_seed = args[4].split(":")[0]  # decision_seed: "<table seed>:computer:<version>"
        with lock:
            undecided = [(seed, future) for seed, future, _, _ in sent if not future.done()]
            future = submit(executor, fn, *args, **kwargs)
            sent.append((table_seed, future, sum(seed == table_seed for seed, _ in undecided), len(undecided)))
        return future

    monkeypatch.setattr(ProcessPoolExecutor, "submit", counted)
    return sent


@pytest.mark.django_db(transaction=True)
def test_tables_whose_four_seats_are_all_computers_queue_one_decision_each(world, quick_bots, decisions):
    """Three Gridaris tables, four computer seats each, all thinking at once: each table has one decision
    in flight at a time (the next seat's follows the last one's move), so the pool never holds more than
    one per table, and never more than three in all."""
    computers = [(f"Computer {n}", "quick") for n in range(1, 5)]
    tables = [open_table(world, computers, seed=seed, title=f"Table {seed}") for seed in (11, 12, 13)]
    registered: list[dict] = []

    def moved_enough() -> bool:
        registered.append(pool.in_flight())
        return all(version_of(table) >= 7 for table in tables)

    wait_for(moved_enough, "six computer moves at every table")
    read(lambda: Seat.objects.filter(table__in=tables).update(bot=""))  # people take over: no turn follows
    assert pool.wait_idle(60)

    assert {seed for seed, *_ in decisions} == {"11", "12", "13"} and len(decisions) >= 18
    assert max(same_table for *_, same_table, _ in decisions) == 0  # never a second decision for one table
    assert max(in_all for *_, in_all in decisions) <= 2  # with this one, at most one per table
    for snapshot in registered:
        assert len(snapshot) <= 3 and len({table_id for table_id, _ in snapshot}) == len(snapshot)


@pytest.mark.django_db(transaction=True)
def test_with_a_worker_tables_of_four_computers_queue_one_turn_each(world, settings, monkeypatch):
    """The same three tables with a Celery worker: the broker never holds two turns of one table, so a
    worker (here: the turns run in the order sent, as one worker runs them) takes the tables in turn."""
    settings.BOT_BUDGET = QUICK
    broker: list[tuple[int, int]] = []
    monkeypatch.setattr(scheduling, "in_process", lambda: False)
    monkeypatch.setattr(current_app.tasks[COMPUTER_TURN], "delay", lambda *turn: broker.append(turn))
    monkeypatch.setattr(current_app.tasks[COMPUTER_WATCH], "apply_async", lambda **watch: None)
    computers = [(f"Computer {n}", "quick") for n in range(1, 5)]
    tables = [open_table(world, computers, seed=seed, title=f"Table {seed}") for seed in (11, 12, 13)]

    played = 0
    while played < 18:
        waiting = Counter(table_id for table_id, _ in broker)
        assert sorted(waiting) == sorted(table.pk for table in tables) and set(waiting.values()) == {1}, broker
        assert computer_moves.run_turn(*broker.pop(0))
        played += 1
    assert all(version_of(table) == 6 for table in tables)
    assert pool.wait_idle(0)  # nothing ran in-process
