"""No seat or projector link in the web server's own log (issue 37, muster/server_logs.py).

One real uvicorn, started with the command docs/operations.md gives ("Web processes"), read from the
docs themselves, on 127.0.0.1 and a free port, at ``--log-level info`` and with the access log turned on
as a sysadmin might: a seat's websocket, the projector's and a seat's HTTP request must appear in its
output with ``***`` where the token was, and the tokens nowhere.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from muster.server_logs import SERVER_LOGGERS, SecretPaths, masked

from tests.venue_server import GM_HOST, Client, free_port

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "operations.md"
START_TIMEOUT = 60  # a bound on waiting, never a measurement

SEED = """
import json, os, sys
sys.path.insert(0, os.getcwd())
import django
django.setup()
from django.core.management import call_command
call_command("migrate", interactive=False, verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
call_command("load_demo", logins_file=sys.argv[1])
from tests.venue_seed import tables
from tabletop.services.projector import projector_issue
seeded = tables(1)["tables"][0]
print(json.dumps({"seats": seeded["tokens"], "projector": projector_issue(table_id=seeded["id"], replacing="").token}))
"""


def docs_uvicorn_command() -> list[str]:
    """The uvicorn command of docs/operations.md's "Web processes", as its arguments."""
    section = DOCS.read_text().split("## Web processes", 1)[1]
    block = re.search(r"```sh\n((?:\S*/)?uvicorn muster\.asgi:application.*?)```", section, re.S).group(1)
    return shlex.split(block.replace("\\\n", " "), comments=True)


def local_command(port: int) -> list[str]:
    """The docs' command on loopback, at INFO, with the access log on."""
    args = docs_uvicorn_command()[1:]
    values = {"--host": GM_HOST, "--port": str(port), "--forwarded-allow-ips": GM_HOST}
    command = [sys.executable, "-m", "uvicorn"]
    for index, arg in enumerate(args):
        if arg == "--no-access-log":
            continue
        command.append(values.get(args[index - 1], arg) if index else arg)
    return [*command, "--log-level", "info"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("server-log")
    unset = {"DEBUG", "REDIS_URL", "LOG_LEVEL", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(
        SECRET_KEY="server-log-test",
        ALLOWED_HOSTS=GM_HOST,
        DATABASE_URL=f"sqlite:///{directory / 'db.sqlite3'}",
        STATIC_ROOT=str(directory / "static"),
        SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="muster.settings",
        PYTHONUNBUFFERED="1",
    )
    seeded = subprocess.run(
        [sys.executable, "-c", SEED, str(directory / "logins")], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert seeded.returncode == 0, seeded.stderr[-3000:]
    tokens = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port(GM_HOST)
    output = directory / "uvicorn.out"
    with open(output, "wb") as out:
        process = subprocess.Popen(local_command(port), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, output.read_text()[-3000:]
            assert time.monotonic() < deadline, f"uvicorn did not answer:\n{output.read_text()[-3000:]}"
            try:
                if Client(GM_HOST, port).request("GET", "/healthz").status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        yield {"port": port, "process": process, "output": output, **tokens}
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def test_the_docs_server_logs_seat_and_projector_links_as_stars(server):
    seat, other = server["seats"]
    client = Client(GM_HOST, server["port"])
    assert client.request("GET", f"/play/{seat}/").status == 200
    for path in (f"/ws/play/{seat}/", f"/ws/projector/{server['projector']}/"):
        with client.websocket(path) as socket:
            assert '"key"' in socket.recv(timeout=10)  # accepted: the page's key came
    client.close()
    server["process"].send_signal(signal.SIGTERM)  # every line written before it is read
    server["process"].wait(timeout=20)
    output = server["output"].read_text()
    assert '"WebSocket /ws/play/***/" [accepted]' in output
    assert '"WebSocket /ws/projector/***/" [accepted]' in output
    assert '"GET /play/***/ HTTP/1.1" 200' in output
    for token in (seat, other, server["projector"]):
        assert token not in output


def test_the_filter_is_on_the_servers_loggers_once_django_is_set_up():
    for name in SERVER_LOGGERS:
        assert [f for f in logging.getLogger(name).filters if isinstance(f, SecretPaths)], name


def test_a_path_inside_a_line_and_a_full_url_keep_their_shape():
    assert masked('1.2.3.4:5 - "WebSocket /ws/play/abc/?x=1" 403') == '1.2.3.4:5 - "WebSocket /ws/play/***/?x=1" 403'
    assert masked("/projector/tok") == "/projector/***"
    assert masked("/ws/c/demo/tables/3/gm/ and /join/tok/") == "/ws/c/demo/tables/3/gm/ and /join/***/"
