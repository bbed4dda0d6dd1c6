"""A real server started the way ``make run`` starts it (scripts/serve.py), for the serving tests.

It listens on 127.0.0.1 (the GM's own browser) and 127.0.0.2 (the venue address phones use), on a
free port, with its own SQLite file, static root and secret key file in a temporary directory, so
it never touches the project's database and runs alongside the PostgreSQL suite. Traffic stays on
loopback. ``seed`` runs tests/venue_seed.py against the same database file.

``environment`` adds to the server's environment (e.g. ``REDIS_URL``, ``WEB_CONCURRENCY``) and
``database`` names another SQLite file, so two servers can share one database (start them one
after the other: each migrates it first). ``Client.websocket`` opens a page's push connection.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENUE_HOST = "127.0.0.2"
GM_HOST = "127.0.0.1"


def free_port(*hosts: str) -> int:
    """A port free on every one of ``hosts``."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind((hosts[0], 0))
            port = probe.getsockname()[1]
        if all(_bindable(host, port) for host in hosts[1:]):
            return port
    raise RuntimeError(f"no port free on all of {hosts}")


def _bindable(host: str, port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


@dataclass
class VenueServer:
    directory: Path
    port: int = 0
    process: subprocess.Popen | None = None
    env: dict = field(default_factory=dict)
    environment: dict = field(default_factory=dict)  # added to the server's environment
    database: Path | None = None  # the SQLite file; default db.sqlite3 in ``directory``

    @property
    def database_path(self) -> Path:
        return self.database or self.directory / "db.sqlite3"

    @property
    def output_path(self) -> Path:
        return self.directory / "serve.out"

    @property
    def output(self) -> str:
        return self.output_path.read_text(errors="replace")

    def start(self, timeout: float = 90) -> VenueServer:
        self.port = free_port(GM_HOST, VENUE_HOST)
        env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "REDIS_URL"}}
        env.update(
            MUSTER_HOST=VENUE_HOST,
            MUSTER_BIND=f"{GM_HOST},{VENUE_HOST}",
            MUSTER_PORT=str(self.port),
            MUSTER_SECRET_KEY_FILE=str(self.directory / "secret_key"),
            DATABASE_URL=f"sqlite:///{self.database_path}",
            STATIC_ROOT=str(self.directory / "static"),
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        env.update(self.environment)
        env.pop("DJANGO_SETTINGS_MODULE", None)
        self.env = env
        with open(self.output_path, "wb") as output:
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "scripts" / "serve.py")],
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"scripts/serve.py exited ({self.process.returncode}):\n{self.output[-3000:]}")
            try:
                if Client(VENUE_HOST, self.port).request("GET", "/healthz").status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s:\n{self.output[-3000:]}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # uvicorn closes its sockets (its supervisor stops its processes)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def seed(self, *args: str) -> dict:
        """Run tests/venue_seed.py against this server's database; its JSON answer."""
        env = {**self.env, "SECRET_KEY": "seed-only", "DEBUG": "0", "SECURE_SSL_REDIRECT": "0"}
        done = subprocess.run(
            [sys.executable, str(ROOT / "tests" / "venue_seed.py"), *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            raise RuntimeError(f"tests/venue_seed.py failed:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    def query(self, sql: str, params=()) -> list[tuple]:
        """Read the server's SQLite file directly (read-only)."""
        import sqlite3

        connection = sqlite3.connect(f"file:{self.database_path}?mode=ro", uri=True, timeout=30)
        try:
            return connection.execute(sql, params).fetchall()
        finally:
            connection.close()


@dataclass
class Reply:
    status: int
    body: str
    headers: dict


class Client:
    """One device: a keep-alive connection to ``host`` with its own cookie jar."""

    def __init__(self, host: str, port: int, host_header: str | None = None):
        self.host, self.port = host, port
        self.host_header = host_header or f"{host}:{port}"
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection(host, port, timeout=60)

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None) -> Reply:
        all_headers = {"Host": self.host_header, **(headers or {})}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers.setdefault("Origin", f"http://{self.host_header}")
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers=all_headers)
                response = self.connection.getresponse()
                content = response.read().decode(errors="replace")
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()  # an idle keep-alive connection the server closed: reconnect once
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt == 2:
                    raise
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return Reply(response.status, content, {k.lower(): v for k, v in response.getheaders()})

    def csrf_token(self) -> str:
        return self.cookies.get("csrftoken", "")

    def log_in(self, username: str, password: str) -> None:
        self.request("GET", "/accounts/login/")
        reply = self.request(
            "POST",
            "/accounts/login/",
            {"username": username, "password": password, "csrfmiddlewaretoken": self.csrf_token()},
        )
        if reply.status != 302 or "sessionid" not in self.cookies:
            raise AssertionError(f"{username} could not log in ({reply.status}): {reply.body[:300]}")

    def websocket(self, path: str, timeout: float = 10):
        """This device's push connection to ``path`` (``/ws/...``): sent with the page's own origin,
        which the server checks against its allowed hosts, and this device's cookies (its login).
        A ``websockets.sync.client.ClientConnection``; the server's refusal raises ``InvalidStatus``."""
        from websockets.sync.client import connect

        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else None
        return connect(
            f"ws://{self.host}:{self.port}{path}",
            origin=f"http://{self.host_header}",
            additional_headers=headers,
            open_timeout=timeout,
            close_timeout=timeout,
            compression=None,
            proxy=None,
            legacy=True,  # the connection itself (usable in a with block too)
        )

    def close(self) -> None:
        self.connection.close()
