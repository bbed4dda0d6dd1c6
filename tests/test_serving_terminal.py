"""make run's terminal is quiet (issue 35): what a GM reads there is the address, the logins, the owner's link
and errors, not a line per Celery task, not kombu's "No hostname was supplied", and Ctrl-C ends it without a
traceback from the computer's pool.

A real server started as make run starts it (tests/venue_server.py, with make run's own log level); it is
made to do what used to fill the terminal: a computer's move (the pool and an eager Celery task), the coach
(its own pool), a day end (an eager Celery task). Ctrl-C is SIGINT to the whole process group, as a terminal
sends it, so it reaches the pool's processes too. An error the GM must see, a 500 (a table whose stored state
is not JSON any more), is still printed with its traceback. Waits are bounds, never measurements.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time

import pytest

from tabletop.engines import get_engine

from tests.venue_server import GM_HOST, VENUE_HOST, Client, VenueServer

pytestmark = pytest.mark.venue

BOUND = 90  # seconds: the pool's first process starts a fresh interpreter on a loaded 2-core machine
SLUG = "distelblute"
NOISE = ("No hostname was supplied", "succeeded in", "Traceback", "KeyboardInterrupt")


def wait_for(predicate, what: str):
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"{what} did not happen within {BOUND} s")


def table_row(server: VenueServer, table_id: int) -> tuple[dict, int]:
    ((state, version),) = server.query("SELECT state, version FROM tabletop_table WHERE id = ?", [table_id])
    return json.loads(state), version


def computer_moves_and_coach_answers(server: VenueServer) -> None:
    """A guest's tap hands the turn to the computer (its pool, an eager task); once it has moved, the guest
    asks the coach what to do (the coach's pool) until it answers."""
    engine = get_engine("gridaris")
    table = server.seed("computer", "1")
    token = table["tokens"][table["human"]]
    state, version = table_row(server, table["id"])
    action = next(a for a in engine.legal_actions(state) if a["seat"] == table["human"])
    phone = Client(VENUE_HOST, server.port)
    assert phone.act(token, version, action) == 200

    def guests_turn_again():
        state, now = table_row(server, table["id"])
        return now if now > version + 1 and table["human"] in engine.to_act(state) else None

    version = wait_for(guests_turn_again, "the computer's move")

    def coach_answer():
        csrf = phone.csrf_token()
        reply = phone.request("POST", f"/play/{token}/coach/", {"version": version, "csrfmiddlewaretoken": csrf},
                              {"HX-Request": "true", "X-CSRFToken": csrf})
        assert reply.status in (200, 429, 503), reply.body[:300]
        return reply if reply.status == 200 else None

    assert "coach" in wait_for(coach_answer, "the coach's answer").body


def day_ended(server: VenueServer, gm: Client) -> None:
    [(day,)] = server.query("SELECT current_day FROM campaign_campaign WHERE slug = ?", [SLUG])
    assert gm.request("GET", f"/c/{SLUG}/day-end/?day={day}").status == 200
    assert gm.request("POST", f"/c/{SLUG}/day-end/", {"day": day, "csrfmiddlewaretoken": gm.csrf_token()}).status == 302
    assert server.query("SELECT status FROM armies_dayend WHERE day = ?", [day]) == [("done",)]


def broken_table_page(server: VenueServer, gm: Client) -> str:
    """A table whose stored state is no longer a game's state (a damaged database): its page answers 500; its path."""
    table_id = server.seed("tables", "1")["tables"][0]["id"]
    connection = sqlite3.connect(server.database_path, timeout=30)
    try:
        with connection:
            connection.execute("UPDATE tabletop_table SET state = '\"damaged\"' WHERE id = ?", [table_id])
    finally:
        connection.close()
    path = f"/c/{SLUG}/tables/{table_id}/"
    assert gm.request("GET", path).status == 500
    return path


def test_the_terminal_shows_the_banner_and_errors_not_task_lines_and_ctrl_c_prints_no_traceback(tmp_path):
    server = VenueServer(tmp_path).start()
    try:
        assert "LOG_LEVEL" not in server.env  # make run's own level
        gm = Client(GM_HOST, server.port)
        gm.log_in("gm", server.password("gm"))
        computer_moves_and_coach_answers(server)
        day_ended(server, gm)
        quiet_until = len(server.output)
        path = broken_table_page(server, gm)
        wait_for(lambda: f"Internal Server Error: {path}" in server.output[quiet_until:], "the 500's log line")
        error_until = len(server.output)
        assert server.ctrl_c() == 0
    finally:
        server.stop()
    output = server.output
    banner = ("Muster is on the network", "Logins", "/owner/", "DEBUG is off. Ctrl-C stops the server.")
    assert [line for line in banner if line not in output[:quiet_until]] == []
    quiet = output[:quiet_until] + output[error_until:]
    assert [noise for noise in NOISE if noise in quiet] == [], quiet[-3000:]
    assert not re.search(r"^Task \S+\[", quiet, re.MULTILINE)
    error = output[quiet_until:error_until]
    assert "Traceback" in error  # the GM sees what broke, and where
