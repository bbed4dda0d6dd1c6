"""A real nginx in front of real web processes, for tests/test_deploy_nginx.py.

``render`` turns ``deploy/nginx/muster.conf`` (the file the docs show) into a test's copy: the
upstream servers, the listening ports, the certificate and the log on loopback and in the test's
directory, and nothing else. Each change must find its text exactly as often as it expects, so an
edit to the shipped file that the test no longer covers fails loudly instead of testing something
else. ``Nginx`` wraps it in a minimal main configuration and runs it in the foreground.

``WebProcess`` is one "web machine": ``uvicorn muster.asgi:application`` as the docs start it, on
127.0.0.1, trusting forwarded headers from 127.0.0.2 only, which stands for the proxy's machine
(nginx connects from there: ``proxy_bind`` in the main configuration). ``release_sources`` gives
one release its own stylesheet, which the test module's collectstatic then names by its own hash.

Traffic stays on loopback; every process is stopped by the fixture that started it.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from tests.venue_server import ROOT

NGINX = Path("/usr/sbin/nginx")
SHIPPED = ROOT / "deploy" / "nginx" / "muster.conf"
PROXY_HOST = "127.0.0.2"  # the proxy's machine: uvicorn's --forwarded-allow-ips
WEB_HOST = "127.0.0.1"


def render(text: str, changes: list[tuple[str, str, int]]) -> str:
    """``text`` with each (old, new, count) change made, each ``old`` found exactly ``count`` times."""
    for old, new, count in changes:
        found = text.count(old)
        if found != count:
            raise AssertionError(f"deploy/nginx/muster.conf holds {old!r} {found} times, not {count}: update the test")
        text = text.replace(old, new)
    return text


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, valid one day, and its key."""
    certificate, key = directory / "cert.pem", directory / "key.pem"
    if certificate.exists():  # the running nginx holds this one
        return certificate, key
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True, timeout=30,
    )
    return certificate, key


@dataclass
class Nginx:
    directory: Path
    upstreams: list[int]
    http_port: int
    https_port: int
    process: subprocess.Popen | None = None

    @property
    def access_log(self) -> Path:
        return self.directory / "access.log"

    @property
    def error_log(self) -> Path:
        return self.directory / "error.log"

    def write(self) -> Path:
        certificate, key = self_signed_certificate(self.directory)
        first, second = self.upstreams
        site = render(SHIPPED.read_text(), [
            ("server 10.0.0.5:8000;", f"server {WEB_HOST}:{first};", 1),
            ("server 10.0.0.6:8000;", f"server {WEB_HOST}:{second};", 1),
            ("listen 80;", f"listen 127.0.0.1:{self.http_port};", 1),
            ("listen 443 ssl;", f"listen 127.0.0.1:{self.https_port} ssl;", 1),
            ("    listen [::]:80;\n", "", 1),  # loopback only
            ("    listen [::]:443 ssl;\n", "", 1),
            ("/etc/letsencrypt/live/muster.example.org/fullchain.pem", str(certificate), 1),
            ("/etc/letsencrypt/live/muster.example.org/privkey.pem", str(key), 1),
            ("/var/log/nginx/muster.access.log", str(self.access_log), 2),
            # what the docs say to change when HTTPS listens on another port than 443
            ("return 301 https://$host$request_uri;", f"return 301 https://$host:{self.https_port}$request_uri;", 1),
        ])
        (self.directory / "muster.conf").write_text(site)
        temp = "\n".join(f"    {kind}_temp_path {self.directory / kind};" for kind in
                         ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # Run as root (CI is), nginx's workers would become "nobody", who cannot enter the test's
        # directory (mode 700) to spool a request body: they stay root then. As anyone else the
        # workers are that user anyway, and a user directive would only earn a warning.
        user = "user root;\n" if os.geteuid() == 0 else ""
        main = self.directory / "nginx.conf"
        main.write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {self.directory / 'nginx.pid'};\n"
            f"error_log {self.error_log} notice;\nevents {{ worker_connections 256; }}\n"
            f"http {{\n{temp}\n    access_log off;\n"
            f"    proxy_bind {PROXY_HOST};  # the proxy's own address, which uvicorn trusts\n"
            f"    include {self.directory / 'muster.conf'};\n}}\n"
        )
        return main

    def command(self, *args: str) -> list[str]:
        return [str(NGINX), "-p", str(self.directory), "-e", str(self.error_log), "-c",
                str(self.directory / "nginx.conf"), *args]

    def check(self) -> subprocess.CompletedProcess:
        """``nginx -t`` on the rendered configuration."""
        self.write()
        return subprocess.run(self.command("-t"), capture_output=True, text=True, timeout=30)

    def start(self) -> Nginx:
        output = open(self.directory / "nginx.out", "wb")
        self.process = subprocess.Popen(self.command(), stdout=output, stderr=subprocess.STDOUT)
        output.close()
        wait_for_port(self.https_port, self.process, lambda: self.error_log.read_text(errors="replace"))
        wait_for_port(self.http_port, self.process, lambda: self.error_log.read_text(errors="replace"))
        return self

    def stop(self) -> None:
        stop(self.process)


@dataclass
class WebProcess:
    """One web machine: uvicorn as docs/operations.md starts it (one process), its own static root."""

    directory: Path
    port: int
    static_root: Path
    database: Path
    process: subprocess.Popen | None = None
    env: dict = field(default_factory=dict)

    @property
    def output_path(self) -> Path:
        return self.directory / f"web-{self.port}.out"

    def start(self) -> WebProcess:
        self.env = web_environment(self.database, self.static_root)
        with open(self.output_path, "wb") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "muster.asgi:application", "--host", WEB_HOST,
                 "--port", str(self.port), "--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio",
                 "--ws-per-message-deflate", "false", "--ws-max-size", "4096", "--timeout-graceful-shutdown", "2",
                 "--lifespan", "off", "--no-access-log", "--proxy-headers", "--forwarded-allow-ips", PROXY_HOST],
                cwd=ROOT, env=self.env, stdout=output, stderr=subprocess.STDOUT,
            )
        return self

    def wait(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited ({self.process.returncode}):\n{self.output()[-3000:]}")
            try:
                if request(WEB_HOST, self.port, "GET", "/healthz").status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"uvicorn did not answer within {timeout:.0f} s:\n{self.output()[-3000:]}")

    def output(self) -> str:
        return self.output_path.read_text(errors="replace")

    def stop(self) -> None:
        stop(self.process)


def web_environment(database: Path, static_root: Path) -> dict:
    """Production's settings: DEBUG off, HTTPS redirect on, this test's database and static root."""
    unset = {"DEBUG", "SECRET_KEY", "REDIS_URL", "LOG_LEVEL", "DJANGO_SETTINGS_MODULE", "SECURE_SSL_REDIRECT",
             "MUSTER_VENUE", "PUBLIC_BASE_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "FORWARDED_ALLOW_IPS"}
    env = {name: value for name, value in os.environ.items() if name not in unset}
    env.update(DEBUG="0", SECRET_KEY="nginx-test-only-" + "x" * 40, ALLOWED_HOSTS="localhost,127.0.0.1",
               DATABASE_URL=f"sqlite:///{database}", STATIC_ROOT=str(static_root), PYTHONUNBUFFERED="1")
    return env


def migrate(database: Path, static_root: Path) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                   env=web_environment(database, static_root), check=True, capture_output=True, timeout=120)


def release_sources(directory: Path, mark: str) -> Path:
    """The project's static files as release ``mark`` has them: its stylesheet differs."""
    sources = directory / f"static-{mark}"
    shutil.copytree(ROOT / "static", sources)
    with open(sources / "css" / "muster.css", "a") as css:
        css.write(f"\n/* release {mark} */\n")
    return sources


def wait_for_port(port: int, process: subprocess.Popen, output, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited ({process.returncode}):\n{output()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {timeout:.0f} s:\n{output()[-3000:]}")


def stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict
    set_cookies: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


def request(host: str, port: int, method: str, path: str, *, headers: dict | None = None, body: bytes | None = None,
            tls: ssl.SSLContext | None = None, source: str | None = None) -> Reply:
    """One request on a fresh connection (from ``source``'s address when given, over TLS with ``tls``)."""
    source_address = (source, 0) if source else None
    if tls is not None:
        connection = http.client.HTTPSConnection(host, port, timeout=30, context=tls, source_address=source_address)
    else:
        connection = http.client.HTTPConnection(host, port, timeout=30, source_address=source_address)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        pairs = response.getheaders()
        return Reply(response.status, response.read(), {name.lower(): value for name, value in pairs},
                     [value for name, value in pairs if name.lower() == "set-cookie"])
    finally:
        connection.close()


class Browser:
    """A browser on the HTTPS site through the proxy: its host header names the port, it keeps cookies."""

    def __init__(self, port: int, certificate: Path):
        self.port = port
        self.site = f"localhost:{port}"
        self.tls = ssl.create_default_context(cafile=str(certificate))
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, *, form: dict | None = None, body: bytes | None = None,
                headers: dict | None = None) -> Reply:
        all_headers = {"Host": self.site, **(headers or {})}
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        if method == "POST":
            all_headers.setdefault("Origin", f"https://{self.site}")
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        reply = request("127.0.0.1", self.port, method, path, headers=all_headers, body=body, tls=self.tls)
        for cookie in reply.set_cookies:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return reply
