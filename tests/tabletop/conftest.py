"""Fixtures of the tabletop tests."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

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
