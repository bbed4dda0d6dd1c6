"""Two phones at the same instant, on PostgreSQL with real concurrent transactions."""

import pytest

from tabletop.engines import get_engine
from tabletop.models import TableAction
from tabletop.services.tables import StaleVersion, table_play

from tests.concurrency import race
from tests.tables import next_move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_double_tap_racing_itself_is_applied_once(table):
    seat, action = next_move(table)
    play = lambda: table_play(table_id=table.pk, seat=seat, action=action, version=0, client_action_id="tap")  # noqa: E731
    results = race([play, play, play])
    assert sorted(result.applied for result in results) == [False, False, True]
    assert TableAction.objects.filter(table=table).count() == 1


def test_two_different_moves_on_the_same_version_one_wins_one_is_told_the_table_moved_on(table):
    engine = get_engine(table.game)
    seat = engine.to_act(table.state)[0]
    first, second = [
        {k: v for k, v in action.items() if k != "seat"} for action in engine.legal_actions(table.state)[:2]
    ]
    results = race(
        [
            lambda: table_play(table_id=table.pk, seat=seat, action=first, version=0, client_action_id="a"),
            lambda: table_play(table_id=table.pk, seat=seat, action=second, version=0, client_action_id="b"),
        ]
    )
    assert sum(isinstance(result, StaleVersion) for result in results) == 1
    assert sum(getattr(result, "applied", False) for result in results) == 1
    assert TableAction.objects.filter(table=table).count() == 1
