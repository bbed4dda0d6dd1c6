"""What the server benches share: a free loopback port, scripts/serve.py's environment, percentiles,
waiting for a server to answer, and opening a warmed Army Rules battle between guest seats (bench/load.py,
bench/load_sqlite.py, bench/live.py)."""

from __future__ import annotations

import http.client
import random
import socket
import subprocess
import time
from pathlib import Path

from table_requests import ARMY_UNITS


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def venue_environment(temp_dir: str, port: int, database: Path) -> dict[str, str]:
    """What scripts/serve.py reads to serve as ``make run`` does, on 127.0.0.1:``port`` only, over the
    throwaway SQLite file ``database``, with its static files collected into ``temp_dir``."""
    return {
        "DATABASE_URL": f"sqlite:///{database}",
        "STATIC_ROOT": str(Path(temp_dir) / "static"),
        "MUSTER_HOST": "127.0.0.1",
        "MUSTER_BIND": "127.0.0.1",
        "MUSTER_PORT": str(port),
        # the demo's generated passwords for this throwaway database, not the project's .demo_logins
        "MUSTER_DEMO_LOGINS_FILE": str(Path(temp_dir) / "demo_logins"),
    }


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile of durations in seconds, in ms."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))] * 1000


def wait_for_server(port: int, process: subprocess.Popen, log_path: Path, timeout: float = 60) -> None:
    """Until ``/healthz`` on 127.0.0.1:``port`` answers 200; exits with the server's log if it dies or is silent."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited ({process.returncode}):\n{log_path.read_text()[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz", headers={"Host": f"127.0.0.1:{port}"})
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.2)  # gevent's under bench/live.py (locust patches it)
    raise SystemExit(f"the server did not answer /healthz within {timeout:.0f} s:\n{log_path.read_text()[-3000:]}")


def open_army_battle(campaign, gm, number: int, title: str, warm_actions: int = 0):
    """A new Army Rules battle between two guest seats (app dice), seeded by ``number``, with up to
    ``warm_actions`` random legal actions played; None if it ended while warming."""
    from tabletop.engines import army
    from tabletop.services.tables import SeatSpec, table_create, table_play

    names = [f"Guest {number}a", f"Guest {number}b"]
    table = table_create(
        campaign=campaign,
        game="army",
        title=title,
        seats=[SeatSpec(guest_name=name) for name in names],
        config=army.starter_config(players=names, units=ARMY_UNITS, dice="app"),
        created_by=gm,
        seed=number,
    )
    rng = random.Random(number)
    for _ in range(warm_actions):
        seats = army.to_act(table.state)
        if not seats or army.outcome(table.state) is not None:
            break
        action = rng.choice([a for a in army.legal_actions(table.state) if a["seat"] == seats[0]])
        table = table_play(table_id=table.pk, seat=seats[0], action=action, version=table.version).table
    return None if army.outcome(table.state) is not None else table
