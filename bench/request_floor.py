"""The served stack's floor: the server's CPU for a request that does almost nothing.

    .venv/bin/python bench/request_floor.py [--seconds 10] [--clients 10]

Starts ``scripts/serve.py`` as ``make run`` does (uvicorn, one process, SQLite; a throwaway database on
loopback), then ``--clients`` threads of this process ask ``GET /healthz`` (one trivial query) back to
back on keep-alive connections for ``--seconds``. Prints the requests a second and the server's CPU per
request (psutil: every thread of the server process and its children, over the requests answered):
what every request pays before any view of Muster's does its own work (uvicorn, the ASGI/thread
bridge, Django's handler and the middleware, one query). Issue 40 weighs an action's CPU against it.
"""

from __future__ import annotations

import argparse
import http.client
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from harness import free_port, venue_environment, wait_for_server

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(process: psutil.Process) -> float:
    total = 0.0
    for proc in [process, *process.children(recursive=True)]:
        try:
            times = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def hammer(port: int, deadline: float, counts: list[int], errors: list[str]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    done = 0
    while time.monotonic() < deadline:
        conn.request("GET", "/healthz", headers={"Host": f"127.0.0.1:{port}"})
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            errors.append(str(response.status))
        done += 1
    conn.close()
    counts.append(done)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=10)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as temp_dir:
        env = dict(os.environ, DEBUG="0", SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1", LOG_LEVEL="WARNING")
        env.setdefault("SECRET_KEY", "bench-only-secret-not-for-production")
        for name in ("REDIS_URL", "DJANGO_SETTINGS_MODULE", "WEB_CONCURRENCY", "MUSTER_ASGI"):
            env.pop(name, None)
        env.update(venue_environment(temp_dir, port, Path(temp_dir) / "floor.sqlite3"))
        log_path = Path(temp_dir) / "server.log"
        with open(log_path, "w") as log:
            server = subprocess.Popen(
                [sys.executable, str(ROOT / "scripts" / "serve.py")],
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        try:
            wait_for_server(port, server, log_path, timeout=120)
            meter = psutil.Process(server.pid)
            hammer(port, time.monotonic() + 2, [], [])  # warm: connections, imports, the first queries
            counts: list[int] = []
            errors: list[str] = []
            before, started = cpu_seconds(meter), time.monotonic()
            deadline = started + args.seconds
            threads = [
                threading.Thread(target=hammer, args=(port, deadline, counts, errors)) for _ in range(args.clients)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed, used = time.monotonic() - started, cpu_seconds(meter) - before
        finally:
            server.terminate()
            server.wait(timeout=20)
    requests = sum(counts)
    print(
        f"floor: {requests} requests of /healthz in {elapsed:.1f} s ({requests / elapsed:.0f}/s), "
        f"server cpu per request {used / requests * 1000:.2f} ms, errors {len(errors)}"
    )


if __name__ == "__main__":
    main()
