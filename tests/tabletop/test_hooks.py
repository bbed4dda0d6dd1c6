"""tabletop/hooks.py: other apps react to a table's end and may refuse an undo, without tabletop importing them."""

import logging

import pytest
from django.db import IntegrityError

from tabletop import hooks
from tabletop.engines.kernel import IllegalAction
from tabletop.models import Table, TableAction
from tabletop.services.tables import MoveNotSaved, table_play, table_undo

from tests.tables import next_move, play_next

pytestmark = pytest.mark.django_db


@pytest.fixture
def registered():
    """Register hooks for the test only."""
    added = []

    def register(kind, game, fn):
        getattr(hooks, kind)(game)(fn)
        added.append(fn)
        return fn

    yield register
    for fn in added:
        hooks.unregister(fn)


def one_move_from_the_end(table: Table, user) -> Table:
    """Play to the end, then undo the last move (ruling P4: undo reopens a finished table)."""
    while not table.is_finished:
        table = play_next(table)
    return table_undo(table_id=table.pk, version=table.version, user=user)


def test_a_finish_hook_runs_once_when_the_engine_reports_an_outcome(table, registered):
    seen = []
    registered("on_finish", "gridaris", lambda t: seen.append((t.pk, t.status, t.version, t.outcome is not None)))
    registered("on_finish", "army", lambda t: seen.append("army"))

    while not table.is_finished:
        before = len(seen)
        table = play_next(table)
        assert len(seen) == before + (1 if table.is_finished else 0)

    assert seen == [(table.pk, Table.Status.FINISHED, table.version, True)]


def test_a_finish_hook_that_refuses_leaves_nothing_saved(table, world, registered):
    table = one_move_from_the_end(table, world.gm.user)

    def refuse(t):
        raise IllegalAction("The campaign cannot take this result now.")

    registered("on_finish", "gridaris", refuse)
    seat, action = next_move(table)
    with pytest.raises(IllegalAction, match="The campaign cannot take this result now."):
        table_play(table_id=table.pk, seat=seat, action=action, version=table.version)

    fresh = Table.objects.get(pk=table.pk)
    assert (fresh.version, fresh.status, fresh.outcome, fresh.state) == (
        table.version, Table.Status.ACTIVE, None, table.state)
    assert TableAction.objects.filter(table=table).count() == table.version
    hooks.unregister(refuse)
    assert table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table.is_finished


def test_a_database_error_in_a_finish_hook_is_never_answered_as_a_repeat(table, world, registered, caplog):
    # issue 36: a phone's final move (it always carries a client action id) whose finish hook raised an
    # IntegrityError was answered "a repeat, not applied", 200 and no sentence: the move was lost silently
    table = one_move_from_the_end(table, world.gm.user)

    def broken(t):
        raise IntegrityError("a payout row broke a constraint")

    registered("on_finish", "gridaris", broken)
    seat, action = next_move(table)
    with caplog.at_level(logging.ERROR, logger="tabletop.services.tables"):
        with pytest.raises(MoveNotSaved, match="was not saved"):
            table_play(table_id=table.pk, seat=seat, action=action, version=table.version, client_action_id="tap-9")
    assert "a payout row broke a constraint" in caplog.text  # logged for whoever runs the site
    fresh = Table.objects.get(pk=table.pk)
    assert (fresh.version, fresh.status) == (table.version, Table.Status.ACTIVE)
    assert not TableAction.objects.filter(table=table, client_action_id="tap-9").exists()
    hooks.unregister(broken)
    # the same tap sent again now applies: it was never a repeat
    done = table_play(table_id=table.pk, seat=seat, action=action, version=table.version, client_action_id="tap-9")
    assert done.applied and done.table.is_finished


def test_an_undo_check_refuses_with_its_sentence_or_lets_the_undo_happen(table, world, registered):
    table = play_next(table)
    answer = {"reason": "The result is in the books."}
    registered("undo_blocked", "gridaris", lambda t: answer["reason"])

    with pytest.raises(IllegalAction, match="The result is in the books."):
        table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert Table.objects.get(pk=table.pk).version == 1

    answer["reason"] = None
    assert table_undo(table_id=table.pk, version=table.version, user=world.gm.user).version == 2


def test_a_function_registered_twice_runs_once(table, registered):
    calls = []

    def count(t):
        calls.append(t.pk)

    registered("on_finish", "gridaris", count)
    hooks.on_finish("gridaris")(count)
    hooks.table_finished(table)
    assert calls == [table.pk]
