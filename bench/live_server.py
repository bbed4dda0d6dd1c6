"""bench/live.py's server, in either of its two modes: how it is started and stopped, where its
database is read, and whose CPU time is counted.

* PostgreSQL + Redis (the default): ``uvicorn muster.asgi:application`` with ``--workers`` processes
  sharing their pushes through the Redis channel layer; with ``--computers``, a Celery worker
  (``celery -A muster worker``, as docs/operations.md starts one) decides the computer turns.
* ``--embedded``: ``scripts/serve.py`` itself, exactly as ``make run`` starts it (SQLite, the in-process
  channel layer, one process, no Redis: computer turns in its own spawn pool), on a throwaway SQLite
  file and a loopback port.

The server and the worker each run in a session of their own (stopped as a whole), as separate
services would: where the kernel groups by session (autogroup), each is one scheduler group, weighed
against the others before any nice value counts; the server and its spawn pool share one
(ruling BOT35). One run on a loaded machine with the worker in the bench's session measured worse,
not better (a likely reason: a group that always has a search to run keeps no head start when a
page's request wakes up).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import gevent.queue
import psutil
import psycopg
from django.db import connection
from harness import venue_environment

ROOT = Path(__file__).resolve().parent.parent
UVICORN = ROOT / ".venv" / "bin" / "uvicorn"
CELERY = ROOT / ".venv" / "bin" / "celery"
PROFILED = ROOT / "bench" / "profiled.py"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
SETTINGS = "bench_live_settings"


def require_services(embedded: bool) -> None:
    """PostgreSQL and Redis on loopback (not needed, and not used, when ``embedded``)."""
    if embedded:
        return
    url = os.environ.get("DATABASE_URL", "")
    redis = os.environ.get("REDIS_URL", "")
    problems = []
    if not url.startswith(("postgres://", "postgresql://")):
        problems.append("DATABASE_URL=postgres://user:pass@127.0.0.1:port/db (a throwaway database)")
    if not redis.startswith("redis://"):
        problems.append("REDIS_URL=redis://127.0.0.1:port/0 (the channel layer the server processes share)")
    if problems:
        raise SystemExit("bench/live.py needs " + " and ".join(problems) + " (or --embedded); see its docstring.")
    for value in (url, redis):
        host = urllib.parse.urlsplit(value).hostname
        if host not in LOOPBACK:
            raise SystemExit(f"bench/live.py runs on loopback only, not {host!r}")


def write_settings(temp_dir: str) -> None:
    """The server's settings (STATIC_ROOT in the temporary directory) and the bench's (no channel
    layer: the tables it opens and warms are watched by nobody yet)."""
    static_root = Path(temp_dir) / "static"
    (Path(temp_dir) / f"{SETTINGS}.py").write_text(
        f"from muster.settings import *  # noqa: F403\n\nSTATIC_ROOT = {str(static_root)!r}\n"
    )
    (Path(temp_dir) / "bench_live_client_settings.py").write_text(
        f"from {SETTINGS} import *  # noqa: F403\n\nCHANNEL_LAYERS = {{}}\n"
    )


def server_environment(temp_dir: str, args, port: int) -> dict:
    """The server's environment: DEBUG off, loopback only; embedded, what scripts/serve.py reads."""
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="127.0.0.1",
        PYTHONPATH=os.pathsep.join([temp_dir, str(ROOT)]),
        LOG_LEVEL="WARNING",
        WEB_THREADS=str(args.threads),
    )
    env.setdefault("SECRET_KEY", "bench-only-secret-not-for-production")
    env.pop("MUSTER_ASGI", None)  # muster/asgi.py (or scripts/serve.py) sets it in the server
    if args.embedded:
        for name in ("REDIS_URL", "DJANGO_SETTINGS_MODULE", "WEB_CONCURRENCY", "DATABASE_POOL_SIZE"):
            env.pop(name, None)
        env.update(venue_environment(temp_dir, port, Path(temp_dir) / "live.sqlite3"))
    else:
        env.update(DJANGO_SETTINGS_MODULE=SETTINGS, DATABASE_POOL_SIZE=str(args.pool_size))
    return env


def client_environment(temp_dir: str, env: dict) -> None:
    """This process: the server's database, but no Redis (no channel layer, no Celery broker)."""
    os.environ.update({k: env[k] for k in ("DEBUG", "SECURE_SSL_REDIRECT", "ALLOWED_HOSTS", "SECRET_KEY")})
    os.environ.update(DJANGO_SETTINGS_MODULE="bench_live_client_settings", LOG_LEVEL="WARNING")
    if "DATABASE_URL" in env:
        os.environ["DATABASE_URL"] = env["DATABASE_URL"]
    sys.path.insert(0, temp_dir)


def server_command(args, port: int) -> list[str]:
    """The server's command line; with ``args.profile``, run by bench/profiled.py (every thread profiled)."""
    profiled = [sys.executable, str(PROFILED), args.profile, "--"] if getattr(args, "profile", None) else []
    if args.embedded:  # what `make run` runs
        return [*(profiled or [sys.executable]), str(ROOT / "scripts" / "serve.py")]
    uvicorn = [
        "muster.asgi:application",
        "--host", "127.0.0.1", "--port", str(port),
        "--workers", str(args.workers),
        "--loop", "uvloop", "--http", "httptools",
        "--ws", "websockets-sansio", "--ws-per-message-deflate", "false",  # as scripts/serve.py
        "--ws-max-size", "4096",  # scripts/serve.py's WS_MAX_SIZE: pages send nothing
        "--ws-ping-interval", "20", "--ws-ping-timeout", "20",
        "--no-access-log", "--no-server-header", "--log-level", "warning",
        "--lifespan", "off", "--timeout-graceful-shutdown", "5", "--backlog", "2048",
    ]  # fmt: skip
    return [*profiled, str(UVICORN), *uvicorn]


def worker_command() -> list[str]:
    """A Celery worker as docs/operations.md starts one (prefork, a process per core)."""
    return [str(CELERY), "-A", "muster", "worker", "-l", "warning", "--without-gossip", "--without-mingle"]


def stop_server(process: subprocess.Popen) -> None:
    """SIGTERM (uvicorn's supervisor stops its workers), then SIGKILL to the server's own process group.
    Under bench/profiled.py, uvicorn raises SIGTERM again once it has shut down and the profiler's handler
    turns it into SystemExit: the profile is written before the process ends."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            print("the server did not stop within 60 s of SIGTERM: killed", file=sys.stderr)
    try:
        os.killpg(process.pid, signal.SIGKILL)  # its own session (start_new_session): children left behind
    except (ProcessLookupError, PermissionError):
        pass
    if process.poll() is None:
        process.wait(timeout=10)


class CpuMeter:
    """CPU seconds (user + system, every thread) of process trees: the server, a Celery worker,
    PostgreSQL, Redis, this bench. The server's figure is its process and, in the PostgreSQL mode, its
    children (uvicorn's server processes). ``embedded``: the server is one process, and its children
    are its computer pool, counted apart as "computers"."""

    def __init__(self, server_pid: int, worker_pid: int | None = None, embedded: bool = False):
        self.roots = {"server": server_pid}
        self.embedded = embedded
        if worker_pid:
            self.roots["worker"] = worker_pid
        for name in ("DATABASE_URL", "REDIS_URL"):
            url = os.environ.get(name, "")
            if url.startswith(("postgres", "redis")):
                pid = self.listening_pid(urllib.parse.urlsplit(url).port)
                if pid:
                    self.roots["postgres" if name == "DATABASE_URL" else "redis"] = pid

    @staticmethod
    def listening_pid(port: int | None) -> int | None:
        try:
            for conn in psutil.net_connections("tcp"):
                if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
                    return conn.pid
        except (psutil.AccessDenied, OSError):
            pass
        return None

    def sample(self) -> dict[str, float]:
        """CPU seconds so far of each tree (processes that exited since the last sample are lost)."""
        totals = {"bench": time.process_time(), "computers": 0.0}
        for name, pid in self.roots.items():
            totals.setdefault(name, 0.0)
            try:
                root = psutil.Process(pid)
                processes = [root, *root.children(recursive=True)]
            except psutil.Error:
                processes = []
            for process in processes:
                try:
                    times = process.cpu_times()
                except psutil.Error:
                    continue
                share = "computers" if name == "server" and self.embedded and process.pid != pid else name
                totals[share] += times.user + times.system
        return totals

    @staticmethod
    def share(before: dict, after: dict, seconds: float) -> dict[str, float]:
        """Share of one core of each tree between two samples."""
        return {name: (after[name] - before.get(name, after[name])) / seconds for name in after}


def nice_values(pid: int) -> list[int]:
    """The nice values of every thread of ``pid`` and its descendants (Linux: a nice value is per thread)."""
    values = set()
    try:
        processes = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return []
    for process in processes:
        for task in Path(f"/proc/{process.pid}/task").glob("*/stat"):
            try:
                values.add(int(task.read_text().rsplit(")", 1)[1].split()[16]))  # field 19: nice
            except (OSError, IndexError, ValueError):
                continue
    return sorted(values)


class StateReader:
    """A table's state, version and status straight from the database (PostgreSQL or the SQLite file,
    WAL: a read never waits for the server's writes): a few connections shared by every actor."""

    QUERY = "SELECT state, version, status FROM tabletop_table WHERE id = {}"

    def __init__(self, url: str, size: int = 3):
        self.connections = gevent.queue.Queue()
        self.all = []
        for _ in range(size):
            if url.startswith("sqlite:///"):
                conn, mark = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=20, isolation_level=None), "?"
            else:
                conn, mark = psycopg.connect(url, autocommit=True), "%s"
            self.all.append(conn)
            self.connections.put(conn)
        self.query = self.QUERY.format(mark)

    def row(self, table_id: int) -> tuple[dict, int, str]:
        conn = self.connections.get(timeout=30)
        try:
            row = conn.execute(self.query, (table_id,)).fetchone()
        finally:
            self.connections.put(conn)
        state = row[0] if isinstance(row[0], dict) else json.loads(row[0])
        return state, row[1], row[2]

    def read(self, table_id: int) -> tuple[dict, int]:
        state, version, _ = self.row(table_id)
        return state, version

    def close(self) -> None:
        for conn in self.all:
            conn.close()


def database_version(embedded: bool) -> str:
    if embedded:
        return f"SQLite {sqlite3.sqlite_version}"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = f"PostgreSQL {cursor.fetchone()[0]}"
    connection.close()
    redis = subprocess.run(["redis-server", "--version"], capture_output=True, text=True).stdout.split()
    return version + ", Redis " + next((w[2:] for w in redis if w.startswith("v=")), "?")


def describe(args) -> str:
    """The server line of the report."""
    profile = f", every thread profiled (bench/profiled.py) into {args.profile}" if args.profile else ""
    if args.embedded:
        return (f"scripts/serve.py as make run starts it: uvicorn, one process, {args.threads} HTTP threads, "
                f"SQLite, in-process channel layer, computer turns in its spawn pool{profile}")
    worker = ", computer turns on a Celery worker (prefork)" if args.computers else ""
    return (f"uvicorn (uvloop, httptools, websockets-sansio), {args.workers} worker(s), {args.threads} HTTP "
            f"threads and a database pool of {args.pool_size} each, channel layer Redis pub/sub{worker}{profile}")
