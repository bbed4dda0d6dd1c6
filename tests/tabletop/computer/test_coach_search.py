"""Where the coach thinks (issue 34, part E): never in a thread of the web process, but where the computer's
own turns think. Without a worker (``make run``) in the coach's own processes of the pool, lowered below the
computer's turns; with a worker, the task ``tabletop.coach_search`` sent by name. Plain data goes in and
comes out; the request waits at most the strength's seconds cap plus ``COACH_MARGIN``, and a search that
does not answer by then (or whose process died) is answered 503 with a sentence and given up.

In-process on the real spawn pool; the worker's side is the task run as a worker runs it (a real worker is
in test_computer_worker.py). No time is asserted."""

from __future__ import annotations

import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest
from celery import current_app
from celery.exceptions import TimeoutError as CeleryTimeout

from tabletop.bots import IsmctsPlayer
from tabletop.computer import coach, coach_job, coach_search, pool, priority, scheduling
from tabletop.computer.coach_search import COACH_SEARCH
from tabletop.computer.plain import plain_arguments

from tests.tabletop._coach import CHANCE, ask, open_game, to_a_seats_turn

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_coach")]


@pytest.fixture
def sent(monkeypatch) -> list[tuple]:
    """Every job handed to a process pool here: (its function's module and name, its arguments)."""
    jobs: list[tuple] = []
    submit = ProcessPoolExecutor.submit

    def recorded(executor, fn, /, *args, **kwargs):
        jobs.append((f"{fn.__module__}.{fn.__name__}", args))
        return submit(executor, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", recorded)
    return jobs


def test_the_search_runs_in_the_coachs_own_process_not_in_a_thread_of_the_web_process(client, world, monkeypatch,
                                                                                         sent):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))

    def searched_here(*args, **kwargs):  # any search in this process, in any of its threads, would fail so
        raise AssertionError("the coach searched in the web process")

    monkeypatch.setattr(IsmctsPlayer, "rank", searched_here)
    answer = ask(client, table, seat)
    assert answer.status_code == 200, answer.content
    assert len(CHANCE.findall(answer.content.decode())) == 3
    assert [name for name, _ in sent] == ["tabletop.computer.coach_job.advice"]
    game, state, asked_seat, seed, strength, budget = sent[0][1]
    plain_arguments(game=game, state=state, seat=asked_seat, seed=seed, strength=strength, budget=budget)
    assert (game, asked_seat, seed, strength) == ("gridaris", seat, coach.coach_seed(table.seed, table.version, seat),
                                                  coach.STRENGTH)


@pytest.mark.skipif(os.getpriority(os.PRIO_PROCESS, 0) >= 19 or not priority.PER_THREAD,
                    reason="no lower priority to give a process here")
def test_the_coachs_processes_think_below_the_computers_turns_and_the_server(client, world, settings):
    settings.COMPUTER_NICENESS = 5
    pool.coach_shutdown()  # processes started by an earlier test had that test's setting
    server = os.getpriority(os.PRIO_PROCESS, 0)
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    assert ask(client, table, seat).status_code == 200
    processes = pool.coach_processes()
    assert 1 <= len(processes) <= settings.COACH_SEARCHES  # bounded
    below = min(19, server + 5 + coach_search.BELOW_TURNS)
    assert {os.getpriority(os.PRIO_PROCESS, pid) for pid in processes} == {below} and below > server + 5
    assert os.getpriority(os.PRIO_PROCESS, 0) == server


def test_a_search_that_does_not_answer_in_time_is_given_up_with_a_sentence(client, world, settings, monkeypatch):
    settings.BOT_BUDGET, settings.COACH_MARGIN = {"iterations": 24, "seconds": 0.05}, 0.0
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    never: list[Future] = []  # the job is queued and never runs
    monkeypatch.setattr(ProcessPoolExecutor, "submit", lambda executor, fn, *a, **k: never.append(Future()) or never[0])
    answer = ask(client, table, seat)
    assert answer.status_code == 503 and coach.TOO_LONG in answer.content.decode()
    assert len(never) == 1 and never[0].cancelled()  # still queued: it goes
    monkeypatch.undo()
    settings.BOT_BUDGET = {"iterations": 24}
    assert ask(client, table, seat).status_code == 200  # nothing left held, nothing cached


def test_a_coach_process_that_died_is_answered_and_replaced(client, world, monkeypatch):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    died = Future()
    died.set_exception(BrokenProcessPool("killed"))
    monkeypatch.setattr(ProcessPoolExecutor, "submit", lambda executor, fn, *a, **k: died)
    answer = ask(client, table, seat)
    assert answer.status_code == 503 and coach.TOO_LONG in answer.content.decode()
    monkeypatch.undo()
    assert ask(client, table, seat).status_code == 200


class Sent:
    """The coach's task as a worker would get it: its plain keyword arguments, run as a worker runs it."""

    def __init__(self, answers: bool = True):
        self.kwargs: list[dict] = []
        self.revoked = 0
        self.answers = answers

    def apply_async(self, kwargs, **options):
        self.kwargs.append(plain_arguments(**kwargs))
        return self

    def get(self, timeout, **options):
        assert timeout > 0
        if not self.answers:
            raise CeleryTimeout("The operation timed out.")
        return current_app.tasks[COACH_SEARCH].apply(kwargs=self.kwargs[-1], throw=True).get()

    def revoke(self):
        self.revoked += 1


@pytest.mark.parametrize("answers", [True, False], ids=["answered", "timed out"])
def test_with_a_worker_the_search_is_the_task_sent_by_name_and_its_answer_awaited(client, world, monkeypatch, answers):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    monkeypatch.setattr(scheduling, "in_process", lambda: False)
    task = Sent(answers)
    monkeypatch.setattr(coach_search, "task", lambda: task)
    searched_at = []
    advice = coach_job.advice
    monkeypatch.setattr(coach_job, "advice", lambda *a: searched_at.append(priority.niceness_now()) or advice(*a))

    answer = ask(client, table, seat)
    assert [kwargs["seat"] for kwargs in task.kwargs] == [seat]
    if answers:
        assert answer.status_code == 200 and len(CHANCE.findall(answer.content.decode())) == 3
        assert len(searched_at) == 1 and task.revoked == 0
    else:
        assert answer.status_code == 503 and coach.TOO_LONG in answer.content.decode()
        assert searched_at == [] and task.revoked == 1
