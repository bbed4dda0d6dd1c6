"""Fixtures of the tabletop tests."""

from __future__ import annotations

import pytest

from tabletop.computer import pool

from tests.tabletop._computer import QUICK, TIMEOUT


@pytest.fixture
def quick_bots(settings):
    settings.BOT_BUDGET = QUICK
    yield
    assert pool.wait_idle(TIMEOUT), "a computer turn was still running when the test ended"
