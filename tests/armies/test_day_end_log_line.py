"""The settlement's log line says what this run did (issue 37): a redelivered ``settle_day`` that finds the
day settled says "nothing left to settle", not "settled: 20000 commanders" again, and a run that finishes
what a killed one began says how many were its own."""

from __future__ import annotations

import logging

import pytest

from armies.services.settlement import day_settle
from armies.tasks import settle_day

from tests.armies._upkeep import many_commanders


class Killed(Exception):
    pass


def settled_lines(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "armies.tasks"]


def test_a_second_delivery_says_nothing_was_left_to_settle(db, caplog):
    world = many_commanders(6)
    caplog.set_level(logging.INFO, logger="armies.tasks")

    settle_day.delay(world.campaign.pk, 1).get()
    settle_day.delay(world.campaign.pk, 1).get()

    first, second = settled_lines(caplog)
    assert first == f"Day 1 of {world.campaign} settled: 6 commanders by this run (6 in all)"
    assert second == f"Day 1 of {world.campaign}: nothing left to settle (6 commanders settled before this run)"


def test_a_run_after_a_killed_one_counts_only_its_own(db, caplog, monkeypatch):
    world = many_commanders(5)

    def killed(_settled):
        raise Killed("the worker died after its first chunk")

    with pytest.raises(Killed):
        day_settle(campaign=world.campaign, day=1, chunk_size=2, after_chunk=killed)
    monkeypatch.setenv("MUSTER_TEST_SETTLE_CHUNK", "2")
    caplog.set_level(logging.INFO, logger="armies.tasks")

    settle_day.delay(world.campaign.pk, 1).get()

    assert settled_lines(caplog) == [f"Day 1 of {world.campaign} settled: 3 commanders by this run (5 in all)"]
