import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tabletop.engines import get_engine
from tabletop.engines.kernel import IllegalAction, digest
from tabletop.engines.replay import replay_log
from tabletop.models import Table, TableAction
from tabletop.selectors import table_log
from tabletop.services.tables import StaleVersion, table_play, table_undo

from tests.tables import next_move, play_next

pytestmark = pytest.mark.django_db


def test_an_action_saves_the_new_state_and_a_log_entry_with_its_digest(table):
    played = play_next(table)
    played.refresh_from_db()
    entry = TableAction.objects.get(table=table)
    assert played.version == 1
    assert entry.seq == 1 and entry.kind == TableAction.Kind.ACTION
    assert entry.digest == digest(played.state)
    assert played.state != table.state


def test_a_stale_version_is_refused_and_nothing_is_written(table):
    play_next(table)
    seat, action = next_move(Table.objects.get(pk=table.pk))
    with pytest.raises(StaleVersion) as refused:
        table_play(table_id=table.pk, seat=seat, action=action, version=0)
    assert refused.value.table.version == 1
    assert TableAction.objects.filter(table=table).count() == 1


def test_the_same_client_action_id_twice_is_applied_once(table):
    seat, action = next_move(table)
    first = table_play(table_id=table.pk, seat=seat, action=action, version=0, client_action_id="tap-1")
    second = table_play(table_id=table.pk, seat=seat, action=action, version=0, client_action_id="tap-1")
    assert first.applied and not second.applied
    assert second.table.version == 1
    assert TableAction.objects.filter(table=table).count() == 1


def test_an_illegal_action_is_refused_with_a_sentence_and_nothing_changes(table):
    seat, action = next_move(table)
    other = 1 - seat
    with pytest.raises(IllegalAction) as refused:
        table_play(table_id=table.pk, seat=other, action=action, version=0)
    assert "turn" in str(refused.value).lower()
    table.refresh_from_db()
    assert table.version == 0 and not TableAction.objects.filter(table=table).exists()


def test_the_seat_comes_from_the_caller_not_from_the_posted_action(table):
    seat, action = next_move(table)
    with pytest.raises(IllegalAction):
        table_play(table_id=table.pk, seat=1 - seat, action={**action, "seat": seat}, version=0)


def test_undo_rebuilds_the_state_without_the_last_action_and_logs_itself(table):
    after_one = play_next(table)
    state_after_one = after_one.state
    after_two = play_next(after_one)
    undone = table_undo(table_id=table.pk, version=after_two.version)
    assert undone.state == state_after_one
    assert undone.version == 3
    undo_entry = TableAction.objects.get(table=table, seq=3)
    assert undo_entry.kind == TableAction.Kind.UNDO and undo_entry.undoes.seq == 2
    assert undo_entry.digest == digest(state_after_one)


def test_undo_with_nothing_to_undo_is_refused(table):
    with pytest.raises(IllegalAction, match="nothing to undo"):
        table_undo(table_id=table.pk, version=0)


def test_undo_twice_goes_back_two_actions_and_play_continues(table):
    start = table.state
    table = play_next(play_next(table))
    table = table_undo(table_id=table.pk, version=table.version)
    table = table_undo(table_id=table.pk, version=table.version)
    assert table.state == start
    table = play_next(table)
    assert table.version == 5


def test_the_log_replays_to_the_same_state_with_every_digest_checked(table):
    for _ in range(3):
        table = play_next(table)
    table = table_undo(table_id=table.pk, version=table.version)
    table = play_next(table)
    log = table_log(table)
    result = replay_log(log)
    assert result.mismatches == []
    assert result.checked_digests == 1 + 5
    assert result.state == table.state
    assert log["final_digest"] == digest(table.state)


def test_a_tampered_log_is_caught_by_its_digests(table):
    table = play_next(play_next(table))
    log = table_log(table)
    log["entries"][0]["digest"] = "0" * 64
    assert len(replay_log(log).mismatches) == 1


def test_queries_per_action_do_not_grow_with_the_history(table):
    def queries_for_one_action(current):
        with CaptureQueriesContext(connection) as captured:
            current = play_next(current)
        return len(captured), current

    early, table = queries_for_one_action(table)
    for _ in range(8):
        table = play_next(table)
    late, table = queries_for_one_action(table)
    assert early == late
    assert late <= 8


def test_a_finished_game_records_its_outcome(table):
    engine = get_engine(table.game)
    while engine.outcome(table.state) is None:
        table = play_next(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.outcome == engine.outcome(table.state)
    assert table.finished_at is not None
    with pytest.raises(IllegalAction, match="over"):
        table_play(table_id=table.pk, seat=0, action={"type": "place"}, version=table.version)
