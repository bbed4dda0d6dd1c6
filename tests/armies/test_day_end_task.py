"""Starting the day end, the Celery task (run in-process, as without REDIS_URL) and the schedule.

A real worker over Redis is in test_celery_worker.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.utils import timezone

import armies.tasks
from armies import schedule
from armies.models import DayEnd, Settlement
from armies.services import ArmyError, upkeep
from armies.services import day_end as day_end_service
from armies.services.day_end import DayEndUnderway, DayOver, day_end_start
from armies.services.settlement import day_settle
from armies.tasks import RUN_SCHEDULED_DAY_ENDS, run_scheduled_day_ends, settle_day
from campaign.models import Campaign, Day
from muster.celery import app

from tests.armies._upkeep import CampaignArmies, assert_charged_once, many_commanders


def task_sends(callbacks) -> list:
    """The on-commit callbacks that send the day-end task (the others tell the GM's page it moved on)."""
    return [callback for callback in callbacks if getattr(callback, "func", None) is day_end_service._send]


def test_day_end_start_queues_the_task_after_commit(db, django_capture_on_commit_callbacks):
    world = many_commanders(4)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        day_end = day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)

    assert (day_end.status, day_end.started_by) == ("queued", world.gm.user)
    assert len(task_sends(callbacks)) == 1
    assert not Settlement.objects.exists()  # nothing runs before the transaction commits


def test_day_end_start_settles_the_day_in_process_without_redis(db, django_capture_on_commit_callbacks):
    assert app.conf.task_always_eager  # no REDIS_URL in the test environment
    world = many_commanders(4)

    with django_capture_on_commit_callbacks(execute=True):
        day_end = day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)

    day_end.refresh_from_db()
    assert (day_end.status, day_end.done, day_end.total) == ("done", 4, 4)
    assert_charged_once(world)
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2


def test_only_the_gm_may_end_the_day(db):
    world = many_commanders(1)
    player = CampaignArmies().gm.user  # a GM, but of another campaign

    with pytest.raises(PermissionDenied):
        day_end_start(campaign=world.campaign, day=1, started_by=player)
    assert not DayEnd.objects.exists()


def test_only_the_current_day_can_be_ended(db):
    world = many_commanders(1)

    with pytest.raises(ArmyError, match="^Day 2 has not begun: the campaign is on day 1.$"):
        day_end_start(campaign=world.campaign, day=2, started_by=None)


def test_a_day_that_is_over_is_refused_and_not_sent_again(db, django_capture_on_commit_callbacks):
    world = many_commanders(2)
    day_settle(campaign=world.campaign, day=1)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(DayOver, match="^Day 1 is already over: the campaign is on day 2.$"):
            day_end_start(campaign=world.campaign, day=1, started_by=None)

    assert task_sends(callbacks) == [] and Campaign.objects.get(pk=world.campaign.pk).current_day == 2


def test_a_failed_day_end_is_started_again_and_finishes(db, django_capture_on_commit_callbacks, monkeypatch):
    world = many_commanders(5)
    original = upkeep.bill_for
    calls = {"n": 0}

    def fourth_fails_once(**kwargs):
        calls["n"] += 1
        if calls["n"] == 4:
            raise RuntimeError("boom")
        return original(**kwargs)

    monkeypatch.setattr(upkeep, "bill_for", fourth_fails_once)
    monkeypatch.setenv("MUSTER_TEST_SETTLE_CHUNK", "2")
    with pytest.raises(RuntimeError), django_capture_on_commit_callbacks(execute=True):
        day_end_start(campaign=world.campaign, day=1, started_by=None)
    assert DayEnd.objects.get().status == "failed"
    assert Settlement.objects.count() == 2

    with django_capture_on_commit_callbacks(execute=True):
        day_end_start(campaign=world.campaign, day=1, started_by=None)

    assert DayEnd.objects.get().status == "done"
    assert_charged_once(world)


def test_the_task_retries_on_a_database_error_and_charges_once(db, monkeypatch):
    world = many_commanders(3)
    calls = {"n": 0}

    def flaky(**kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return day_settle(**kwargs)

    monkeypatch.setattr(armies.tasks, "day_settle", flaky)
    # throw=False: as in a worker, the retry is handled instead of propagated (eager mode propagates)
    result = settle_day.apply(args=(world.campaign.pk, 1), throw=False)

    assert result.successful(), result.traceback
    assert calls["n"] == 2
    assert result.result["status"] == "done"
    assert_charged_once(world)


def test_the_task_run_twice_charges_nobody_twice(db):
    world = many_commanders(6)

    first = settle_day.delay(world.campaign.pk, 1).get()
    second = settle_day.delay(world.campaign.pk, 1).get()

    assert first == second  # the second run finds the day closed and reports the same day end
    assert_charged_once(world)
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2


def test_settle_day_is_acknowledged_late_and_requeued_if_its_worker_dies():
    assert settle_day.acks_late and settle_day.reject_on_worker_lost
    assert OperationalError in settle_day.autoretry_for


def test_the_visibility_timeout_is_fitted_to_the_day_end(settings):
    """Redis' default (an hour) would leave a killed worker's day end alone that long; too short a
    timeout would hand a retry waiting for its countdown to a second worker."""
    timeout = app.conf.broker_transport_options["visibility_timeout"]

    assert settle_day.retry_backoff_max < settings.DAY_END_LEASE_SECONDS < timeout <= 600


def test_a_failure_around_the_settlement_is_recorded_on_the_day_end(db, monkeypatch):
    world = many_commanders(2)
    DayEnd.objects.create(campaign=world.campaign, day=1)
    monkeypatch.setattr(armies.tasks, "day_settle", lambda **kwargs: (_ for _ in ()).throw(RuntimeError("no disk")))

    with pytest.raises(RuntimeError):
        settle_day.apply(args=(world.campaign.pk, 1))

    assert DayEnd.objects.values_list("status", "error").get() == ("failed", "RuntimeError: no disk")


# --- the lease: a day end whose worker went silent is sent again ---------------------------------


def _day_end(world, *, status="running", silent_for=None, **fields) -> DayEnd:
    day_end = DayEnd.objects.create(campaign=world.campaign, day=1, status=status, **fields)
    if silent_for is not None:
        DayEnd.objects.filter(pk=day_end.pk).update(
            heartbeat_at=timezone.now() - silent_for, created_at=timezone.now() - silent_for - timedelta(minutes=1)
        )
    return day_end


def test_the_settlement_beats_its_heart_at_the_start_and_after_every_chunk(db, monkeypatch):
    world = many_commanders(5)
    clock = iter(datetime(2030, 5, 2, 20, 0, tzinfo=UTC) + timedelta(seconds=n) for n in range(1000))
    monkeypatch.setattr(timezone, "now", lambda: next(clock))
    beats = []

    day_settle(
        campaign=world.campaign,
        day=1,
        chunk_size=2,
        after_chunk=lambda _n: beats.append(DayEnd.objects.values_list("heartbeat_at", flat=True).get()),
    )

    assert len(beats) == 3 and beats == sorted(set(beats))  # a new heartbeat after each of the 3 chunks
    assert beats[0] > datetime(2030, 5, 2, 20, 0, tzinfo=UTC)  # and one before the first


def test_a_day_end_whose_worker_shows_life_is_left_to_it(db, django_capture_on_commit_callbacks, settings):
    world = many_commanders(2)
    _day_end(world, silent_for=timedelta(seconds=settings.DAY_END_LEASE_SECONDS - 5))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with pytest.raises(DayEndUnderway, match="^Day 1 is already being settled.$"):
            day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)

    assert task_sends(callbacks) == []


def test_a_day_end_silent_for_longer_than_the_lease_is_sent_again(db, django_capture_on_commit_callbacks, settings):
    world = many_commanders(3)
    day_end = _day_end(world, silent_for=timedelta(seconds=settings.DAY_END_LEASE_SECONDS + 5))

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)

    assert len(task_sends(callbacks)) == 1
    day_end.refresh_from_db()
    assert (day_end.status, day_end.done) == ("done", 3)
    assert_charged_once(world)


@pytest.fixture
def silent(db, settings):
    """Campaign 1: a running day end silent for longer than the lease; campaign 2: a queued one
    whose message was lost (no heartbeat, created long ago); campaign 3: a running one that beats."""
    lease = timedelta(seconds=settings.DAY_END_LEASE_SECONDS)
    worlds = [many_commanders(2), many_commanders(2), many_commanders(2)]
    _day_end(worlds[0], silent_for=lease + timedelta(seconds=1))
    lost = _day_end(worlds[1], status="queued")
    DayEnd.objects.filter(pk=lost.pk).update(created_at=timezone.now() - lease - timedelta(seconds=1))
    _day_end(worlds[2], silent_for=timedelta(seconds=1))
    return worlds


def test_beats_check_sends_again_every_silent_day_end_and_only_those(silent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sent = run_scheduled_day_ends()

    assert sent == [silent[0].campaign.pk, silent[1].campaign.pk]
    assert [Campaign.objects.get(pk=world.campaign.pk).current_day for world in silent] == [2, 2, 1]
    assert_charged_once(silent[0]) and assert_charged_once(silent[1])
    assert not Settlement.objects.filter(commander__campaign=silent[2].campaign).exists()


def test_while_the_workers_are_down_a_day_end_is_sent_again_once_per_lease(
    silent, monkeypatch, django_capture_on_commit_callbacks, settings
):
    now = timezone.now()
    lease = timedelta(seconds=settings.DAY_END_LEASE_SECONDS)

    def check_at(moment):
        monkeypatch.setattr(timezone, "now", lambda: moment)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:  # nobody runs them
            sent = run_scheduled_day_ends()
        return sent, len(task_sends(callbacks))

    assert check_at(now) == ([silent[0].campaign.pk, silent[1].campaign.pk], 2)
    assert check_at(now + timedelta(minutes=1)) == ([], 0)
    assert check_at(now + lease + timedelta(seconds=1))[1] == 3  # all three silent now


def test_the_services_and_the_schedule_never_import_the_task_module():
    """The circle tasks -> schedule/upkeep -> tasks is gone: tasks import services, never back."""
    import ast
    from pathlib import Path

    package = Path(armies.tasks.__file__).parent
    for path in [package / "schedule.py", *sorted((package / "services").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [alias.name for alias in node.names]
                assert not any(name.endswith("tasks") or name == "muster.celery" for name in names), path


# --- the schedule ---------------------------------------------------------------------------------


def test_beat_runs_the_day_end_check_every_minute():
    entry = app.conf.beat_schedule["armies: run scheduled day ends"]

    assert entry["task"] == RUN_SCHEDULED_DAY_ENDS == run_scheduled_day_ends.name
    assert entry["task"] in app.tasks
    assert entry["schedule"] == 60


def test_last_passing_of_the_day_end_time():
    at = time(20, 0)
    assert schedule.last_passing(datetime(2030, 5, 2, 20, 1, tzinfo=UTC), at) == datetime(2030, 5, 2, 20, 0, tzinfo=UTC)
    assert schedule.last_passing(datetime(2030, 5, 2, 19, 59, tzinfo=UTC), at) == datetime(
        2030, 5, 1, 20, 0, tzinfo=UTC
    )


BERLIN = ZoneInfo("Europe/Berlin")  # 2030: summer time from 31 March 01:00 UTC to 27 October 01:00 UTC


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("now", "passed"),
    [
        (utc(2030, 3, 30, 18, 59), utc(2030, 3, 29, 19, 0)),  # winter: 20:00 in Berlin is 19:00 UTC
        (utc(2030, 3, 30, 19, 0), utc(2030, 3, 30, 19, 0)),
        (utc(2030, 3, 31, 17, 59), utc(2030, 3, 30, 19, 0)),  # the clocks went forward this morning
        (utc(2030, 3, 31, 18, 0), utc(2030, 3, 31, 18, 0)),  # summer: 20:00 in Berlin is 18:00 UTC
        (utc(2030, 3, 31, 22, 30), utc(2030, 3, 31, 18, 0)),  # 00:30 on 1 April in Berlin
        (utc(2030, 10, 27, 18, 59), utc(2030, 10, 26, 18, 0)),  # the clocks went back this morning
        (utc(2030, 10, 27, 19, 0), utc(2030, 10, 27, 19, 0)),
    ],
)
def test_the_day_end_time_is_read_on_the_campaigns_clock_across_daylight_saving(now, passed):
    assert schedule.last_passing(now, time(20, 0), BERLIN) == passed
    assert schedule.last_passing(now, time(20, 0), UTC) == schedule.last_passing(now, time(20, 0))


def test_a_time_the_clock_skips_passes_an_hour_later_by_the_new_clock():
    # 31 March 2030 in Berlin: 02:00 CET jumps to 03:00 CEST, so 02:30 is never shown; 03:30 CEST is 01:30 UTC
    assert schedule.last_passing(utc(2030, 3, 31, 1, 29), time(2, 30), BERLIN) == utc(2030, 3, 30, 1, 30)
    assert schedule.last_passing(utc(2030, 3, 31, 1, 30), time(2, 30), BERLIN) == utc(2030, 3, 31, 1, 30)


def test_a_time_the_clock_shows_twice_passes_at_its_first_showing_only():
    # 27 October 2030 in Berlin: 02:30 CEST (00:30 UTC), then 03:00 CEST goes back to 02:00 CET: 02:30 CET (01:30 UTC)
    for now in (utc(2030, 10, 27, 0, 30), utc(2030, 10, 27, 1, 30), utc(2030, 10, 28, 1, 29)):
        assert schedule.last_passing(now, time(2, 30), BERLIN) == utc(2030, 10, 27, 0, 30)
    assert schedule.last_passing(utc(2030, 10, 28, 1, 30), time(2, 30), BERLIN) == utc(2030, 10, 28, 1, 30)


def _days_ended_at(monkeypatch, capture, campaign, *moments) -> list[bool]:
    """For each moment in turn: did the schedule end the campaign's day then?"""
    return [_run_at(monkeypatch, moment, capture) == [campaign.pk] for moment in moments]


def test_the_schedule_ends_a_berlin_campaigns_day_at_20_00_berlin_time_before_and_after_the_clocks_change(
    db, monkeypatch, django_capture_on_commit_callbacks
):
    world = many_commanders(2, day_end_time=time(20, 0), time_zone="Europe/Berlin")
    Day.objects.filter(campaign=world.campaign, number=1).update(opened_at=utc(2030, 3, 30, 8, 0))

    ended = _days_ended_at(
        monkeypatch,
        django_capture_on_commit_callbacks,
        world.campaign,
        utc(2030, 3, 30, 18, 59),  # 19:59 CET
        utc(2030, 3, 30, 19, 1),  # 20:01 CET: day 1 ends
        utc(2030, 3, 30, 20, 1),  # 20:01 UTC, when a UTC clock would end it
        utc(2030, 3, 31, 17, 59),  # 19:59 CEST
        utc(2030, 3, 31, 18, 1),  # 20:01 CEST: day 2 ends
        utc(2030, 3, 31, 19, 1),  # 20:00 CET would be now: nothing
    )

    assert ended == [False, True, False, False, True, False]
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 3
    assert_charged_once(world)


def test_the_night_the_clocks_go_back_a_day_ending_at_a_doubled_time_ends_once(
    db, monkeypatch, django_capture_on_commit_callbacks
):
    world = many_commanders(1, day_end_time=time(2, 30), time_zone="Europe/Berlin")
    Day.objects.filter(campaign=world.campaign, number=1).update(opened_at=utc(2030, 10, 26, 12, 0))

    ended = _days_ended_at(
        monkeypatch,
        django_capture_on_commit_callbacks,
        world.campaign,
        utc(2030, 10, 27, 0, 31),  # 02:31 CEST: day 1 ends
        utc(2030, 10, 27, 1, 31),  # 02:31 CET, the same time of the same night once more: nothing
        utc(2030, 10, 28, 1, 31),  # 02:31 CET the next night: day 2 ends
    )

    assert ended == [True, False, True]
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 3


@pytest.fixture
def scheduled(db):
    """A campaign that ends its day at 20:00 UTC, whose day 1 opened at 10:00 today."""
    world = many_commanders(3, day_end_time=time(20, 0))
    world.morning = timezone.now().replace(hour=10, minute=0, second=0, microsecond=0)
    Day.objects.filter(campaign=world.campaign, number=1).update(opened_at=world.morning)
    CampaignArmies(slug="unscheduled")  # no day_end_time: never ended by the schedule
    return world


def _run_at(monkeypatch, moment, capture):
    monkeypatch.setattr(timezone, "now", lambda: moment)
    with capture(execute=True):
        return run_scheduled_day_ends()


def test_the_schedule_ends_the_day_once_its_time_has_passed(scheduled, monkeypatch, django_capture_on_commit_callbacks):
    morning, capture = scheduled.morning, django_capture_on_commit_callbacks

    assert _run_at(monkeypatch, morning.replace(hour=19, minute=59), capture) == []
    assert _run_at(monkeypatch, morning.replace(hour=20, minute=1), capture) == [scheduled.campaign.pk]

    assert Campaign.objects.get(pk=scheduled.campaign.pk).current_day == 2
    assert_charged_once(scheduled)
    # day 2 opened at 20:01: it waits for tomorrow's 20:00, not the next minute
    assert _run_at(monkeypatch, morning.replace(hour=20, minute=2), capture) == []
    assert _run_at(monkeypatch, morning.replace(hour=23, minute=59), capture) == []
    assert _run_at(monkeypatch, morning + timedelta(days=1, hours=10, seconds=30), capture) == [scheduled.campaign.pk]
    assert Campaign.objects.get(pk=scheduled.campaign.pk).current_day == 3


def test_the_schedule_leaves_a_day_end_already_started_or_failed_alone(
    scheduled, monkeypatch, django_capture_on_commit_callbacks
):
    DayEnd.objects.create(campaign=scheduled.campaign, day=1, status=DayEnd.Status.FAILED, error="boom")

    assert _run_at(monkeypatch, scheduled.morning.replace(hour=21), django_capture_on_commit_callbacks) == []
    assert Campaign.objects.get(pk=scheduled.campaign.pk).current_day == 1


def test_a_schedule_missed_for_days_ends_the_day_once(scheduled, monkeypatch, django_capture_on_commit_callbacks):
    later = scheduled.morning + timedelta(days=3)

    assert _run_at(monkeypatch, later, django_capture_on_commit_callbacks) == [scheduled.campaign.pk]
    assert _run_at(monkeypatch, later + timedelta(minutes=1), django_capture_on_commit_callbacks) == []
    assert Campaign.objects.get(pk=scheduled.campaign.pk).current_day == 2


def test_the_day_cannot_end_while_one_of_its_battles_is_being_fought(world):
    from armies.models import Battle
    from armies.services import ArmyError
    from armies.services.day_end import day_end_start

    from tests.armies.factories import CommanderFactory
    from tests.factories import gridaris_table

    vey, marr = CommanderFactory(membership=world.ann), CommanderFactory(membership=world.ben)
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    Battle.objects.create(campaign=world.campaign, attacker=vey, defender=marr, day=1, table=table)
    with pytest.raises(ArmyError, match="still being fought"):
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)
    table.status = table.Status.FINISHED
    table.save()
    assert day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user).day == 1
