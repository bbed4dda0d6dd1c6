"""make run stops cleanly (issue 34): SIGTERM leaves no process of the server behind, not the computer's
pool, not multiprocessing's resource tracker; and a server killed outright takes its pool with it.

A real server started as make run starts it (tests/venue_server.py); the pool is made to start the
cheapest way, a guest's tap at a table whose other seat is the computer's. Waits are bounds, never
measurements.
"""

from __future__ import annotations

import json
import signal
import time

import psutil
import pytest

from tabletop.engines import get_engine

from tests.venue_server import VENUE_HOST, Client, VenueServer

pytestmark = pytest.mark.venue

BOUND = 90  # seconds: the pool's first process starts a fresh interpreter on a loaded 2-core machine
GONE_BOUND = 20  # seconds for every process of a stopped server to end


def pool_started(server: VenueServer) -> list[psutil.Process]:
    """Start the server's computer pool (a guest's tap hands the next turn to the computer); every
    process below the server once the pool's is among them."""
    table = server.seed("computer", "1")
    ((state, version),) = server.query("SELECT state, version FROM tabletop_table WHERE id = ?", [table["id"]])
    action = next(a for a in get_engine("gridaris").legal_actions(json.loads(state)) if a["seat"] == table["human"])
    assert Client(VENUE_HOST, server.port).act(table["tokens"][table["human"]], version, action) == 200
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        below = psutil.Process(server.process.pid).children(recursive=True)
        if any("spawn_main" in " ".join(process.cmdline()) for process in alive(below)):
            return below
        time.sleep(0.2)
    pytest.fail(f"the computer's pool did not start within {BOUND} s")


def alive(processes: list[psutil.Process]) -> list[psutil.Process]:
    running = []
    for process in processes:
        try:
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                running.append(process)
        except psutil.NoSuchProcess:
            pass
    return running


def left_running(processes: list[psutil.Process]) -> list[str]:
    """Those of ``processes`` still running after at most GONE_BOUND seconds, as their command lines."""
    deadline = time.monotonic() + GONE_BOUND
    while alive(processes) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [" ".join(process.cmdline())[-120:] for process in alive(processes)]


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_or_ctrl_c_stops_the_pool_and_the_resource_tracker_with_the_server(tmp_path, stop):
    server = VenueServer(tmp_path).start()
    try:
        below = pool_started(server)
        assert any("resource_tracker" in " ".join(process.cmdline()) for process in alive(below))
        server.process.send_signal(stop)
        server.process.wait(timeout=GONE_BOUND)
    finally:
        server.stop()
    assert left_running(below) == []


def test_a_server_killed_outright_takes_its_pool_with_it(tmp_path):
    """kill -9 runs no shutdown at all: each pool process sees its parent gone and ends itself
    (tabletop/computer/lifeline.py), and then the resource tracker, its last holder gone."""
    server = VenueServer(tmp_path).start()
    try:
        below = pool_started(server)
        server.process.kill()
        server.process.wait(timeout=GONE_BOUND)
    finally:
        server.stop()
    assert left_running(below) == []
