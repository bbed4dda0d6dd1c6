"""Who watches what (muster/presence.py): the counts of open sockets per viewer, in this process for the
embedded server and in Redis for several processes, alike."""

from __future__ import annotations

import os
import threading

import pytest

from muster.presence import InProcess, InRedis


@pytest.fixture(params=["in process", pytest.param("in redis", marks=pytest.mark.redis)])
def counts(request):
    if request.param == "in process":
        yield InProcess()
        return
    backend = InRedis(os.environ["TEST_REDIS_URL"])
    backend.forget_all()
    yield backend
    backend.forget_all()


def test_a_viewer_is_watched_while_one_of_its_sockets_is_open(counts):
    counts.add("table.1", "seat.0.abc", 1)
    counts.add("table.1", "seat.0.abc", 1)  # the same seat on a second phone
    counts.add("table.1", "gm.7", 1)
    counts.add("table.2", "gm.7", 1)
    assert counts.watched("table.1") == {"seat.0.abc": 2, "gm.7": 1}
    counts.add("table.1", "seat.0.abc", -1)
    counts.add("table.1", "gm.7", -1)
    assert counts.watched("table.1") == {"seat.0.abc": 1}  # a viewer back at 0 is not watched
    assert counts.watched("table.2") == {"gm.7": 1} and counts.watched("table.3") == {}
    counts.forget_all()
    assert counts.watched("table.1") == {} == counts.watched("table.2")


def test_sockets_opening_and_closing_at_once_keep_the_count(counts):
    def open_and_close(times: int):
        for _ in range(times):
            counts.add("table.1", "public.3", 1)
            counts.add("table.1", "public.3", -1)
        counts.add("table.1", "public.3", 1)

    threads = [threading.Thread(target=open_and_close, args=(50,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts.watched("table.1") == {"public.3": 4}


def test_a_viewer_left_is_known_with_how_long_ago_until_it_is_back(counts):
    counts.add("table.1", "seat.0.abc", 1)
    counts.add("table.1", "seat.0.abc", 1)  # two phones
    counts.add("table.1", "seat.0.abc", -1)
    assert counts.left("table.1") == {}  # one phone is still connected
    counts.add("table.1", "seat.0.abc", -1)
    ago = counts.left("table.1")
    assert list(ago) == ["seat.0.abc"] and 0 <= ago["seat.0.abc"] < 60
    assert counts.left("table.2") == {}
    counts.add("table.1", "seat.0.abc", 1)  # back
    assert counts.left("table.1") == {}
    counts.add("table.1", "seat.0.abc", -1)
    counts.forget_all()
    assert counts.left("table.1") == {}
