"""Live battles with push: a real server, 150 phones on websockets, optionally computers thinking.

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/live.py
        [--battles 50] [--phones 150] [--idle 30] [--live 30] [--live-rate 10] [--flat-out 25]
        [--workers 2] [--threads 10] [--pool-size 12] [--profile FILE] [--computers N]
    .venv/bin/python bench/live.py --embedded [--computers N] [same phase options]

Two modes (bench/live_server.py):

* PostgreSQL + Redis (the default): ``uvicorn muster.asgi:application`` (uvloop, httptools,
  ``--workers 2``, no access log, the websocket options of scripts/serve.py; DEBUG off, static files
  collected into a temporary STATIC_ROOT, on 127.0.0.1) against the PostgreSQL database of
  DATABASE_URL and the Redis of REDIS_URL (both required: two server processes share their pushes
  through the Redis channel layer; muster/asgi.py sets MUSTER_ASGI, so each process answers HTTP on
  ``--threads`` threads and takes its connections from a psycopg pool of ``--pool-size``).
* ``--embedded``: the server exactly as ``make run`` starts it: ``scripts/serve.py`` itself (SQLite,
  the in-process channel layer, one process answering HTTP on ``--threads`` threads, no Redis; it
  migrates, collects static files and loads the demo first), on a throwaway SQLite file and a
  loopback port. DATABASE_URL and REDIS_URL are not used.

It opens ``--battles`` Army Rules battles between guest seats (app dice: a phone needs only its
seat's link), then:

* phones: ``--phones`` locust users (gevent), three to a battle (both seats, and a second device
  on the first seat). Each opens its seat page (``GET /play/<token>/``, its key from the live
  region) and holds a websocket to ``/ws/play/<token>/`` (websocket-client, Origin = the server's
  origin). A push newer than its render either carries the render itself (``{"key": K, "html":
  ...}``: the phone takes K, nothing fetched) or only the key (``{"key": K}``: the phone fetches its
  view as the browser does, ``GET /play/<token>/poll/?v=<its key>`` with ``HX-Request: true``, taking
  the new key from the answer's live region, ``data-key``, else ``data-version``/``data-status``).
* idle: ``--idle`` seconds with every phone connected and nobody acting: the server's CPU time
  (psutil: the server and its processes) as a share of one core.
* live: one actor per battle posts the battle's next legal action (the bench reads the table's
  state from the database and picks at random with the engine, as bench/load.py does; POSTed to
  ``/play/<token>/act/`` like a phone's button: CSRF cookie and token from a seat page, the
  action as JSON), ``--live-rate`` actions a second in all, evenly spread, after ``--warmup``
  seconds unmeasured. update = from the start of an action's POST to the moment EVERY phone of
  that table (the three watching devices; the posting device has its render in the answer) has
  a render at least that new.
* flat-out: for ``--flat-out`` seconds each actor posts its battle's next action as soon as the
  previous one is answered (one actor per battle, so a 409 stale version is never provoked and
  counts as an error): actions/s and the action (tap) latency.
* ``--computers N`` (bench/live_computers.py): then N Gridaris tables where two computer seats play
  each other at ``normal`` (so N decisions are wanted the whole time; a finished table is replaced)
  and the warm-up, live and flat-out phases run again ("live+computers", "flat-out+computers"). The
  GM hands the seats over with the seat control, so the server decides as at the venue: embedded in
  its own spawn pool, with Redis on a Celery worker the bench starts (``celery -A muster worker``,
  prefork, as docs/operations.md runs one). The report gives the tap and update p95 with them and
  their ratio to the figures without (the issue's goal: at most 1.5x), the computers' moves, their
  CPU, and the nice values of the processes (embedded) or threads (worker) deciding.

A finished battle is replaced by a fresh table (made ahead by the bench, off the clock): its
phones open the new links, and its actor waits for them before playing on. Errors: any answer
other than 200 (204 for a poll), a websocket refused or dropped, an unreadable push, a phone that
fails to follow its battle, and any action whose new render some phone never got (10 s after its
phase ends). Every loop is bounded by the phase deadlines; the server (and the worker) is always
stopped on the way out, Ctrl-C included. In the PostgreSQL mode the tables it creates are left in
the database: use throwaway services, e.g. those of ``scripts/services.sh``::

    PYTHON=python3 bash -c '. scripts/lib.sh; . scripts/services.sh; SERVICES_DIR=$(mktemp -d);
      trap "services_stop; rm -rf $SERVICES_DIR" EXIT; p=$(free_port 54379); postgres_start $p;
      r=$(free_port 63789); redis_start $r; export DATABASE_URL=postgres://muster:muster@127.0.0.1:$p/muster;
      export REDIS_URL=redis://127.0.0.1:$r/0; .venv/bin/python bench/live.py'

(``postgres_start`` caps the cluster at 50 connections: ``--workers`` x ``--pool-size`` plus the
bench's own few must stay under it.) The last line reads ``live: tables 50, phones 150, update
p50 X ms p95 Y ms, idle cpu Z %, flat-out A actions/s, server cpu per action C ms, errors E``
(update at the live rate; C: the server's CPU seconds during the flat-out phase divided by the
actions applied in it; with ``--computers N`` it ends ``, with N computers update p95 W ms``), with
the flat-out action latency just above it and, with computers, a ``computers:`` line with the
ratios. The server's CPU (bench/live_server.py's CpuMeter, psutil) is its process with all its
threads and, in the PostgreSQL mode, its children (uvicorn's server processes); embedded, its
children are the computer pool, counted apart as "computers". Each phase's line above ends with its
CPU per action (a phase with actions): the server's and, in the PostgreSQL mode, PostgreSQL's.

``--profile FILE`` (either mode; ``--workers`` is then 1: uvicorn's worker processes would not be
profiled) runs the server under bench/profiled.py, which profiles EVERY thread of its process (the
event loop, a2wsgi's HTTP threads, asgiref's executors, ...) by each thread's CPU time. The bench
starts the profile afresh when the idle phase ends and the server writes FILE (pstats) and
FILE.threads.json when it stops; the report then shows where the server's CPU went in the phases
with actions (bench/live_profile.py): by category of each function's file, as a share and in ms
per action applied, by thread family, and the top functions by cumulative time in the HTTP threads.
The profiler slows the server (a clock read per call and return): compare its categories, not its
actions/s, with an unprofiled run.
"""

from __future__ import annotations

import os

os.environ.setdefault("LOCUST_SKIP_URLLIB3_PATCH", "1")
import locust  # noqa: E402,F401  (first: gevent's monkey patching, before any socket or thread exists)

# isort: split
import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
import gevent.lock  # noqa: E402
import gevent.queue  # noqa: E402
import websocket  # noqa: E402  (websocket-client)
from locust import User, constant, task  # noqa: E402
from locust.env import Environment  # noqa: E402
from locust.exception import StopUser  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from harness import free_port, open_army_battle, wait_for_server  # noqa: E402
from live_computers import Computers  # noqa: E402
from live_report import report  # noqa: E402
from live_server import (  # noqa: E402
    CpuMeter,
    StateReader,
    client_environment,
    nice_values,
    require_services,
    server_command,
    server_environment,
    stop_server,
    worker_command,
    write_settings,
)

KEY_RE = re.compile(rb'data-key="([^"]+)"')
VERSION_RE = re.compile(rb'data-version="(\d+)"')
STATUS_RE = re.compile(rb'data-status="([a-z_]+)"')
CSRF_INPUT_RE = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
GM_PASSWORD = "bench-live-gm-password"
FOLLOW_TIMEOUT = 10.0  # a phone has this long to open its battle's new link
DRAIN_TIMEOUT = 10.0  # after a phase, the renders still owed have this long to arrive
RECV_TIMEOUT = 1.0  # a phone looks up from its socket this often (stop, new battle)


def key_version(key: str) -> int:
    """A table key is ``<version>`` or ``<version>-abandoned`` (tabletop/viewers.py)."""
    return int(key.split("-", 1)[0])


PUSH_KEY_RE = re.compile(r'\{"key": "([^"\\]+)"')


def read_push(message: str) -> dict:
    """A push is ``{"key": K}`` or ``{"key": K, "html": "..."}``, the key first (muster/live.py). The phone
    reads the key without decoding the region (about 20 KB of JSON a message: decoding it took most of a
    core at flat-out, on the two cores the server needs); a whole message is still checked to be JSON's
    ending. Anything else is decoded whole, and refused as the browser would refuse it."""
    match = PUSH_KEY_RE.match(message)
    if match is None or not message.endswith("}"):
        pushed = json.loads(message)
        key_version(pushed["key"])
        return pushed
    key_version(match.group(1))
    if message.startswith(', "html": "', match.end()):
        return {"key": match.group(1), "html": True}
    return json.loads(message)


def region_key(content: bytes) -> str | None:
    """The key of a live region: ``data-key`` if the page has it, else built from version and status."""
    match = KEY_RE.search(content)
    if match:
        return match.group(1).decode()
    version = VERSION_RE.search(content)
    if version is None:
        return None
    status = STATUS_RE.search(content)
    abandoned = status is not None and status.group(1) == b"abandoned"
    return f"{version.group(1).decode()}-abandoned" if abandoned else version.group(1).decode()


# --- the battles -----------------------------------------------------------------------------------


class Pending:
    """An action posted: which phones still owe a render at least ``version`` new."""

    __slots__ = ("version", "generation", "started", "phase", "waiting")

    def __init__(self, version: int, generation: int, started: float, phase: str, phones: set):
        self.version, self.generation, self.started, self.phase = version, generation, started, phase
        self.waiting = set(phones)


class Battle:
    """One battle slot: its current table, its three phones and the renders they still owe."""

    def __init__(self, slot: int, run: Run):
        self.slot, self.run = slot, run
        self.table_id, self.tokens, self.generation = 0, [], 0
        self.phones: list = []
        self.pending: list[Pending] = []
        self.followed = gevent.event.Event()  # every phone is on the current table
        self.joined: set = set()

    def take(self, table_id: int, tokens: list[str]) -> None:
        self.table_id, self.tokens = table_id, tokens
        self.generation += 1
        self.joined = set()
        self.followed.clear()
        for phone in self.phones:
            phone.interrupt()

    def phone_joined(self, phone, generation: int) -> None:
        if generation == self.generation:
            self.joined.add(phone.number)
            if len(self.joined) >= len(self.phones):
                self.followed.set()

    def expect(self, version: int, started: float, phase: str) -> Pending:
        pending = Pending(version, self.generation, started, phase, {p.number for p in self.phones})
        self.pending.append(pending)
        return pending

    def cancel(self, pending: Pending) -> None:
        if pending in self.pending:
            self.pending.remove(pending)

    def rendered(self, phone, generation: int, version: int) -> None:
        """``phone`` now shows ``version`` of this slot's table of ``generation``."""
        if not self.pending:
            return
        now = time.perf_counter()
        for pending in list(self.pending):
            if pending.generation == generation and pending.version <= version:
                pending.waiting.discard(phone.number)
                if not pending.waiting:
                    self.pending.remove(pending)
                    self.run.stats.update(pending.phase, now - pending.started)

    def settled(self, timeout: float) -> bool:
        """Wait (bounded) until every render owed has arrived."""
        deadline = time.perf_counter() + timeout
        while self.pending and time.perf_counter() < deadline:
            gevent.sleep(0.01)
        return not self.pending


class Stats:
    def __init__(self):
        self.updates: dict[str, list[float]] = {}
        self.actions: dict[str, list[float]] = {}
        self.action_window: dict[str, tuple[float, float]] = {}
        self.fetches: dict[int, int] = {}
        self.fetch_seconds: list[float] = []
        self.pushes = 0
        self.rendered_pushes = 0  # pushes that carried the phone's render (nothing fetched)
        self.errors: dict[str, int] = {}
        self.error_examples: list[str] = []

    def update(self, phase: str, seconds: float) -> None:
        self.updates.setdefault(phase, []).append(seconds)

    def action(self, phase: str, seconds: float) -> None:
        self.actions.setdefault(phase, []).append(seconds)

    def error(self, reason: str, detail: str = "") -> None:
        self.errors[reason] = self.errors.get(reason, 0) + 1
        if detail and len(self.error_examples) < 5:
            self.error_examples.append(f"{reason}: {detail[:200]}")

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())


class Http:
    """One keep-alive connection with a cookie jar (gevent-friendly after the monkey patching)."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        """(status, body); reconnects once when the server closed an idle keep-alive connection."""
        all_headers = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=all_headers)
                response = self.conn.getresponse()
                content = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
                continue
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            if (response.getheader("Connection") or "").lower() == "close":
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            return response.status, content
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


class Run:
    """What the phones, the actors and the main greenlet share."""

    def __init__(self, port: int):
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.stats = Stats()
        self.battles: list[Battle] = []
        self.stopping = False
        self.phase = "connect"
        self.connected = 0
        self.all_connected = gevent.event.Event()
        self.expected_phones = 0


class Phone(User):
    """A seat's phone: its page, its push socket, and a fetch of its own view on every newer key."""

    wait_time = constant(0)
    shared: Run = None  # set before the runner starts
    numbers = iter(())

    def __init__(self, environment):
        super().__init__(environment)
        self.number = next(Phone.numbers)
        battles = Phone.shared.battles
        self.battle = battles[self.number % len(battles)]
        self.seat = (self.number // len(battles)) % 2
        self.battle.phones.append(self)
        self.ws = None
        self.http = Http(Phone.shared.port)
        self.counted = False

    def interrupt(self) -> None:
        """The battle moved to a new table: stop waiting on the old socket."""
        ws = self.ws
        if ws is not None and ws.sock is not None:
            try:
                ws.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    @task
    def life(self):
        run, battle = Phone.shared, self.battle
        try:
            while not run.stopping:
                generation, token = battle.generation, battle.tokens[self.seat]
                if not self.follow(run, battle, generation, token):
                    gevent.sleep(0.5)
                    continue
                self.listen(run, battle, generation, token)
        finally:
            self.close()
        raise StopUser  # stopped: without it the runner calls the task again at once, round and round

    def follow(self, run: Run, battle: Battle, generation: int, token: str) -> bool:
        """Open the seat's page and its push socket; fetch at once if the push is newer than the page."""
        try:
            status, content = self.http.request("GET", f"/play/{token}/")
        except (OSError, http.client.HTTPException) as error:
            run.stats.error("seat page failed", repr(error))
            return False
        key = region_key(content) if status == 200 else None
        if key is None:
            run.stats.error(f"seat page HTTP {status}", content[:200].decode(errors="replace"))
            return False
        self.key = key
        try:
            # The browser checks a frame's UTF-8; websocket-client does it in pure Python, which took a third
            # of the phones' CPU (20 KB a push): the server is what is measured, not this check.
            self.ws = websocket.create_connection(
                f"ws://127.0.0.1:{run.port}/ws/play/{token}/", origin=run.origin, timeout=10,
                enable_multithread=False, skip_utf8_validation=True,
            )
            self.ws.settimeout(RECV_TIMEOUT)
            first = json.loads(self.ws.recv())
            key_version(first["key"])
        except (OSError, websocket.WebSocketException, ValueError, KeyError) as error:
            if battle.generation == generation and not run.stopping:
                run.stats.error("websocket refused", repr(error))
            self.close_socket()
            return False
        if not self.counted:
            self.counted = True
            run.connected += 1
            if run.connected >= run.expected_phones:
                run.all_connected.set()
        battle.rendered(self, generation, key_version(self.key))
        battle.phone_joined(self, generation)
        self.receive(run, battle, generation, token, first)
        return True

    def listen(self, run: Run, battle: Battle, generation: int, token: str) -> None:
        try:
            while not run.stopping and battle.generation == generation:
                try:
                    message = self.ws.recv()
                except websocket.WebSocketTimeoutException:
                    continue
                except (OSError, websocket.WebSocketException) as error:
                    if battle.generation == generation and not run.stopping:
                        run.stats.error("websocket dropped", repr(error))
                    return
                if not message:  # closed by the server
                    if battle.generation == generation and not run.stopping:
                        run.stats.error("websocket dropped", "closed by the server")
                    return
                run.stats.pushes += 1
                try:
                    pushed = read_push(message)
                except (ValueError, KeyError, TypeError, AttributeError) as error:
                    run.stats.error("push unreadable", f"{error!r}: {message[:100]!r}")
                    continue
                self.receive(run, battle, generation, token, pushed)
        finally:
            self.close_socket()

    def receive(self, run: Run, battle: Battle, generation: int, token: str, pushed: dict) -> None:
        """A push newer than the phone's render: with ``html`` it is the phone's new render itself (its key
        is the message's ``key``: counted as received, nothing fetched); with only ``key`` the phone
        fetches its view, as the browser does."""
        if key_version(pushed["key"]) <= key_version(self.key):
            return
        if "html" in pushed:
            run.stats.rendered_pushes += 1
            self.key = pushed["key"]
            battle.rendered(self, generation, key_version(self.key))
        else:
            self.fetch(run, battle, generation, token)

    def fetch(self, run: Run, battle: Battle, generation: int, token: str) -> None:
        """The browser's fetch on a push: the live region newer than ``self.key``, or 204."""
        started = time.perf_counter()
        try:
            status, content = self.http.request(
                "GET", f"/play/{token}/poll/?v={urllib.parse.quote(self.key)}", headers={"HX-Request": "true"}
            )
        except (OSError, http.client.HTTPException) as error:
            run.stats.error("fetch failed", repr(error))
            return
        run.stats.fetch_seconds.append(time.perf_counter() - started)
        run.stats.fetches[status] = run.stats.fetches.get(status, 0) + 1
        if status == 204:
            return
        key = region_key(content) if status == 200 else None
        if key is None:
            run.stats.error(f"fetch HTTP {status}", content[:200].decode(errors="replace"))
            return
        self.key = key
        battle.rendered(self, generation, key_version(key))

    def close_socket(self) -> None:
        ws, self.ws = self.ws, None
        if ws is not None:
            try:
                ws.close(timeout=1)
            except (OSError, websocket.WebSocketException):
                pass

    def close(self) -> None:
        self.close_socket()
        self.http.close()


class Tables:
    """The campaign, its GM, and fresh battles: made by one greenlet with the ORM, ahead of need."""

    def __init__(self, seed: int, spares: int):
        from django.contrib.auth import get_user_model

        from campaign.services import campaign_create

        stamp = int(time.time() * 1000)
        self.gm = get_user_model().objects.create_user(f"bench-live-gm-{stamp}", password=GM_PASSWORD)
        self.campaign = campaign_create(name="Live", slug=f"live-{stamp}", gm=self.gm)
        self.opened = 0
        self.spares = gevent.queue.Queue(maxsize=max(1, spares))
        self.maker = None

    def open(self, warm_actions: int = 0) -> tuple[int, list[str]]:
        """A new battle, ``warm_actions`` random actions in (fewer if it ends): (table id, seat tokens)."""
        for _ in range(20):
            self.opened += 1
            table = open_army_battle(self.campaign, self.gm, self.opened, f"Live battle {self.opened}", warm_actions)
            if table is not None:
                return table.pk, [seat.token for seat in table.seats.order_by("index")]
        raise RuntimeError("twenty battles in a row ended while warming")

    def start_maker(self) -> None:
        def make():
            from django.db import connection

            try:
                while True:
                    self.spares.put(self.open())  # blocks while the queue is full
            finally:
                connection.close()

        self.maker = gevent.spawn(make)

    def next(self) -> tuple[int, list[str]]:
        return self.spares.get(timeout=30)

    def stop(self) -> None:
        if self.maker is not None:
            self.maker.kill(block=True, timeout=5)


def gm_login(port: int, username: str) -> Http:
    """The GM's tablet: a session logged in through the login form."""
    gm = Http(port)
    _, content = gm.request("GET", "/accounts/login/")
    token = CSRF_INPUT_RE.search(content).group(1).decode()
    status, content = gm.request(
        "POST", "/accounts/login/", {"username": username, "password": GM_PASSWORD, "csrfmiddlewaretoken": token}
    )
    if status != 302 or "sessionid" not in gm.cookies:
        raise SystemExit(f"the GM could not log in ({status}): {content[:300]!r}")
    return gm


class Actor:
    """Plays one battle: the next legal action from the database, POSTed like a phone's button."""

    def __init__(self, run: Run, battle: Battle, tables: Tables, reader: StateReader):
        self.run, self.battle, self.tables, self.reader = run, battle, tables, reader
        self.phone = Http(run.port)
        self.gm: Http | None = None
        self.csrf = ""
        self.rng = random.Random(battle.slot)
        self.applied = self.finished = self.gm_actions = 0

    def take_seat_page(self) -> None:
        """Open a seat page with its link alone; keep the CSRF cookie and token (good for any seat)."""
        status, content = self.phone.request("GET", f"/play/{self.battle.tokens[0]}/")
        if status != 200:
            raise SystemExit(f"the seat page answered {status}: {content[:300]!r}")
        match = CSRF_INPUT_RE.search(content)
        self.csrf = match.group(1).decode() if match else self.phone.cookies.get("csrftoken", "")
        if not self.csrf:
            raise SystemExit("the seat page set no CSRF cookie and has no csrfmiddlewaretoken")

    def gm_session(self) -> Http:
        """The GM's tablet (only when the engine waits on the GM)."""
        if self.gm is None:
            self.gm = gm_login(self.run.port, self.tables.gm.username)
        return self.gm

    def play(self, phase: str, deadline: float, interval: float, first_at: float) -> None:
        """Act until ``deadline``: every ``interval`` seconds from ``first_at``, or back to back (0)."""
        next_at = first_at
        while not self.run.stopping:
            if interval:
                delay = min(next_at, deadline) - time.perf_counter()
                if delay > 0:
                    gevent.sleep(delay)
                next_at += interval
            if time.perf_counter() >= deadline or self.run.stopping:
                return
            self.play_one(phase)

    def play_one(self, phase: str) -> None:
        from tabletop.engines import army
        from tabletop.engines.kernel import GM

        battle = self.battle
        state, version = self.reader.read(battle.table_id)
        if army.outcome(state) is not None:  # over: a fresh battle in this slot, its phones follow
            self.finished += 1
            if not battle.settled(DRAIN_TIMEOUT):
                self.run.stats.error("update never arrived", f"battle {battle.table_id} before its replacement")
                battle.pending.clear()
            battle.take(*self.tables.next())
            if not battle.followed.wait(FOLLOW_TIMEOUT):
                self.run.stats.error("phones did not follow a new battle", f"table {battle.table_id}")
            state, version = self.reader.read(battle.table_id)
        seat = army.to_act(state)[0]
        action = self.rng.choice([a for a in army.legal_actions(state) if a["seat"] == seat])
        data = {
            "action": json.dumps(action),
            "version": version,
            "client_action_id": f"live-{battle.table_id}-{version}",
        }
        if seat == GM:
            client, url = self.gm_session(), f"/c/{self.tables.campaign.slug}/tables/{battle.table_id}/act/"
            data["as_seat"] = GM
            self.gm_actions += 1
        else:
            client, url = self.phone, f"/play/{battle.tokens[seat]}/act/"
        data["csrfmiddlewaretoken"] = self.csrf if client is self.phone else client.cookies.get("csrftoken", "")
        headers = {"HX-Request": "true", "X-CSRFToken": data["csrfmiddlewaretoken"]}
        started = time.perf_counter()
        pending = battle.expect(version + 1, started, phase)
        try:
            status, content = client.request("POST", url, data, headers)
        except (OSError, http.client.HTTPException) as error:
            battle.cancel(pending)
            self.run.stats.error("action failed", repr(error))
            return
        seconds = time.perf_counter() - started
        if status != 200:
            battle.cancel(pending)
            self.run.stats.error(f"action HTTP {status}", content[:200].decode(errors="replace"))
            return
        self.applied += 1
        self.run.stats.action(phase, seconds)

    def close(self) -> None:
        self.phone.close()
        if self.gm:
            self.gm.close()


# --- the run -----------------------------------------------------------------------------------------


def phase(run: Run, actors: list[Actor], name: str, seconds: float, rate: float) -> float:
    """All actors play for ``seconds`` (``rate`` actions/s in all, evenly spread; 0: flat out), then the
    renders owed drain. Returns the phase's length."""
    run.phase = name
    started = time.perf_counter()
    deadline = started + seconds
    interval = len(actors) / rate if rate > 0 else 0.0
    greenlets = [
        gevent.spawn(actor.play, name, deadline, interval, started + interval * k / len(actors))
        for k, actor in enumerate(actors)
    ]
    gevent.joinall(greenlets, timeout=seconds + 60)
    length = time.perf_counter() - started
    for greenlet in greenlets:
        if not greenlet.dead:
            greenlet.kill(block=False)
            run.stats.error("actor stuck past its phase")
        elif greenlet.exception is not None:
            run.stats.error("actor crashed", repr(greenlet.exception))
    drain = time.perf_counter() + DRAIN_TIMEOUT
    for battle in run.battles:
        if not battle.settled(max(0.0, drain - time.perf_counter())):
            missing = sum(len(p.waiting) for p in battle.pending)
            run.stats.error("update never arrived", f"table {battle.table_id}: {missing} renders")
            battle.pending.clear()
    return length


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedded", action="store_true", help="serve as make run does: SQLite, one process")
    parser.add_argument("--computers", type=int, default=0, help="computer decisions wanted the whole time")
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--phones", type=int, default=150, help="phones holding a websocket (3 per battle)")
    parser.add_argument("--idle", type=float, default=30, help="seconds measuring idle CPU")
    parser.add_argument("--warmup", type=float, default=3, help="seconds at the live rate before measuring")
    parser.add_argument("--live", type=float, default=30, help="seconds at the live rate")
    parser.add_argument("--live-rate", type=float, default=10, help="actions per second in all")
    parser.add_argument("--flat-out", type=float, default=25, help="seconds of actors back to back")
    parser.add_argument("--warm-actions", type=int, default=4, help="actions played in each battle before the run")
    parser.add_argument("--spares", type=int, default=20, help="fresh battles made ahead")
    parser.add_argument("--workers", type=int, default=2, help="server processes (PostgreSQL mode)")
    parser.add_argument("--threads", type=int, default=10, help="WEB_THREADS: HTTP threads of each process")
    parser.add_argument("--pool-size", type=int, default=0, help="DATABASE_POOL_SIZE of each (default threads + 2)")
    parser.add_argument("--profile", help="profile every thread of one server process (--workers 1) into this file")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    require_services(args.embedded)
    args.pool_size = args.pool_size or args.threads + 2
    if args.embedded:
        args.workers = 1
    if args.profile:
        args.workers = 1
        args.profile = str(Path(args.profile).resolve())
    if args.battles < 1 or args.phones < args.battles or args.workers < 1 or args.computers < 0:
        raise SystemExit("need at least one battle, a phone per battle and one worker")
    for seconds in (args.idle, args.warmup, args.live, args.flat_out):
        if not 0 <= seconds <= 600:
            raise SystemExit("each phase lasts 0-600 s")
    with tempfile.TemporaryDirectory(prefix="muster-live-") as temp_dir:
        write_settings(temp_dir)
        port = free_port()
        env = server_environment(temp_dir, args, port)
        client_environment(temp_dir, env)
        redis_url = os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        if not args.embedded:  # scripts/serve.py collects them itself
            call_command("collectstatic", verbosity=0, interactive=False)
            os.environ["REDIS_URL"] = redis_url  # for CpuMeter only: settings are read
        bench(args, env, port, Path(temp_dir))


def bench(args, env: dict, port: int, temp_dir: Path) -> None:
    from django.db import connection

    run = Run(port)
    started_setup = time.perf_counter()
    tables = Tables(args.seed, args.spares)
    for slot in range(args.battles):
        battle = Battle(slot, run)
        battle.table_id, battle.tokens = tables.open(warm_actions=args.warm_actions)
        run.battles.append(battle)
    for _ in range(args.spares):
        tables.spares.put(tables.open())
    setup_seconds = time.perf_counter() - started_setup
    connection.close()  # SQLite: no transaction or lock of the bench's held while the server starts
    log_path = temp_dir / "server.log"
    log = open(log_path, "wb")
    process = subprocess.Popen(
        server_command(args, port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    worker = None
    worker_log = open(temp_dir / "worker.log", "wb")
    if args.computers and not args.embedded:  # with Redis the server sends computer turns to a worker
        worker = subprocess.Popen(
            worker_command(), cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    environment = runner = reader = computers = None
    actors: list[Actor] = []
    shares: dict[str, dict[str, float]] = {}
    lengths: dict[str, float] = {}
    moves: dict[str, int] = {}
    niceness: dict[str, list[int]] = {"server": nice_values(process.pid)}
    profiled = None  # (actions applied, the server's CPU seconds) while the profile ran
    main_greenlet = gevent.getcurrent()
    gevent.signal_handler(signal.SIGTERM, lambda: main_greenlet.throw(KeyboardInterrupt))
    try:
        wait_for_server(port, process, log_path, timeout=180)
        meter = CpuMeter(process.pid, worker.pid if worker else None, args.embedded)
        reader = StateReader(env["DATABASE_URL"] if args.embedded else os.environ["DATABASE_URL"])
        actors = [Actor(run, battle, tables, reader) for battle in run.battles]
        for actor in actors:  # templates warm, CSRF in hand
            actor.take_seat_page()
        tables.start_maker()

        # Phones: locust users, each on its seat's page and push socket.
        Phone.shared, Phone.numbers = run, iter(range(args.phones))
        run.expected_phones = args.phones
        environment = Environment(user_classes=[Phone], events=locust.events)
        runner = environment.create_local_runner()
        connect_started = time.perf_counter()
        runner.start(args.phones, spawn_rate=50)
        if not run.all_connected.wait(60):
            run.stats.error("phones not connected within 60 s", f"{run.connected} of {args.phones}")
        lengths["connect"] = time.perf_counter() - connect_started
        gevent.sleep(2)  # the connection burst settles

        before = meter.sample()
        gevent.sleep(args.idle)
        shares["idle"] = CpuMeter.share(before, meter.sample(), args.idle)
        if args.profile:  # the profile counts from here: the phases with actions (bench/profiled.py)
            process.send_signal(signal.SIGUSR1)
            profile_from = meter.sample()

        suffixes = [""]
        if args.computers:
            suffixes.append("+computers")
        for suffix in suffixes:
            if suffix:  # the same phases again, with the computers thinking all along
                computers = Computers(run, tables, reader, gm_login(port, tables.gm.username), args.computers)
                computers.start()
                deadline = time.perf_counter() + 60
                while computers.moves() < args.computers and time.perf_counter() < deadline:
                    gevent.sleep(0.5)  # the first decisions pay the pool's (or the worker's) start
            if args.warmup:
                phase(run, actors, "warmup", args.warmup, args.live_rate)
            for name, seconds, rate in (("live", args.live, args.live_rate), ("flat-out", args.flat_out, 0)):
                before, played = meter.sample(), computers.moves() if computers else 0
                lengths[name + suffix] = phase(run, actors, name + suffix, seconds, rate)
                shares[name + suffix] = CpuMeter.share(before, meter.sample(), lengths[name + suffix])
                if computers:
                    moves[name + suffix] = computers.moves() - played
                    niceness[name + suffix] = nice_values(worker.pid if worker else process.pid)
        if args.profile:
            profiled = (sum(map(len, run.stats.actions.values())), meter.sample()["server"] - profile_from["server"])
        if process.poll() is not None:
            run.stats.error("the server died", log_path.read_text()[-500:])
    except KeyboardInterrupt:
        print("interrupted: stopping", file=sys.stderr)
        raise
    finally:
        run.stopping = True
        try:
            if runner is not None:
                with gevent.Timeout(RECV_TIMEOUT + 10, False):  # phones return within RECV_TIMEOUT
                    runner.quit()
                for greenlet in list(runner.user_greenlets):
                    greenlet.kill(block=False)
            tables.stop()
            if computers is not None:
                computers.stop()
            for actor in actors:
                actor.close()
            if reader is not None:
                reader.close()
        finally:
            if worker is not None:
                stop_server(worker)
            stop_server(process)
            log.close()
            worker_log.close()
            connection.close()
    report(args, run, actors, tables, computers, shares, lengths, moves, niceness, setup_seconds, log_path, profiled)


if __name__ == "__main__":
    main()
