"""An all-computer table ends at its action limit with a sentence (issue 36, tabletop/computer/action_limit.py).

The limit is tiny here (``COMPUTER_TABLE_ACTIONS``); the real one is 5,000. The in-process test uses
committed rows and waits with a deadline (tests/tabletop/_computer.py), never asserting a time.
"""

from __future__ import annotations

import pytest

from campaign.models import Activity
from tabletop.computer import action_limit, pool
from tabletop.models import Table
from tabletop.services import computer_moves

from tests.tabletop._computer import TIMEOUT, log_of, open_table, status_of, wait_for


@pytest.mark.django_db(transaction=True)
def test_two_computers_past_the_action_limit_end_the_table_with_a_sentence(world, quick_bots, settings):
    settings.COMPUTER_TABLE_ACTIONS = 3
    table = open_table(world, [("Computer 1", "quick"), ("Computer 2", "quick")])
    wait_for(lambda: status_of(table) == Table.Status.ABANDONED, "the table ended at its action limit")
    assert pool.wait_idle(TIMEOUT)
    table.refresh_from_db()
    assert table.outcome is None and table.version == 3 and len(log_of(table)) == 3
    line = Activity.objects.get(kind=Activity.Kind.TABLE_ABANDON, target_id=table.pk)
    assert "no result after 3 actions, the limit of an all-computer table" in line.summary
    assert line.actor is not None and line.actor.pk == world.gm.user.pk


@pytest.mark.django_db
def test_a_table_with_a_persons_seat_is_never_ended_by_the_limit(world, settings):
    settings.COMPUTER_TABLE_ACTIONS = 3
    table = open_table(world, [world.ann, ("Computer", "quick")])
    Table.objects.filter(pk=table.pk).update(version=10)
    table.refresh_from_db()
    assert not action_limit.reached(table)
    assert not computer_moves.end_at_limit(table.pk, 10)
    assert status_of(table) == Table.Status.ACTIVE


@pytest.mark.django_db
def test_the_limit_ends_only_the_version_it_was_sent_for(world, settings):
    settings.COMPUTER_TABLE_ACTIONS = 3
    table = open_table(world, [("Computer 1", "quick"), ("Computer 2", "quick")])  # no commit: no turn is sent
    Table.objects.filter(pk=table.pk).update(version=3)
    table.refresh_from_db()
    assert action_limit.reached(table)
    assert not computer_moves.end_at_limit(table.pk, 2)  # a change came after the one that sent it
    assert status_of(table) == Table.Status.ACTIVE
    assert computer_moves.end_at_limit(table.pk, 3)
    assert status_of(table) == Table.Status.ABANDONED
