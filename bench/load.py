"""Live battles under load: a real gunicorn server on PostgreSQL, polled by many phones.

    DATABASE_URL=postgres://... .venv/bin/python bench/load.py [--battles 50] [--pollers 150]
        [--seconds 30] [--action-rate 10] [--max-actions 5000] [--workers 2] [--threads 4]

Starts gunicorn (``muster.wsgi``, DEBUG off, static files collected into a temporary
STATIC_ROOT, on 127.0.0.1) against the PostgreSQL database of DATABASE_URL (SQLite is
refused: one writer at a time is not what production runs; bench/load_sqlite.py loads SQLite the way
``make run`` serves it). It opens ``--battles``
Army Rules battles (app dice, guest seats, so a phone needs only its seat's link) and
plays a few actions in each, then, for ``--seconds`` after a short warm-up:

* ``--pollers`` phones poll at 1 Hz, three to a battle (both seats, and a second
  device on the first seat): ``GET /play/<token>/poll/?v=<known>`` with ``HX-Request``,
  204 while nothing changed, 200 with the live region when it did (the phone then
  takes the new ``data-version``);
* actor threads play the battles at ``--action-rate`` actions per second in all (at
  most ``--max-actions``): the bench process reads the table with the ORM, picks a
  random legal action of the seat to act with the engine, and POSTs it over HTTP to
  ``/play/<token>/act/`` as a phone's button does (CSRF cookie and token from the seat
  page, the legal action as JSON in ``action``); a finished battle is replaced by a
  new one and its phones move to the new links. If the engine waits on the GM, the
  GM posts it from a logged-in session to ``/c/<slug>/tables/<pk>/act/``.

Every client is a thread with its own keep-alive ``http.client`` connection. Prints
p50/p95 latency and errors per request type, requests per second, and a last line
such as ``load: 50 battles, 150 pollers at 1 Hz, 30 s: poll p50 4.1 ms p95 12.0 ms,
action p50 30 ms p95 80 ms, 0 errors``. gunicorn is always stopped on the way out.
The tables it creates are left in the database: use a throwaway one, e.g. the cluster of
``scripts/services.sh``::

    PYTHON=python3 bash -c '. scripts/lib.sh; . scripts/services.sh; SERVICES_DIR=$(mktemp -d);
      trap "services_stop; rm -rf $SERVICES_DIR" EXIT; p=$(free_port 54379); postgres_start $p;
      DATABASE_URL=postgres://muster:muster@127.0.0.1:$p/muster .venv/bin/python bench/load.py'

Workers and threads (defaults for a 2-core machine): gunicorn's ``gthread`` worker keeps
each phone's keep-alive connection open without tying up a thread between polls, so
150 phones need no more than a handful of threads. Two processes use both cores (the
GIL keeps one process on one core); four threads each cover the time a request waits
on PostgreSQL. More processes only fight over the same two cores, which the load
generator and PostgreSQL share too; and every thread keeps its own database connection
(CONN_MAX_AGE), which must stay under PostgreSQL's max_connections.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from harness import free_port, open_army_battle, percentile, wait_for_server  # noqa: E402

VERSION_RE = re.compile(rb'data-version="(\d+)"')
CSRF_INPUT_RE = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
POLL_INTERVAL = 1.0
GM_PASSWORD = "bench-load-gm-password"


# --- set-up ------------------------------------------------------------------------------------


def server_environment(temp_dir: str, port: int) -> dict:
    """The environment of both the bench process and gunicorn: production settings, plain HTTP."""
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="bench_load_settings",
        PYTHONPATH=os.pathsep.join([temp_dir, str(ROOT)]),
        LOG_LEVEL="WARNING",
    )
    env.setdefault("SECRET_KEY", "bench-only-secret-not-for-production")
    return env


def write_settings(temp_dir: str) -> None:
    """muster.settings with STATIC_ROOT in the temporary directory (the repository stays untouched)."""
    static_root = Path(temp_dir) / "static"
    (Path(temp_dir) / "bench_load_settings.py").write_text(
        f"from muster.settings import *  # noqa: F403\n\nSTATIC_ROOT = {str(static_root)!r}\n"
    )


def require_postgres() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://", "pgsql://")):
        raise SystemExit(
            "bench/load.py needs PostgreSQL: set DATABASE_URL=postgres://user:pass@host:port/db "
            "(a throwaway database; SQLite takes one writer at a time, which is not what production runs)."
            + (f" Got {url.split(':', 1)[0]!r}." if url else "")
        )


@dataclass
class Battle:
    """One battle slot: its current table; replaced when the battle ends."""

    slot: int
    table_id: int = 0
    tokens: list = field(default_factory=list)
    version: int = 0
    generation: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class World:
    """The campaign, its GM and the battles, through the ORM of the bench process."""

    def __init__(self, seed: int):
        from django.contrib.auth import get_user_model

        from campaign.services import campaign_create

        stamp = int(time.time() * 1000)
        self.gm = get_user_model().objects.create_user(f"bench-load-gm-{stamp}", password=GM_PASSWORD)
        self.campaign = campaign_create(name="Load", slug=f"load-{stamp}", gm=self.gm)
        self.rng = random.Random(seed)
        self.tables_opened = 0
        self.count_lock = threading.Lock()

    def open_table(self, battle: Battle, warm_actions: int = 0) -> None:
        """A new battle in ``battle``'s slot, ``warm_actions`` random actions in (fewer if it ends)."""
        with self.count_lock:
            self.tables_opened += 1
            number = self.tables_opened
        table = open_army_battle(self.campaign, self.gm, number, f"Load battle {number}", warm_actions)
        if table is None:  # ended while warming: start afresh
            return self.open_table(battle)
        tokens = [seat.token for seat in table.seats.order_by("index")]
        with battle.lock:
            battle.table_id, battle.tokens, battle.version = table.pk, tokens, table.version
            battle.generation += 1


# --- HTTP clients ------------------------------------------------------------------------------------


class Stats:
    """Latencies and errors per request type, recorded only inside the measured window."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {"poll": [], "action": []}
        self.errors: dict[str, dict[str, int]] = {"poll": {}, "action": {}}
        self.statuses: dict[str, dict[int, int]] = {"poll": {}, "action": {}}
        self.reconnects = 0
        self.window = (float("inf"), float("inf"))
        self.cpu: dict[str, float] = {}
        self.by_status: dict[tuple[str, int], list[float]] = {}

    def measuring(self, started: float) -> bool:
        return self.window[0] <= started < self.window[1]

    def record(self, kind: str, started: float, seconds: float, status: int | None, ok: bool, error: str = ""):
        if not self.measuring(started):
            return
        with self.lock:
            if status is not None:
                self.statuses[kind][status] = self.statuses[kind].get(status, 0) + 1
            if ok:
                self.latency[kind].append(seconds)
                self.by_status.setdefault((kind, status), []).append(seconds)
            else:
                reason = error or f"HTTP {status}"
                self.errors[kind][reason] = self.errors[kind].get(reason, 0) + 1


class Http:
    """One keep-alive connection with a cookie jar: a phone or a tablet."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.cookies: dict[str, str] = {}
        self.conn = self._connect()

    def _connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, body, seconds); reconnects once when the server closed an idle connection."""
        all_headers = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=all_headers)
                response = self.conn.getresponse()
                content = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed while idle: a browser reconnects too.
                self.conn.close()
                self.conn = self._connect()
                with self.stats.lock:
                    self.stats.reconnects += 1
                if attempt == 2:
                    raise
                continue
            seconds = time.perf_counter() - started
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = self._connect()
            return response.status, content, seconds
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


def poller(port: int, battle: Battle, seat: int, start_at: float, stop: threading.Event, stats: Stats):
    """A phone on one seat: poll every second, take the new version on 200."""
    client = Http(port, stats)
    generation, token, known = None, "", 0
    next_at = start_at
    try:
        while not stop.is_set():
            delay = next_at - time.perf_counter()
            if delay > 0 and stop.wait(delay):
                break
            next_at = max(next_at + POLL_INTERVAL, time.perf_counter())
            with battle.lock:
                if battle.generation != generation:  # a new battle in this slot: a new link
                    generation, token, known = battle.generation, battle.tokens[seat], battle.version
            started = time.perf_counter()
            try:
                status, content, seconds = client.request(
                    "GET", f"/play/{token}/poll/?v={known}", headers={"HX-Request": "true"}
                )
            except (OSError, http.client.HTTPException) as error:
                stats.record("poll", started, 0, None, False, type(error).__name__)
                continue
            if status == 200:
                match = VERSION_RE.search(content)
                if match is None:
                    stats.record("poll", started, seconds, status, False, "200 without data-version")
                    continue
                known = int(match.group(1))
            stats.record("poll", started, seconds, status, status in (200, 204))
    finally:
        client.close()


class Actor:
    """Plays its share of the battles: next legal action from the ORM, posted over HTTP like a button."""

    def __init__(self, port: int, world: World, battles: list[Battle], stats: Stats, slug: str):
        self.port, self.world, self.battles, self.stats, self.slug = port, world, battles, stats, slug
        self.phone = Http(port, stats)
        self.gm: Http | None = None
        self.csrf = ""
        self.rng = random.Random(battles[0].slot if battles else 0)
        self.applied = self.finished = self.gm_actions = 0

    def take_seat_page(self, token: str) -> None:
        """Open a seat page with its link alone, as a guest's phone does; keep the CSRF cookie and token."""
        status, content, _ = self.phone.request("GET", f"/play/{token}/")
        if status != 200:
            raise SystemExit(f"the seat page /play/{token}/ answered {status}: {content[:300]!r}")
        match = CSRF_INPUT_RE.search(content)
        self.csrf = match.group(1).decode() if match else self.phone.cookies.get("csrftoken", "")
        if not self.csrf:
            raise SystemExit("the seat page set no CSRF cookie and has no csrfmiddlewaretoken")

    def gm_session(self) -> Http:
        """The GM's tablet: log in through the login form (only when the engine waits on the GM)."""
        if self.gm is None:
            self.gm = Http(self.port, self.stats)
            status, content, _ = self.gm.request("GET", "/accounts/login/")
            token = CSRF_INPUT_RE.search(content).group(1).decode()
            status, content, _ = self.gm.request(
                "POST",
                "/accounts/login/",
                {"username": self.world.gm.username, "password": GM_PASSWORD, "csrfmiddlewaretoken": token},
            )
            if status != 302 or "sessionid" not in self.gm.cookies:
                raise SystemExit(f"the GM could not log in ({status}): {content[:300]!r}")
        return self.gm

    def play_one(self, battle: Battle) -> bool:
        """One action on ``battle`` (on a new battle in its slot if that one is over)."""
        import json

        from tabletop.engines import army
        from tabletop.engines.kernel import GM
        from tabletop.models import Table

        with battle.lock:
            table_id, tokens = battle.table_id, list(battle.tokens)
        table = Table.objects.only("state", "version").get(pk=table_id)
        if army.outcome(table.state) is not None:  # over: a new battle in this slot, its phones follow
            self.finished += 1
            self.world.open_table(battle)
            with battle.lock:
                table_id, tokens = battle.table_id, list(battle.tokens)
            table = Table.objects.only("state", "version").get(pk=table_id)
        seat = army.to_act(table.state)[0]
        action = self.rng.choice([a for a in army.legal_actions(table.state) if a["seat"] == seat])
        data = {
            "action": json.dumps(action),
            "version": table.version,
            "client_action_id": f"load-{table.pk}-{table.version}",
        }
        if seat == GM:
            client, url = self.gm_session(), f"/c/{self.slug}/tables/{table.pk}/act/"
            data["as_seat"] = GM
            self.gm_actions += 1
        else:
            client, url = self.phone, f"/play/{tokens[seat]}/act/"
        data["csrfmiddlewaretoken"] = self.csrf if client is self.phone else client.cookies.get("csrftoken", "")
        headers = {"HX-Request": "true", "X-CSRFToken": data["csrfmiddlewaretoken"]}
        started = time.perf_counter()
        try:
            status, content, seconds = client.request("POST", url, data, headers)
        except (OSError, http.client.HTTPException) as error:
            self.stats.record("action", started, 0, None, False, type(error).__name__)
            return True
        ok = status == 200
        self.stats.record("action", started, seconds, status, ok, "" if ok else f"HTTP {status}")
        if ok:
            self.applied += 1
            match = VERSION_RE.search(content)
            with battle.lock:
                if battle.table_id == table_id and match:
                    battle.version = int(match.group(1))
        return True

    def run(self, start_at: float, interval: float, stop: threading.Event, budget: Budget) -> None:
        from django.db import connection

        next_at = start_at
        try:
            while not stop.is_set():
                for battle in self.battles:
                    if stop.is_set() or not budget.take():
                        return
                    if interval:
                        delay = next_at - time.perf_counter()
                        if delay > 0 and stop.wait(delay):
                            return
                        next_at = max(next_at + interval, time.perf_counter())
                    self.play_one(battle)
        finally:
            self.phone.close()
            if self.gm:
                self.gm.close()
            connection.close()


class Budget:
    """At most ``limit`` actions in all."""

    def __init__(self, limit: int):
        self.left, self.lock = limit, threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0:
                return False
            self.left -= 1
            return True


# --- the run -----------------------------------------------------------------------------------------


def cpu_seconds(arbiter_pid: int) -> float:
    """CPU time (user + system) of gunicorn's arbiter and its workers so far, from /proc (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")

    def of(pid: int) -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / tick

    children = []
    for task in Path(f"/proc/{arbiter_pid}/task").glob("*/children"):
        children += [int(pid) for pid in task.read_text().split()]
    return of(arbiter_pid) + sum(of(pid) for pid in children)


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)  # graceful: the arbiter stops its workers
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--pollers", type=int, default=150, help="phones polling at 1 Hz (default 3 per battle)")
    parser.add_argument("--seconds", type=float, default=30, help="the measured window")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of load before measuring")
    parser.add_argument("--action-rate", type=float, default=10, help="actions per second in all (0: flat out)")
    parser.add_argument("--max-actions", type=int, default=5000)
    parser.add_argument("--actors", type=int, default=5, help="threads playing the battles")
    parser.add_argument("--warm-actions", type=int, default=4, help="actions played in each battle before the run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    require_postgres()
    if args.battles < 1 or args.pollers < 0 or args.actors < 1:
        raise SystemExit("need at least one battle and one actor")
    with tempfile.TemporaryDirectory(prefix="muster-load-") as temp_dir:
        port = free_port()
        write_settings(temp_dir)
        env = server_environment(temp_dir, port)
        os.environ.update({k: env[k] for k in ("DEBUG", "SECURE_SSL_REDIRECT", "ALLOWED_HOSTS", "SECRET_KEY")})
        os.environ.update(DJANGO_SETTINGS_MODULE="bench_load_settings", LOG_LEVEL="WARNING")
        sys.path.insert(0, temp_dir)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        run(args, port, env, Path(temp_dir))


def gunicorn_label(args) -> str:
    return f"gunicorn gthread, {args.workers} workers x {args.threads} threads, keep-alive 5 s"


def gunicorn_command(args, port: int, log_path: Path) -> list[str]:
    return [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        "muster.wsgi",
        "-b", f"127.0.0.1:{port}",
        "-w", str(args.workers),
        "--threads", str(args.threads),  # gthread: keep-alive connections wait in the poller, not in a thread
        "--keep-alive", "5",  # phones poll every second: their connections stay open between polls
        "--error-logfile", str(log_path),
        "--log-level", "warning",
    ]  # fmt: skip


def run(args, port: int, env: dict, temp_dir: Path, server_command=gunicorn_command) -> None:
    """Open the battles, start the server (``server_command(args, port, log_path)``), load it, report."""
    from django.db import connection

    started_setup = time.perf_counter()
    world = World(args.seed)
    battles = [Battle(slot) for slot in range(args.battles)]
    for battle in battles:
        world.open_table(battle, warm_actions=args.warm_actions)
    setup_seconds = time.perf_counter() - started_setup
    log_path = temp_dir / "server.log"
    command = server_command(args, port, log_path)
    with log_path.open("ab") as log:  # the server's own output, shown if it dies
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    stats, stop, threads = Stats(), threading.Event(), []
    try:
        wait_for_server(port, process, log_path)
        actors = [
            Actor(port, world, battles[k :: args.actors], stats, world.campaign.slug)
            for k in range(min(args.actors, len(battles)))
        ]
        for actor in actors:  # each actor's phone opens a seat page once: templates warm, CSRF in hand
            actor.take_seat_page(actor.battles[0].tokens[0])
        now = time.perf_counter()
        stats.window = (now + args.warmup, now + args.warmup + args.seconds)
        for n in range(args.pollers):
            battle, seat = battles[n % len(battles)], (n // len(battles)) % 2
            start_at = now + POLL_INTERVAL * n / max(1, args.pollers)  # spread over the first second
            threads.append(
                threading.Thread(target=poller, args=(port, battle, seat, start_at, stop, stats), daemon=True)
            )
        budget = Budget(args.max_actions)
        interval = len(actors) / args.action_rate if args.action_rate > 0 else 0.0
        for k, actor in enumerate(actors):  # staggered: the actions arrive evenly, not in bursts of len(actors)
            start_at = now + interval * k / len(actors)
            threads.append(threading.Thread(target=actor.run, args=(start_at, interval, stop, budget), daemon=True))
        for thread in threads:
            thread.start()
        stop.wait(max(0.0, stats.window[0] - time.perf_counter()))
        cpu_before = cpu_seconds(process.pid), time.process_time()
        stop.wait(max(0.0, stats.window[1] - time.perf_counter()))
        cpu_after = cpu_seconds(process.pid), time.process_time()
        stop.set()
        stats.cpu = {  # share of one core over the measured window
            "server": (cpu_after[0] - cpu_before[0]) / args.seconds,
            "bench": (cpu_after[1] - cpu_before[1]) / args.seconds,
        }
        for thread in threads:
            thread.join(timeout=35)
        if process.poll() is not None:
            print(f"the server died during the run:\n{log_path.read_text()[-3000:]}", file=sys.stderr)
    finally:
        stop.set()
        stop_server(process)
        connection.close()
    report(args, stats, actors, world, setup_seconds, log_path)


def report(args, stats: Stats, actors: list, world: World, setup_seconds: float, log_path: Path) -> None:
    import django
    from django.db import connection

    cpu = "unknown CPU"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            database = f"PostgreSQL {cursor.fetchone()[0]}"
    else:
        database = f"SQLite {connection.Database.sqlite_version} ({connection.settings_dict['OPTIONS']})"
    print(
        f"machine: {os.cpu_count()} cores ({cpu}), Python {sys.version.split()[0]}, Django {django.get_version()}, "
        f"{database}"
    )
    print(
        f"server: {getattr(args, 'server', None) or gunicorn_label(args)}, DEBUG off; "
        f"set-up {setup_seconds:.1f} s"
    )
    window = args.seconds
    total_requests = sum(len(v) for v in stats.latency.values()) + sum(sum(e.values()) for e in stats.errors.values())
    for kind in ("poll", "action"):
        values, errors = stats.latency[kind], stats.errors[kind]
        statuses = ", ".join(f"{status}: {n}" for status, n in sorted(stats.statuses[kind].items()))
        print(
            f"  {kind:<6} {len(values) + sum(errors.values()):6d} requests ({len(values) / window:6.1f}/s ok), "
            f"p50 {percentile(values, 50):6.1f} ms, p95 {percentile(values, 95):6.1f} ms, "
            f"p99 {percentile(values, 99):6.1f} ms, max {max(values, default=0) * 1000:6.1f} ms; "
            f"errors {sum(errors.values())}{' ' + str(errors) if errors else ''}; statuses {statuses or '-'}"
        )
    polls = [
        f"{status}: p50 {percentile(values, 50):.1f} ms, p95 {percentile(values, 95):.1f} ms"
        for (kind, status), values in sorted(stats.by_status.items())
        if kind == "poll"
    ]
    if polls:
        print(f"  polls by answer: {'; '.join(polls)} (200: the live region rendered, 204: unchanged)")
    applied = sum(actor.applied for actor in actors)
    print(
        f"  total  {total_requests / window:.1f} requests/s; actions applied {applied} (all run, warm-up included), "
        f"battles finished {sum(a.finished for a in actors)}, tables opened {world.tables_opened}, "
        f"GM actions {sum(a.gm_actions for a in actors)}, reconnects {stats.reconnects}"
    )
    if stats.cpu:
        print(
            f"  CPU over the window (share of one core): server {stats.cpu['server']:.0%}, "
            f"this load generator {stats.cpu['bench']:.0%}; load average {os.getloadavg()[0]:.2f}"
        )
    server_errors = [line for line in log_path.read_text().splitlines() if "Error" in line or "error" in line]
    if server_errors:
        print(f"  gunicorn log: {len(server_errors)} error lines, e.g. {server_errors[0][:200]}")
    poll, action = stats.latency["poll"], stats.latency["action"]
    errors = sum(sum(e.values()) for e in stats.errors.values())
    print(
        f"load: {args.battles} battles, {args.pollers} pollers at 1 Hz, {window:g} s: "
        f"poll p50 {percentile(poll, 50):.1f} ms p95 {percentile(poll, 95):.1f} ms, "
        f"action p50 {percentile(action, 50):.0f} ms p95 {percentile(action, 95):.0f} ms, {errors} errors"
    )


if __name__ == "__main__":
    main()
