"""Serve Muster to the phones at the table (what ``make run`` runs).

    .venv/bin/python scripts/serve.py

Migrates the SQLite database, collects the static files, loads the demo campaign, prints the
address phones open (with a QR code for it) and the demo logins, then becomes gunicorn.

It runs like production, because the venue's Wi-Fi reaches it: DEBUG off (no debug page or
traceback for anyone on the network), static files from WhiteNoise, a SECRET_KEY generated once
into a git-ignored file. Plain HTTP (``MUSTER_VENUE``): no redirect to HTTPS, no secure-only cookies.

Environment (all optional):

MUSTER_HOST   the address phones open (default: this machine's address on the local network)
MUSTER_BIND   where to listen, comma-separated (default 0.0.0.0: every IPv4 interface)
MUSTER_PORT   default 8000
MUSTER_SECRET_KEY_FILE   default .secret_key in the project; ignored when SECRET_KEY is set
DATABASE_URL  default SQLite in the project, as everywhere
WEB_CONCURRENCY, GUNICORN_CMD_ARGS   gunicorn's own (default 2 workers of 8 threads)
"""

from __future__ import annotations

import io
import ipaddress
import os
import secrets
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCAL_HOSTS = ("localhost", "127.0.0.1")
EVERY_INTERFACE = ("0.0.0.0", "::")
# connect() on a UDP socket sends nothing: it only asks the kernel which interface routes there
# (any address off the machine does; this one is TEST-NET-1, RFC 5737).
PROBE_ADDRESS = ("192.0.2.1", 9)


@dataclass(frozen=True)
class Venue:
    host: str  # the address phones open
    binds: tuple[str, ...]
    port: int

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}" + ("" if self.port == 80 else f":{self.port}")

    @property
    def allowed_hosts(self) -> list[str]:
        """The names the server answers to: this machine, the advertised address, any specific bind address."""
        specific = [bind for bind in self.binds if bind not in EVERY_INTERFACE]
        return list(dict.fromkeys([*LOCAL_HOSTS, self.host, *specific]))

    @property
    def serves_this_machine(self) -> bool:
        return any(bind in (*EVERY_INTERFACE, "127.0.0.1") for bind in self.binds)

    @property
    def gunicorn_binds(self) -> list[str]:
        return [f"[{bind}]:{self.port}" if ":" in bind else f"{bind}:{self.port}" for bind in self.binds]


def detect_lan_address() -> str:
    """This machine's address on the local network, or 127.0.0.1 when there is none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE_ADDRESS)
            address = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address if not ipaddress.ip_address(address).is_unspecified else "127.0.0.1"


def venue_from_environment(environ=os.environ) -> Venue:
    binds = tuple(part.strip() for part in environ.get("MUSTER_BIND", "0.0.0.0").split(",") if part.strip())
    return Venue(
        host=environ.get("MUSTER_HOST", "").strip() or detect_lan_address(),
        binds=binds or ("0.0.0.0",),
        port=int(environ.get("MUSTER_PORT", "8000")),
    )


def secret_key(path: Path) -> str:
    """The key in ``path``, created (readable by its owner only) on the first run."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another run created it meanwhile
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def server_environment(venue: Venue, environ=os.environ) -> dict[str, str]:
    env = dict(environ)
    env.update(
        DEBUG="0",
        MUSTER_VENUE="1",
        PUBLIC_BASE_URL=venue.base_url,
        ALLOWED_HOSTS=",".join(venue.allowed_hosts),
        DJANGO_SETTINGS_MODULE="muster.settings",
    )
    if not env.get("SECRET_KEY"):
        env["SECRET_KEY"] = secret_key(Path(environ.get("MUSTER_SECRET_KEY_FILE", ROOT / ".secret_key")))
    return env


def gunicorn_command(venue: Venue) -> list[str]:
    command = [str(Path(sys.executable).with_name("gunicorn")), "muster.wsgi"]
    for bind in venue.gunicorn_binds:
        command += ["--bind", bind]
    # gthread keeps each phone's keep-alive connection without holding a thread between polls.
    command += ["--worker-class", "gthread", "--threads", "8", "--no-control-socket"]
    if "WEB_CONCURRENCY" not in os.environ:
        command += ["--workers", "2"]
    return command


def banner(venue: Venue) -> str:
    import segno

    lines = [
        "",
        f"Muster is on the network. Phones on this Wi-Fi open:  {venue.base_url}/",
        "(or scan this code; the join links and QR codes on a table's page use the same address)",
    ]
    qr = segno.make(f"{venue.base_url}/", error="m")
    picture = io.StringIO()
    qr.terminal(out=picture, compact=True)
    lines.append(picture.getvalue().rstrip("\n"))
    if venue.serves_this_machine:
        lines.append(f"On this machine: http://127.0.0.1:{venue.port}/")
    lines.append("DEBUG is off. Ctrl-C stops the server.")
    if venue.host in LOCAL_HOSTS:
        lines.append("No local network found: only this machine can connect. Set MUSTER_HOST to the phones' address.")
    return "\n".join(lines) + "\n"


def prepare(env: dict[str, str]) -> None:
    """Migrate, collect static files and load the demo, with the server's own settings."""
    os.environ.clear()
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("load_demo")
    connections.close_all()


def main() -> None:
    os.chdir(ROOT)
    venue = venue_from_environment()
    env = server_environment(venue)
    prepare(env)
    sys.stdout.write(banner(venue))
    sys.stdout.flush()
    command = gunicorn_command(venue)
    os.execve(command[0], command, env)


if __name__ == "__main__":
    main()
