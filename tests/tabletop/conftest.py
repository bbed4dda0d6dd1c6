"""Fixtures of the tabletop tests."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest
from django.core.cache import cache

from tabletop.computer import pool, watchdog

from tests.tabletop._computer import QUICK, TIMEOUT


@pytest.fixture
def quick_bots(settings):
    settings.BOT_BUDGET = QUICK
    yield
    assert pool.wait_idle(TIMEOUT), "a computer turn was still running when the test ended"


@pytest.fixture(autouse=True)
def no_computer_watch_outlives_its_test():
    """A computer turn's in-process watch (a timer of up to a minute) must not fire in the next test."""
    yield
    watchdog.cancel_all()


@pytest.fixture(autouse=True, scope="module")
def no_coach_process_outlives_its_module():
    """The coach's processes (started by a question) end with their module: other modules count or kill the
    computer's processes among this process's children."""
    yield
    pool.coach_shutdown()


@pytest.fixture
def small_coach(settings):
    """The coach's search of a few seeded iterations, and no answer cached by another test (ids repeat)."""
    settings.BOT_BUDGET = {"iterations": 24}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def submissions(monkeypatch) -> list[tuple]:
    """Every decision sent to the computer's process pool, as (game, seat, seed), in order."""
    sent: list[tuple] = []
    submit = ProcessPoolExecutor.submit

    def counted(executor, fn, /, *args, **kwargs):
        sent.append((args[0], args[2], args[4]))
        return submit(executor, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", counted)
    return sent
