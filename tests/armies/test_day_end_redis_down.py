"""End day with Redis down (issue 37): the send fails within a second or two, the day end stays queued for
beat's lease check, the GM reads a sentence, and nobody reads "The Celery application must be restarted".

Celery's defaults took 20 s here: before a task is published the result backend subscribes to its result,
and retried a lost Redis 20 times a second apart, then logged the "must be restarted" line although the
process recovered by itself. The day end reads no result, so it is sent without one; publishing and every
connection attempt are bounded in muster/settings.py.
"""

from __future__ import annotations

import logging

import pytest
from kombu.exceptions import OperationalError

from armies.models import DayEnd
from armies.services.day_end import day_end_report, day_end_start
from muster.celery import app

from tests.armies._celery import reset_connections
from tests.armies._upkeep import many_commanders
from tests.venue_server import free_port

SEND_BOUND_SECONDS = 5  # what the GM may wait for the page when Redis is down, at the very most


def send_bound() -> float:
    """The longest a send can take with Redis unreachable, from the settings: each attempt waits for its
    connection at most the connect timeout, and the retries sleep between attempts."""
    policy = app.conf.task_publish_retry_policy
    attempts = policy["max_retries"] + 1
    connect = max(app.conf.broker_connection_timeout, app.conf.broker_transport_options["socket_connect_timeout"])
    return attempts * connect + policy["max_retries"] * policy["interval_max"]


def test_a_send_with_redis_down_is_bounded_by_the_settings():
    assert send_bound() <= SEND_BOUND_SECONDS
    backend_policy = app.conf.result_backend_transport_options["retry_policy"]
    assert backend_policy["max_retries"] <= app.conf.task_publish_retry_policy["max_retries"]
    assert app.conf.redis_socket_connect_timeout <= app.conf.broker_connection_timeout


@pytest.fixture
def redis_down():
    """The test process's Celery sends to a Redis that is not there: a closed port on loopback."""
    url = f"redis://127.0.0.1:{free_port('127.0.0.1')}/0"
    keys = ("broker_url", "result_backend", "task_always_eager")
    saved = {key: app.conf[key] for key in keys}
    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    reset_connections()
    try:
        yield url
    finally:
        app.conf.update(saved)
        reset_connections()


@pytest.mark.django_db(transaction=True)
def test_end_day_with_redis_down_fails_fast_stays_queued_and_says_so(redis_down, caplog):
    world = many_commanders(2)
    caplog.set_level(logging.INFO)

    with pytest.raises(OperationalError) as failure:
        day_end_start(campaign=world.campaign, day=1, started_by=world.gm.user)

    day_end = DayEnd.objects.get(campaign=world.campaign, day=1)
    assert day_end.status == "queued"  # beat's check sends it again once the lease runs out
    report = day_end_report(campaign_id=world.campaign.pk, day=1, failure=failure.value)
    assert report.tone == "error"
    assert report.sentence.startswith("Day 1 is queued, but no worker has it yet (")
    assert "It is sent again automatically within 3 minutes; or press End day 1 again then." in report.sentence
    assert not [record for record in caplog.records if "must be restarted" in record.getMessage()]
    assert not [record for record in caplog.records if record.levelno >= logging.CRITICAL]
