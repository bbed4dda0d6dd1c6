"""The push after the answer (tabletop/push.py, ``Behind``, issue 40): in a served process a table's other
screens are rendered and sent on the process's push thread once the writer has its answer; a table moved
again while its push waits is rendered once, as it is then; one thread sends in order, so no viewer hears
an older key after a newer one; a render made already (the writer's) is taken only at its own key."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
from django.db import connection
from django.urls import reverse

from muster import presence
from tabletop import push, viewers
from tabletop.models import Table

from tests.tables import next_move, play_random

HX = {"HTTP_HX_REQUEST": "true"}
WAIT_S = 10  # a bound on every wait below: a test that hangs fails instead


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, str]]:
    """What the pusher sends: (group, key) in the order sent, from whatever thread."""
    said: list[tuple[str, str]] = []

    def send_all(messages):
        said.extend((group, message.get("key", "close")) for group, message in messages)

    monkeypatch.setattr(push, "send_all", send_all)
    return said


@pytest.fixture
def gate(monkeypatch):
    """Renders on the push thread wait until the test opens the gate (at most WAIT_S); every render is
    counted with the thread that made it."""
    opened, renders, render = threading.Event(), [], push.shared_render

    def held(template, context):
        thread = threading.current_thread().name
        renders.append(thread)
        if thread == "muster-push":
            opened.wait(WAIT_S)
        return render(template, context)

    monkeypatch.setattr(push, "shared_render", held)
    yield opened, renders
    opened.set()


class Queries(list):
    """The SQL of every query the push thread runs (its own connection: a wrapper in the test's sees none)."""

    def __call__(self, execute, sql, params, many, context):
        self.append(sql)
        return execute(sql, params, many, context)


@pytest.fixture
def served(settings, monkeypatch):
    """A served process's push thread, of this test's own: it closes its database connection after each push,
    so the test database is left with no session of it (a served SQLite process keeps it). Yields the
    queries of each push, one list a push."""
    queries: list[Queries] = []

    def push_and_close(table_id, known, saved):
        queries.append(Queries())
        try:
            with connection.execute_wrapper(queries[-1]):
                return push.push_table(table_id, known, saved)
        finally:
            connection.close()

    settings.PUSH_AFTER_ANSWER = True
    monkeypatch.setattr(push, "behind", push.Behind(push_and_close))
    yield queries
    drained()


def drained() -> None:
    """Wait until the push thread has nothing left (bounded)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        with push.behind.ready:
            idle = not push.behind.waiting and push.behind.pushing is None
        if idle:
            return
        time.sleep(0.01)
    raise AssertionError("the push thread did not drain")


def until(condition) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.01)


def watch(table: Table, viewer: str) -> str:
    presence.started(viewers.table_space(table.pk), viewer)
    return viewers.viewer_group(table.pk, viewer)


@pytest.mark.django_db(transaction=True)  # the push thread reads what the action committed
def test_a_writers_answer_comes_while_the_other_screens_are_still_being_rendered(
    client, table, world, served, sent, gate
):
    opened, renders = gate
    ann, ben = table.seats.get(index=0), table.seats.get(index=1)
    ann_group = watch(table, viewers.seat_viewer(0, ann.token))  # Ann's second phone
    ben_group = watch(table, viewers.seat_viewer(1, ben.token))
    seat, action = next_move(table)
    assert seat == 0
    token = ann.token
    client.force_login(world.ann.user)
    response = client.post(
        reverse("tabletop:seat_act", args=[token]),
        {**action, "version": table.version, "client_action_id": "tap-1"},
        **HX,
    )
    assert response.status_code == 200 and 'data-key="1"' in response.content.decode()
    assert not opened.is_set() and sent == []  # answered while Ben's screen waits for its render
    opened.set()
    until(lambda: len(sent) == 2)
    assert sorted(sent) == sorted([(ann_group, "1"), (ben_group, "1")])
    # Ann's second phone got her answer's render: the push thread rendered Ben's view only.
    assert renders.count("muster-push") == 1


@pytest.mark.django_db(transaction=True)
def test_the_push_after_a_seats_action_renders_from_the_writers_table_and_reads_only_the_seats(
    client, table, world, served, sent
):
    """Issue 40: the push read the table again that the writer had just saved (its state decoded anew);
    the seats are still read, so a link renewed meanwhile is closed, not sent the render."""
    ann, ben = table.seats.get(index=0), table.seats.get(index=1)
    ben_group = watch(table, viewers.seat_viewer(1, ben.token))
    client.force_login(world.ann.user)
    seat, action = next_move(table)
    assert seat == 0
    response = client.post(
        reverse("tabletop:seat_act", args=[ann.token]),
        {**action, "version": table.version, "client_action_id": "tap-1"},
        **HX,
    )
    assert response.status_code == 200
    until(lambda: len(sent) == 1)
    drained()
    assert sent == [(ben_group, "1")]
    assert len(served) == 1 and len(served[0]) == 1 and "tabletop_seat" in served[0][0], served


@pytest.mark.django_db(transaction=True)
def test_a_table_moved_again_while_its_push_waits_is_rendered_once_and_no_key_goes_backwards(
    table, world, served, sent, gate
):
    opened, renders = gate
    ann, ben = table.seats.get(index=0), table.seats.get(index=1)
    groups = [watch(table, viewers.seat_viewer(0, ann.token)), watch(table, viewers.seat_viewer(1, ben.token))]
    chooser = random.Random(40)
    table = play_random(table, 1, chooser)  # committed: its push starts and waits at the gate
    until(lambda: renders.count("muster-push") == 1)
    table = play_random(table, 4, chooser)  # four more moves while the first push waits
    assert table.version == 5
    opened.set()
    until(lambda: sum(key == "5" for _, key in sent) == 2)
    drained()
    for group in groups:
        keys = [int(key) for g, key in sent if g == group]
        assert keys == sorted(keys) and keys[-1] == 5, (group, keys)
        assert len(keys) <= 2  # the first push, then one for the four moves that waited
    assert renders.count("muster-push") <= 4  # two viewers, at most twice each (five moves)


def test_tables_wait_in_the_order_they_moved_and_a_waiting_table_merges_what_it_knows():
    calls, first, went_on = [], threading.Event(), threading.Event()

    def push_one(table_id, known, saved):
        calls.append((table_id, dict(known)))
        if len(calls) == 1:
            first.set()
            went_on.wait(WAIT_S)

    behind = push.Behind(push_one)
    behind.put(1)
    assert first.wait(WAIT_S)  # table 1's push is under way
    behind.put(2, {"seat.0.a": ("3", "<old>")})
    behind.put(3)
    behind.put(2, {"seat.1.b": ("4", "<b>")})
    behind.put(2, {"seat.0.a": ("4", "<new>")})
    went_on.set()
    until(lambda: len(calls) == 3)
    assert calls == [(1, {}), (2, {"seat.0.a": ("4", "<new>"), "seat.1.b": ("4", "<b>")}), (3, {})]


def test_a_push_that_raises_does_not_stop_the_thread(caplog):
    calls = []

    def push_one(table_id, known, saved):
        calls.append(table_id)
        if table_id == 1:
            raise RuntimeError("a push broke")

    behind = push.Behind(push_one)
    behind.put(1)
    until(lambda: calls == [1])
    behind.put(2)
    until(lambda: calls == [1, 2])
    assert "the push of table 1 was lost" in caplog.text


def test_a_writers_table_is_rendered_from_only_when_newer_than_every_version_sent_and_merged():
    """The writer's table goes to the push only when nothing sent or waiting could be newer: of two writers'
    tables merged, the newer version's; none when one put came without a table or both are of one version
    (an abandon keeps the version); none at or below a version this thread sent."""
    calls, first, went_on = [], threading.Event(), threading.Event()

    def push_one(table_id, known, saved):
        calls.append((table_id, saved and saved.version))
        if len(calls) == 1:
            first.set()
            went_on.wait(WAIT_S)
        return saved.version if saved is not None else 9  # what a read of the table would find: version 9

    def at(version: int) -> Table:
        return Table(version=version)

    behind = push.Behind(push_one)
    behind.put(1, saved=at(3))
    assert first.wait(WAIT_S)  # table 1's push of version 3 is under way
    behind.put(2, saved=at(5))
    behind.put(2, saved=at(4))  # an older writer's put, late: the newer table stays
    behind.put(3, saved=at(5))
    behind.put(3)  # a change that came without a table (a link renewed): read
    behind.put(4, saved=at(5))
    behind.put(4, saved=at(5))  # a second table of the same version (an abandon): read
    behind.put(1, saved=at(3))  # version 3 is being sent: read
    went_on.set()
    until(lambda: len(calls) == 5)
    behind.put(2, saved=at(5))  # sent already
    behind.put(4, saved=at(10))  # newer than the 9 read
    until(lambda: len(calls) == 7)
    assert calls == [(1, 3), (2, 5), (3, None), (4, None), (1, None), (2, None), (4, 10)]


@pytest.mark.django_db
def test_a_known_render_is_taken_at_its_key_only(table, world, sent, gate):
    _, renders = gate
    ann = table.seats.get(index=0)
    viewer = viewers.seat_viewer(0, ann.token)
    watch(table, viewer)
    table = play_random(table, 1, random.Random(1))
    renders.clear()
    key, regions, refused = push.regions_of(table.pk, {viewer: (str(table.version), "<the writer's render>")})
    assert (key, regions, refused, renders) == (str(table.version), {viewer: "<the writer's render>"}, [], [])
    key, regions, _ = push.regions_of(table.pk, {viewer: (str(table.version - 1), "<an older render>")})
    assert len(renders) == 1 and f'data-key="{key}"' in regions[viewer]  # rendered afresh


def test_outside_a_served_process_the_push_runs_in_the_caller(settings, monkeypatch):
    settings.PUSH_AFTER_ANSWER = False
    calls = []
    monkeypatch.setattr(
        push,
        "push_table",
        lambda table_id, known=None: calls.append((threading.current_thread().name, table_id, json.dumps(known))),
    )
    push.push_soon(7, {"gm.1": ("2", "<r>")})
    assert calls == [(threading.current_thread().name, 7, json.dumps({"gm.1": ["2", "<r>"]}))]
