"""Computer turns on the site (issue 16, tabletop/computer/): through the real paths.

In-process mode (no Celery worker: ``CELERY_TASK_ALWAYS_EAGER``) needs committed rows, since the
move is applied from a thread of its own once the pool's process has decided: those tests use
``transaction=True`` and poll the database with a deadline (a bound on waiting, never a time
asserted). ``BOT_BUDGET`` keeps the decisions small (a few ISMCTS iterations), or makes one slow.
"""

from __future__ import annotations

import pytest

from campaign.models import Activity
from tabletop.bots import decide
from tabletop.computer import pool, scheduling
from tabletop.computer.strengths import decision_seed
from tabletop.engines import get_engine
from tabletop.models import Seat, Table, TableAction
from tabletop.services import computer_moves, seats
from tabletop.services.tables import SetupRefused, StaleVersion, table_play, table_undo

from tests.armies._celery import Worker, celery_processes  # noqa: F401 (a fixture)
from tests.armies._celery import wait_for as wait_with_log
from tests.tables import next_move, play_next
from tests.tabletop._computer import QUICK, TIMEOUT, log_of, open_table, read, status_of, version_of, wait_for  # noqa: F401

# --- in-process, through the pool and the applying thread ---------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_computer_answers_a_persons_move_with_an_ordinary_logged_action(world, quick_bots):
    table = open_table(world, [world.ann, ("Computer", "quick")])
    assert get_engine("gridaris").to_act(table.state) == [0]
    table = play_next(table)  # Ann's move commits: the computer (seat 1) is to act
    wait_for(lambda: version_of(table) >= 2, "the computer's move")

    first, second = log_of(table)[:2]
    assert (first.seat, second.seat) == ("0", "1")
    assert second.kind == TableAction.Kind.ACTION and second.user is None and second.action["seat"] == 1
    table.refresh_from_db()
    assert get_engine("gridaris").to_act(table.state) == [0]  # Ann's turn again: the computer waits for her


@pytest.mark.django_db(transaction=True)
def test_a_computer_seat_that_moves_first_moves_when_the_table_opens(world, quick_bots):
    table = open_table(world, [("Computer", "normal"), world.ben])
    wait_for(lambda: version_of(table) >= 1, "the computer's opening move")
    assert [entry.seat for entry in log_of(table)] == ["0"]


@pytest.mark.django_db(transaction=True)
def test_two_computers_play_each_other_to_the_end(world, quick_bots):
    table = open_table(world, [("Computer 1", "quick"), ("Computer 2", "quick")])
    wait_for(lambda: status_of(table) == Table.Status.FINISHED, "the game's end")
    assert pool.wait_idle(TIMEOUT)
    table.refresh_from_db()
    entries = log_of(table)
    assert table.outcome is not None and len(entries) == table.version
    assert {entry.seat for entry in entries} == {"0", "1"} and all(entry.user is None for entry in entries)


@pytest.mark.django_db(transaction=True)
def test_a_seat_given_to_the_computer_mid_game_moves_at_once(world, quick_bots):
    table = open_table(world, [world.ann, world.ben])
    table = play_next(table)  # Ben (seat 1) is to act, and is away: the GM gives his seat to the computer
    seats.seat_set_bot(table_id=table.pk, index=1, bot="quick", version=table.version, user=world.gm.user)
    wait_for(lambda: version_of(table) >= 3, "the computer's move for Ben")
    assert log_of(table)[-1].seat == "1"
    # Given back to a person: nothing more is played for him
    table = seats.seat_set_bot(table_id=table.pk, index=1, bot="", version=3, user=world.gm.user)
    table = play_next(Table.objects.get(pk=table.pk))  # Ann moves: Ben (a person again) is to act
    assert pool.wait_idle(TIMEOUT)
    assert version_of(table) == 5 and [entry.seat for entry in log_of(table)] == ["0", "1", "0"]


@pytest.mark.django_db(transaction=True)
def test_a_lost_turn_is_given_again_when_the_gm_sets_the_same_strength(world, quick_bots):
    """A computer to act with no turn under way (as after a server restart lost it): setting its
    strength again changes nothing on the table but gives it its turn."""
    table = play_next(open_table(world, [world.ann, world.ben]))
    Seat.objects.filter(table=table, index=1).update(bot="quick")  # no change committed through the services
    assert pool.wait_idle(0) and version_of(table) == 1

    seats.seat_set_bot(table_id=table.pk, index=1, bot="quick", version=1, user=world.gm.user)
    wait_for(lambda: version_of(table) >= 2, "the computer's move")
    assert [entry.seat for entry in log_of(table)] == ["0", "1"]


@pytest.mark.django_db(transaction=True)
def test_an_undo_back_to_the_computers_turn_gives_it_the_turn_again(world, quick_bots):
    table = open_table(world, [world.ann, ("Computer", "quick")])
    table = play_next(table)
    wait_for(lambda: version_of(table) >= 2, "the computer's move")
    table_undo(table_id=table.pk, version=2, user=world.gm.user)  # the computer's move undone: its turn again
    wait_for(lambda: version_of(table) >= 4, "the computer's move after the undo")
    kinds = [(entry.kind, entry.seat) for entry in log_of(table)]
    assert kinds == [("action", "0"), ("action", "1"), ("undo", "gm"), ("action", "1")]


@pytest.mark.django_db(transaction=True)
def test_a_slow_computer_at_one_table_blocks_no_one_at_another(world, settings):
    """Table A's computer thinks for about 4 s (a time-capped budget); meanwhile a person's action at
    table B commits and returns, and A has not moved yet; then A's move arrives."""
    settings.BOT_BUDGET = {"iterations": 10**9, "seconds": 4.0}
    a = open_table(world, [world.ann, ("Computer", "strong")], title="A")
    b = open_table(world, [world.ann, world.ben], title="B")
    play_next(a)  # A's computer starts thinking

    b_result = play_next(b)

    assert b_result.version == 1 and version_of(b) == 1
    assert version_of(a) == 1, "B's move waited for A's computer"
    wait_for(lambda: version_of(a) >= 2, "A's computer")
    assert pool.wait_idle(TIMEOUT)
    assert log_of(a)[-1].seat == "1"


# --- stale turns, replays: the turn itself, without the pool ---------------------------------------


@pytest.mark.django_db
def test_a_computer_turn_for_a_version_someone_moved_past_is_dropped_quietly(world, settings):
    settings.BOT_BUDGET = QUICK
    table = open_table(world, [world.ann, ("Computer", "quick")])
    table = play_next(table)
    decided = decide("gridaris", table.state, 1, "quick", decision_seed(table.seed, 1), **QUICK)
    # The GM moved for the computer's seat first (hot-seat): the computer's turn at version 1 is stale
    seat, action = next_move(table)
    table_play(table_id=table.pk, seat=seat, action=action, version=1)

    assert computer_moves.play_decided(table.pk, 1, 1, decided) is False
    assert computer_moves.run_turn(table.pk, 1) is False
    assert [entry.seat for entry in log_of(table)] == ["0", "1"]
    with pytest.raises(StaleVersion):  # what the turn met, and dropped
        table_play(table_id=table.pk, seat=1, action={k: v for k, v in decided.items() if k != "seat"}, version=1)


@pytest.mark.django_db
def test_two_turns_for_one_version_play_once(world, settings):
    settings.BOT_BUDGET = QUICK
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))
    assert computer_moves.run_turn(table.pk, 1) is True
    assert computer_moves.run_turn(table.pk, 1) is False  # delivered twice: the table moved on
    assert [entry.seat for entry in log_of(table)] == ["0", "1"]


@pytest.mark.django_db
def test_a_computer_turn_is_reproducible_from_the_table_seed_and_version(world, settings):
    settings.BOT_BUDGET = QUICK
    moves = []
    for title in ("One", "Two"):
        table = play_next(open_table(world, [world.ann, ("Computer", "normal")], seed=7, title=title))
        assert get_engine("gridaris").to_act(table.state) == [1]
        assert computer_moves.run_turn(table.pk, table.version)
        moves.append(log_of(table)[-1].action)
    assert moves[0] == moves[1]


@pytest.mark.django_db
def test_no_turn_when_no_computer_is_to_act(world, settings):
    settings.BOT_BUDGET = QUICK
    table = open_table(world, [world.ann, ("Computer", "quick")])
    assert computer_moves.run_turn(table.pk, 0) is False  # Ann is to act
    assert computer_moves.run_turn(table.pk, 5) is False  # not the table's version
    assert log_of(table) == []


@pytest.mark.django_db
def test_a_refused_computer_move_is_logged_and_not_retried(world, caplog):
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))
    assert computer_moves.play_decided(table.pk, 1, 1, {"type": "no_such_move"}) is False
    assert "refused" in caplog.text and [entry.seat for entry in log_of(table)] == ["0"]
    # ruling BOT30: the seat goes back to a person, so no page says "thinking" for ever
    assert Seat.objects.get(table=table, index=1).bot == ""
    assert version_of(table) == 2
    line = Activity.objects.filter(campaign=world.campaign).latest("pk").summary
    assert "could not play seat 2 (Computer)" in line and "refused" in line


@pytest.mark.django_db
def test_a_computer_gives_nothing_back_at_a_table_that_moved_on(world):
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))
    assert computer_moves.give_back(table.pk, 1, 0, "a stale reason") is False
    assert Seat.objects.get(table=table, index=1).bot == "quick"


@pytest.mark.django_db
def test_an_unknown_strength_is_refused_when_the_table_opens(world):
    with pytest.raises(SetupRefused, match="quick, normal or strong"):
        open_table(world, [world.ann, ("Computer", "genius")])
    assert not Seat.objects.exists()


# --- with a Celery worker (REDIS_URL): the turn runs in the worker --------------------------------


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_a_worker_the_computer_turn_runs_in_the_worker(world, tmp_path, celery_processes):  # noqa: F811
    queue, processes = celery_processes
    processes.append(worker := Worker(tmp_path / "worker.log", queue))
    assert not scheduling.in_process()
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))

    wait_with_log(lambda: version_of(table) >= 2, "the worker's computer move", worker)
    assert log_of(table)[-1].seat == "1" and log_of(table)[-1].user is None
    wait_with_log(lambda: "succeeded" in worker.output(), "the worker to log the task's success", worker)
    assert "tabletop.computer_turn" in worker.output()  # run by the worker, not in-process
    assert pool.wait_idle(0)  # nothing was sent to the in-process pool


@pytest.mark.django_db
def test_a_turn_at_a_table_abandoned_while_the_computer_thought_is_dropped_quietly(world, settings, caplog):
    from tabletop.services.abandon import table_abandon

    settings.BOT_BUDGET = QUICK
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))
    decided = decide("gridaris", table.state, 1, "quick", decision_seed(table.seed, 1), **QUICK)
    table_abandon(table_id=table.pk, version=1, gm=world.gm.user, reason="The venue closes")

    caplog.set_level("INFO", logger="tabletop.services.computer_moves")
    assert computer_moves.play_decided(table.pk, 1, 1, decided) is False
    assert computer_moves.run_turn(table.pk, 1) is False
    assert "dropped" in caplog.text and not [r for r in caplog.records if r.levelname == "ERROR"]
    assert [entry.seat for entry in log_of(table)] == ["0"]


@pytest.mark.django_db
def test_a_move_schedules_a_turn_only_when_a_computer_is_to_act(world, django_capture_on_commit_callbacks):
    """The action's own locked read says which seats the computer plays: a table without a computer to
    act registers only the live push, and no query is spent on computers."""
    people = open_table(world, [world.ann, world.ben], title="People")
    with django_capture_on_commit_callbacks() as callbacks:
        play_next(people)
    assert len(callbacks) == 1  # the push
    waiting = open_table(world, [("Computer", "quick"), world.ben], title="Computer moved")
    table = play_next(waiting)  # the GM moved for the computer's seat: Ben (a person) is to act
    with django_capture_on_commit_callbacks() as callbacks:
        play_next(table)  # Ben moves: the computer is to act
    assert len(callbacks) == 2  # the push and the computer's turn
