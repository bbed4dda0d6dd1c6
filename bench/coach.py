"""The coach under load (issue 34, part E): practice tables asking "What would the computer do?" at once
while a phone loads its seat page.

    .venv/bin/python bench/coach.py [--askers 10] [--seconds 20] [--warmup 3]

The server exactly as ``make run`` starts it (``scripts/serve.py``: SQLite, one process answering HTTP on
``WEB_THREADS=10`` threads, the computer's spawn pool), on a throwaway SQLite file and a loopback port
(bench/live_server.py's embedded environment). The bench opens practice Gridaris tables between guest
seats before the server starts: one for the phone, and a stack of fresh ones for each asker (an answer is
cached per table, version and seat, so each new question needs a table not asked yet).

* quiet: the phone loads its seat page (``GET /play/<token>/``) every 50 ms for ``--seconds``.
* asking: ``--askers`` threads, each a practice table's phone asking the coach (``POST /play/<token>/coach/``
  at the table's version, as its button does) again and again: answered, it moves to its next fresh table;
  refused (429 over a bound, 503 no answer in time) it asks again after 0.25 s, as a player tapping again
  would. After ``--warmup`` s the phone loads its page as in the quiet phase for ``--seconds``.

Prints, per phase, the seat page's median, p95 and max latency, and the coach's answers and refusals while
the phone was measured. To measure another checkout (the code before a change), run this file from there.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

from harness import free_port, percentile, wait_for_server
from live_server import ROOT, client_environment, server_command, server_environment, stop_server, write_settings

PHONE_GAP = 0.05  # seconds between the phone's page loads
RETRY = 0.25  # seconds before a refused asker taps again


class Connection:
    """One keep-alive loopback connection, its cookies kept (the CSRF cookie of the coach's posts)."""

    def __init__(self, port: int):
        self.port, self.cookies = port, {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        headers = {"Host": f"127.0.0.1:{self.port}", "HX-Request": "true"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        try:
            self.conn.request(method, path, body=urllib.parse.urlencode(body) if body else None, headers=headers)
            response = self.conn.getresponse()
            content = response.read()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            return 0, b""
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, content


def open_tables(count: int) -> list[tuple[str, int]]:
    """``count`` practice Gridaris tables between guest seats: (the token of the seat to act, the version)."""
    from django.contrib.auth import get_user_model

    from campaign.services import campaign_create
    from tabletop.engines import get_engine
    from tabletop.engines.gridaris.starter import STARTER_CARDS
    from tabletop.models import Seat
    from tabletop.services.tables import SeatSpec, table_create

    gm = get_user_model().objects.create_user("bench-coach-gm", password="bench-only-password-1")
    campaign = campaign_create(name="Coach", slug="coach", gm=gm)
    engine, opened = get_engine("gridaris"), []
    for number in range(count):
        table = table_create(campaign=campaign, game="gridaris", title=f"Practice {number}",
                             seats=[SeatSpec(guest_name=f"Guest {number}a"), SeatSpec(guest_name=f"Guest {number}b")],
                             config={"mode": "standard", "cards": STARTER_CARDS}, seed=number + 1)
        seat = next(seat for seat in engine.to_act(table.state) if isinstance(seat, int))
        opened.append((Seat.objects.get(table=table, index=seat).token, table.version))
    return opened


def phone(port: int, token: str, seconds: float) -> list[float]:
    """The seat page's latencies (s) while loading it every ``PHONE_GAP`` s for ``seconds``."""
    connection, times = Connection(port), []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        status, _ = connection.request("GET", f"/play/{token}/")
        if status == 200:
            times.append(time.perf_counter() - started)
        time.sleep(PHONE_GAP)
    return times


_counted = threading.Lock()


def asker(port: int, questions: list[tuple[str, int]], stop: threading.Event, measuring: threading.Event,
          counts: Counter) -> None:
    connection = Connection(port)
    connection.request("GET", f"/play/{questions[0][0]}/")  # the CSRF cookie, as the phone's page sets it
    for token, version in questions:
        while not stop.is_set():
            status, _ = connection.request("POST", f"/play/{token}/coach/", {"version": version})
            if measuring.is_set():
                with _counted:
                    counts[status] += 1
            if status == 200:
                break
            time.sleep(RETRY)
        if stop.is_set():
            return


def row(name: str, times: list[float], counts: Counter | None = None) -> str:
    text = (f"{name:8} seat page: median {statistics.median(times) * 1000:6.1f} ms, "
            f"p95 {percentile(times, 95):6.1f} ms, max {max(times) * 1000:6.1f} ms ({len(times)} loads)")
    if counts is not None:
        text += (f"; coach: {counts[200]} answered, {counts[429]} refused 429, {counts[503]} 503,"
                 f" {sum(n for status, n in counts.items() if status not in (200, 429, 503))} other")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--askers", type=int, default=10, help="practice tables asking the coach at once")
    parser.add_argument("--seconds", type=float, default=20, help="seconds the phone is measured, per phase")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of asking before the phone is measured")
    parser.add_argument("--per-asker", type=int, default=60, help="fresh tables made for each asker")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="muster-coach-") as temp_dir:
        write_settings(temp_dir)
        port = free_port()
        env = server_environment(temp_dir, argparse.Namespace(embedded=True, threads=10), port)
        client_environment(temp_dir, env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        tables = open_tables(1 + args.askers * args.per_asker)
        connection.close()  # SQLite: nothing of the bench's held while the server starts
        log_path = Path(temp_dir) / "server.log"
        with open(log_path, "wb") as log:
            server = subprocess.Popen(server_command(argparse.Namespace(embedded=True), port), cwd=ROOT, env=env,
                                      stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                wait_for_server(port, server, log_path, timeout=180)
                bench(port, tables, args)
            finally:
                stop_server(server)


def bench(port: int, tables: list[tuple[str, int]], args) -> None:
    (phone_token, _), questions = tables[0], tables[1:]
    phone(port, phone_token, 2)  # templates and connections warm
    print(row("quiet", phone(port, phone_token, args.seconds)))
    stop, measuring, counts = threading.Event(), threading.Event(), Counter()
    askers = [threading.Thread(target=asker, args=(port, questions[n::args.askers], stop, measuring, counts))
              for n in range(args.askers)]
    for thread in askers:
        thread.start()
    time.sleep(args.warmup)
    measuring.set()
    times = phone(port, phone_token, args.seconds)
    measuring.clear()
    stop.set()
    for thread in askers:
        thread.join(60)
    print(row("asking", times, counts))


if __name__ == "__main__":
    sys.exit(main())
