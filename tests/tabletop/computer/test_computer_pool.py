"""The computer's process pool and what crosses into it (issue 22, "The computer hangs"): a battle the
computer opens on the real spawn pool, a pool process killed mid-decision, tables queued behind a broken
pool, the plain-data check at the send site, the watchdog on a turn never applied, and a repeated
setting of the same strength.

These run in-process (no Celery worker), on the real spawn pool of ``make run``: committed rows
(``transaction=True``) and a deadline on waiting, never a time asserted.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest
from django.db import transaction
from django.urls import reverse

from armies.services.battle_tables import battle_table_open
from campaign.models import Activity
from tabletop.computer import pool, scheduling, watchdog
from tabletop.computer.plain import NotPlain, plain, plain_arguments
from tabletop.engines import get_engine
from tabletop.engines.kernel import GM
from tabletop.models import Seat, Table
from tabletop.services import computer_moves, seats
from tabletop.services.tables import table_play

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.tables import next_move, play_next
from tests.tabletop._computer import QUICK, TIMEOUT, log_of, open_table, read, status_of, version_of, wait_for

ARMY = get_engine("army")


def battle_against_the_computer(world, *, seed: int):
    """Ann's Lady Vey attacks the GM's Bandit King, whom the computer plays (quick)."""
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel")
    king = CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King", role="aggressor", path="steel")
    sides = [[ArmyUnitFactory(commander=who, card=UnitCardFactory(strength=s)) for s in (3, 4)] for who in (vey, king)]
    battle = battle_table_open(
        attacker=vey, defender=king, attacker_units=sides[0], defender_units=sides[1],
        computers=("", "quick"), opened_by=world.gm.user, seed=seed,
    )
    return battle.table


def settled(table) -> Table:
    """The table once the computer is not to act (it moved, or it gave its seat back)."""
    def quiet():
        row = read(lambda: Table.objects.get(pk=table.pk))
        bots = set(read(lambda: list(Seat.objects.filter(table=table).exclude(bot="").values_list("index", flat=True))))
        return row.is_finished or not (set(ARMY.to_act(row.state)) & bots)
    wait_for(quiet, "the computer to move")
    return read(lambda: Table.objects.get(pk=table.pk))


# --- (a) an Army battle the computer opens, on the real spawn pool ---------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_battle_where_the_computer_chooses_who_goes_first_plays_to_the_end(world, quick_bots):
    """The battle service opens the table; the NPC (seat 1, the computer) is chosen to decide who takes
    the first turn, so the computer's decision is the first thing sent to the pool: only plain data
    reaches it, and the battle is played to its end (Ann's moves by the test)."""
    table = battle_against_the_computer(world, seed=4)
    assert table.state["chooser"] == 1 and ARMY.to_act(table.state) == [1]
    assert type(read(lambda: Table.objects.get(pk=table.pk)).game) is str

    for _ in range(400):
        table = settled(table)
        if table.is_finished:
            break
        seat = ARMY.to_act(table.state)[0]
        assert seat != GM  # app dice: the GM rolls nothing
        action = next(a for a in ARMY.legal_actions(table.state) if a["seat"] == seat)
        table_play(table_id=table.pk, seat=seat, action={k: v for k, v in action.items() if k != "seat"},
                   version=table.version)
    assert status_of(table) == Table.Status.FINISHED
    assert list(read(lambda: Seat.objects.filter(table=table).order_by("index").values_list("bot", flat=True))) == [
        "", "quick"]  # the computer played its side throughout: nothing was handed back
    assert not Activity.objects.filter(summary__contains="could not play").exists()


# --- (b), (c) a pool process killed mid-decision ------------------------------------------------------


def pool_process(other_than: int = 0) -> int:
    """The pid of the pool's process (a spawn child of this test process), once it runs."""
    found: list[int] = []

    def running() -> bool:
        found[:] = [child.pid for child in multiprocessing.active_children() if child.pid != other_than]
        return bool(found)

    wait_for(running, "the pool's process")
    return found[0]


def kill_mid_decision(other_than: int = 0) -> int:
    pid = pool_process(other_than)
    time.sleep(1.0)  # let it start deciding (the decisions here take seconds); killed earlier is no different
    os.kill(pid, signal.SIGKILL)
    return pid


def computer_bots(table) -> list[str]:
    return list(read(lambda: Seat.objects.filter(table=table).order_by("index").values_list("bot", flat=True)))


def activity_lines(world) -> list[str]:
    return list(read(lambda: Activity.objects.filter(campaign=world.campaign).order_by("pk").values_list("summary",
                                                                                                         flat=True)))


@pytest.mark.django_db(transaction=True)
def test_a_pool_process_killed_twice_mid_decision_hands_the_seat_back(world, settings, submissions):
    """The process dies while deciding: the decision is sent once more, to a fresh pool; that process
    dies too, so the seat goes back to a person with an activity line (ruling BOT30): never thinking
    for ever."""
    settings.BOT_BUDGET = {"iterations": 10**9, "seconds": 6.0}
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))

    first = kill_mid_decision()
    kill_mid_decision(other_than=first)  # the fresh pool's process

    assert pool.wait_idle(TIMEOUT)  # the second death's decision is done: the seat was handed back
    assert computer_bots(table) == ["", ""]
    assert len(submissions) == 2 and version_of(table) == 2 and [e.seat for e in log_of(table)] == ["0"]
    assert "could not play seat 2 (Computer), so a person plays it now: its process died twice" in (
        activity_lines(world)[-1])


@pytest.mark.django_db(transaction=True)
def test_turns_queued_behind_a_process_that_died_are_all_decided_on_a_fresh_pool(world, settings, submissions):
    """Three tables' computers queue on the one process; it is killed while deciding the first: each of
    the three decisions is sent again to a fresh pool, and every table gets its computer's move."""
    settings.BOT_BUDGET = {"iterations": 10**9, "seconds": 1.5}
    tables = [open_table(world, [world.ann, ("Computer", "quick")], title=title) for title in ("A", "B", "C")]
    tables = [play_next(table) for table in tables]  # each computer is to act: three decisions queue

    kill_mid_decision()

    for table in tables:
        wait_for(lambda table=table: version_of(table) >= 2, f"the computer's move at {table.title}")
    assert pool.wait_idle(TIMEOUT)
    for table in tables:
        assert [e.seat for e in log_of(table)] == ["0", "1"] and computer_bots(table) == ["", "quick"]
    assert 3 < len(submissions) <= 6  # those the dead process held or queued sent once more, nothing else
    assert not [line for line in activity_lines(world) if "could not play" in line]


# --- (d) only plain data is sent -------------------------------------------------------------------


def test_plain_data_passes_and_anything_else_is_refused_naming_its_path():
    state = {"players": ["Ann", "Computer"], "board": [[1, 2.5, None, True]], "phase": "first"}
    assert plain(state) is state
    with pytest.raises(NotPlain, match=r"game is Table.Game.ARMY \(tabletop.models.tables.Table.Game\), not plain"):
        plain_arguments(game=Table.Game.ARMY, seat=1)
    with pytest.raises(TypeError, match=r"state\['board'\]\[0\]\[1\] is \(2, 3\) \(tuple\)"):
        plain({"board": [[1, (2, 3)]]}, "state")
    with pytest.raises(TypeError, match=r"state has the key 3 \(int\)"):
        plain({3: "x"}, "state")


@pytest.mark.django_db(transaction=True)
def test_a_turn_whose_game_is_a_django_enum_is_refused_where_it_is_sent_and_the_seat_handed_back(
    world, settings, submissions, caplog
):
    settings.BOT_BUDGET = QUICK
    table = play_next(open_table(world, [world.ann, world.ben]))  # Ben (seat 1) is to act
    Seat.objects.filter(table=table, index=1).update(bot="quick")  # the computer's, no turn sent yet
    table = Table.objects.get(pk=table.pk)
    table.game = Table.Game.GRIDARIS  # as the battle service once made it: an enum, not a str

    with transaction.atomic():
        scheduling.turn_after_commit(table)

    assert submissions == []  # nothing reached the pool's process
    assert "not sent: game is Table.Game.GRIDARIS (tabletop.models.tables.Table.Game), not plain data" in caplog.text
    assert computer_bots(table) == ["", ""] and version_of(table) == 2
    assert activity_lines(world)[-1] == (
        "Practice: the computer could not play seat 2 (Ben the Sly), so a person plays it now: "
        "its turn could not be sent to it (a bug: not plain data)"
    )


@pytest.mark.django_db
def test_a_table_opened_with_an_enum_stores_a_plain_str(world):
    table = open_table(world, [world.ann, world.ben])
    assert type(table.game) is str
    battle = battle_against_the_computer(world, seed=4)
    assert type(battle.game) is str and type(Table.objects.get(pk=battle.pk).game) is str


# --- (e) the watchdog: a turn never applied is sent again, then handed back ------------------------


@pytest.mark.django_db(transaction=True)
def test_a_computer_turn_never_applied_is_sent_again_then_its_seat_handed_back(
    world, settings, submissions, monkeypatch, caplog
):
    caplog.set_level("INFO", logger="tabletop")
    """Each decision's move is lost before it reaches the table (as a write that failed would lose it):
    after the bound the turn is sent once more, and after the second bound the seat is a person's."""
    settings.BOT_BUDGET, settings.COMPUTER_TURN_MARGIN = QUICK, 1.0
    monkeypatch.setattr(computer_moves, "play_decided", lambda *args: False)  # the move never lands
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))

    # Waiting on the log, not the database: polling the tests' in-memory SQLite from here can starve the
    # hand-back's write in the watch's thread.
    wait_for(lambda: "attempt 2 past its bound: given back" in caplog.text, "the seat handed back")
    assert pool.wait_idle(TIMEOUT)
    assert computer_bots(table) == ["", ""]
    assert len(submissions) == 2 and [e.seat for e in log_of(table)] == ["0"] and version_of(table) == 2
    assert "has not moved at version 1 within 1.25 s: sent again" in caplog.text
    assert activity_lines(world)[-1] == (
        "Practice: the computer could not play seat 2 (Computer), so a person plays it now: "
        "it had not moved within 1.25 s, twice"
    )
    assert watchdog.watching() == []


@pytest.mark.django_db(transaction=True)
def test_a_move_played_within_its_bound_ends_its_watch(world, settings):
    settings.BOT_BUDGET = {"iterations": 10**9, "seconds": 1.5}
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))
    assert watchdog.watching() == [(table.pk, 1)]  # the turn is deciding: its bound is watched
    wait_for(lambda: version_of(table) >= 2, "the computer's move")
    assert pool.wait_idle(TIMEOUT)
    wait_for(lambda: watchdog.watching() == [], "the watch to be settled")


def test_the_bound_is_the_strengths_time_cap_and_a_margin_twice(settings):
    settings.BOT_BUDGET, settings.COMPUTER_TURN_MARGIN = None, 30
    assert watchdog.turn_limit("quick") == 30.25 and watchdog.turn_limit("strong") == 34.0
    assert watchdog.hand_back_after("quick") == 61 and watchdog.hand_back_after("strong") == 68


@pytest.mark.django_db
def test_the_gm_is_told_when_a_person_takes_over(client, world, settings):
    settings.BOT_BUDGET, settings.COMPUTER_TURN_MARGIN = None, 30
    table = play_next(open_table(world, [world.ann, ("Computer", "quick")]))
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert "Computer (computer, quick) is thinking…" in html
    assert "Computer: a person takes over if the computer has not moved within 61 s." in html
    public = client.get(reverse("tabletop:public_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert "Computer (computer, quick) is thinking…" in public and "takes over" not in public  # the GM's alone


# --- a repeated setting, and a table that moved on ---------------------------------------------------


def fill_the_pool(world) -> list[Table]:
    """Three tables whose computers decide slowly: one in the pool's one process, two in its queue (a
    ``ProcessPoolExecutor`` hands a process's queue up to two jobs), so the next decision waits, queued."""
    return [play_next(open_table(world, [world.ann, ("Computer", "quick")], title=title)) for title in "ABD"]


@pytest.mark.django_db(transaction=True)
def test_pressing_the_same_strength_again_starts_no_second_decision(world, settings, submissions):
    """15 presses of "computer, quick" on a seat that is already the computer's, while it decides: each
    is accepted at the same version and changes nothing, and only the one decision runs."""
    settings.BOT_BUDGET = {"iterations": 10**9, "seconds": 2.0}
    table = play_next(open_table(world, [world.ann, world.ben]))  # Ben (seat 1) is to act
    seats.seat_set_bot(table_id=table.pk, index=1, bot="quick", version=1, user=world.gm.user)

    for _ in range(15):
        assert seats.seat_set_bot(table_id=table.pk, index=1, bot="quick", version=2, user=world.gm.user).version == 2

    wait_for(lambda: version_of(table) >= 3, "the computer's move")
    assert pool.wait_idle(TIMEOUT)
    assert len(submissions) == 1 and [e.seat for e in log_of(table)] == ["0", "1"]


@pytest.mark.django_db(transaction=True)
def test_a_queued_decision_of_a_table_that_moved_on_is_cancelled(world, settings, submissions):
    """Three slow decisions fill the one process and its queue; table C's computer queues behind them. Before it runs,
    C moves on (the computer's seat moved by the service, then Ann): its queued decision is cancelled,
    never run, and C's computer decides once more, at the version it is to act at now."""
    settings.BOT_BUDGET = {"iterations": 10**9, "seconds": 1.5}
    busy = fill_the_pool(world)
    c = play_next(open_table(world, [world.ann, ("Computer", "quick")], title="C"))
    queued = pool.in_flight()[(c.pk, 1)]
    assert not queued.running() and not queued.done()  # behind the others

    seat, action = next_move(c)
    c = table_play(table_id=c.pk, seat=seat, action=action, version=1).table  # the table moves on: Ann to act

    wait_for(queued.cancelled, "the queued decision to be cancelled")
    assert (c.pk, 1) not in pool.in_flight()
    play_next(c)  # Ann moves: the computer is to act at version 3
    for table in [*busy, c]:
        wait_for(lambda table=table: log_of(table)[-1].seat == "1", f"the computer's move at {table.title}")
    assert pool.wait_idle(TIMEOUT)
    assert [e.seat for e in log_of(c)] == ["0", "1", "0", "1"]
    assert [seed for _, _, seed in submissions].count(f"{c.seed}:computer:3") == 1 and len(submissions) == 5


@pytest.mark.django_db(transaction=True)
def test_a_newer_version_scheduled_cancels_the_older_decision_still_queued(world, settings, submissions):
    settings.BOT_BUDGET = {"iterations": 10**9, "seconds": 1.5}
    busy = fill_the_pool(world)
    c = play_next(open_table(world, [world.ann, ("Computer", "quick")], title="C"))
    queued = pool.in_flight()[(c.pk, 1)]
    seats.seat_set_bot(table_id=c.pk, index=1, bot="normal", version=1, user=world.gm.user)  # version 2: a new turn

    assert queued.cancelled() and set(pool.in_flight()) >= {(c.pk, 2)}
    wait_for(lambda: version_of(c) >= 3, "the computer's move at C")
    assert pool.wait_idle(TIMEOUT)
    for table in busy:
        wait_for(lambda table=table: version_of(table) >= 2, f"the computer's move at {table.title}")
    assert pool.wait_idle(TIMEOUT)
    assert [e.seat for e in log_of(c)] == ["0", "1"] and len(submissions) == 5
