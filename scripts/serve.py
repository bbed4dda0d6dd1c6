"""Serve Muster to the phones at the table (what ``make run`` runs).

    .venv/bin/python scripts/serve.py

Migrates the SQLite database, collects the static files, loads the demo campaign, prints the
address phones open (with a QR code for it) and the demo logins, then serves the ASGI application
(muster/asgi.py: the pages over HTTP, the live push over websockets) with uvicorn.

The demo's accounts have no known password: each gets one generated on the first run, kept in a
git-ignored file readable by its owner only (``.demo_logins``, like ``.secret_key``) and printed
again on every run, on this terminal only (armies/demo_logins.py). ``MUSTER_DEMO=0`` (``make run
DEMO=0``) serves without the demo: migrate and serve, and the first account is made on the sign-up
page; demo accounts a database kept from an older run that are still on the password the README once
printed get new ones either way.

Each run also prints **the owner's link** (issue 35), on this terminal only, on the venue address and on
127.0.0.1: a one-time link with which the person at this machine makes an account of their own (staff
if they tick the box) instead of sharing the demo's ``gm`` (people/services/owner.py). Its token is
192 random bits, stored only hashed; it makes one account, lasts 24 hours, and the next run replaces it.

It runs like production, because the venue's Wi-Fi reaches it: DEBUG off (no debug page or
traceback for anyone on the network), static files from WhiteNoise, a SECRET_KEY generated once
into a git-ignored file. Plain HTTP (``MUSTER_VENUE``): no redirect to HTTPS, no secure-only cookies.

Without ``REDIS_URL`` it is ONE process: the live push then goes through the in-process channel
layer, which reaches only the pages connected to its own process (one asyncio process holds
thousands of idle websockets; HTTP is answered on ``WEB_THREADS`` threads). With ``REDIS_URL`` the push
goes through Redis and ``WEB_CONCURRENCY`` processes (default 2) share the listening sockets.

Environment (all optional):

MUSTER_HOST   the address phones open (default: this machine's address on the local network)
MUSTER_BIND   where to listen, comma-separated (default 0.0.0.0: every IPv4 interface)
MUSTER_PORT   default 8000
MUSTER_SECRET_KEY_FILE   default .secret_key in the project; ignored when SECRET_KEY is set
MUSTER_DEMO   "0": no demo campaign or users (default 1: load the demo)
MUSTER_DEMO_LOGINS_FILE  the demo accounts' generated passwords (default .demo_logins in the project)
DATABASE_URL  default SQLite in the project, as everywhere
REDIS_URL     the channel layer (and Celery, the cache); unset: in-process push, one process
WEB_CONCURRENCY   server processes with REDIS_URL (default 2); without it always 1
WEB_THREADS   threads answering HTTP in each process (default 10)
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

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, override

ROOT = Path(__file__).resolve().parent.parent
LOCAL_HOSTS = ("localhost", "127.0.0.1")
EVERY_INTERFACE = ("0.0.0.0", "::")
# connect() on a UDP socket sends nothing: it only asks the kernel which interface routes there
# (any address off the machine does; this one is TEST-NET-1, RFC 5737).
PROBE_ADDRESS = ("192.0.2.1", 9)
# The largest websocket frame the server reads (bench/live.py and docs/operations.md say the same).
WS_MAX_SIZE = 4096


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
    def addresses(self) -> list[tuple[str, int]]:
        """Each (address, port) the server listens on."""
        return [(bind, self.port) for bind in self.binds]


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
        MUSTER_ASGI="1",  # the settings of the served process (no persistent connections), from the start
    )
    if not env.get("SECRET_KEY"):
        env["SECRET_KEY"] = secret_key(Path(environ.get("MUSTER_SECRET_KEY_FILE", ROOT / ".secret_key")))
    return env


def demo_wanted(environ=os.environ) -> bool:
    """Whether to load the demo: yes unless ``MUSTER_DEMO`` is 0, no, off or false."""
    return environ.get("MUSTER_DEMO", "").strip().lower() not in {"0", "no", "off", "false"}


def demo_logins_file(environ=os.environ) -> Path:
    return Path(environ.get("MUSTER_DEMO_LOGINS_FILE", "") or ROOT / ".demo_logins")


def processes(environ=os.environ) -> int:
    """Server processes: one without Redis (the in-process channel layer reaches only its own
    process's pages), else ``WEB_CONCURRENCY`` (default 2)."""
    if not environ.get("REDIS_URL"):
        return 1
    return max(1, int(environ.get("WEB_CONCURRENCY", "") or "2"))


def listening_sockets(venue: Venue) -> list[socket.socket]:
    """One bound, listening socket per address, made before the server starts so that every
    process shares them (the kernel hands each connection to one of them)."""
    sockets = []
    for address, port in venue.addresses:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)  # "::" beside "0.0.0.0"
        try:
            sock.bind((address, port))
        except OSError as error:
            sock.close()
            for other in sockets:
                other.close()
            raise SystemExit(
                in_server_language(
                    gettext_noop("Cannot listen on %(address)s port %(port)s: %(reason)s"),
                    address=address, port=port, reason=error.strerror,
                )
            ) from error
        sock.listen(2048)
        sock.set_inheritable(True)
        sockets.append(sock)
    return sockets


def uvicorn_config(workers: int):
    import uvicorn

    return uvicorn.Config(
        "muster.asgi:application",
        workers=workers,
        loop="uvloop",
        http="httptools",
        ws="websockets-sansio",  # the websockets library's protocol (its older implementation is deprecated)
        ws_per_message_deflate=False,  # messages of a few bytes; compression would hold zlib state per socket
        # Pages send nothing (muster/live.py closes a socket that does): a frame over 4 KB is refused
        # with 1009 before it is read, where the default 16 MB let ten sockets take 340 MB.
        ws_max_size=WS_MAX_SIZE,
        # A page's socket is pinged every 20 s and dropped when the answer takes 20 s more (a phone
        # gone to sleep or off the Wi-Fi); the page reconnects, or polls meanwhile.
        ws_ping_interval=20,
        ws_ping_timeout=20,
        proxy_headers=False,  # phones reach it directly: no proxy whose headers to trust
        server_header=False,
        access_log=False,  # a line per request costs CPU at hundreds of requests a second
        log_level="warning",
        timeout_graceful_shutdown=5,  # then open websockets and slow requests are cut
        # muster/lifespan.py: as the server stops (SIGTERM, Ctrl-C), the computer's pool stops with it, before
        # uvicorn raises SIGTERM again and its default action ends the process with no atexit run
        lifespan="on",
    )


def serve(venue: Venue, workers: int) -> None:
    """Serve until SIGINT/SIGTERM: in this process, or in ``workers`` child processes."""
    from uvicorn import Server
    from uvicorn.supervisors import Multiprocess

    sockets = listening_sockets(venue)
    config = uvicorn_config(workers)
    try:
        if workers == 1:
            Server(config).run(sockets=sockets)  # SIGTERM/SIGINT: stop listening, close sockets, finish requests
        else:
            Multiprocess(config, sockets=sockets).run()  # passes SIGTERM/SIGINT on to each process
    except KeyboardInterrupt:  # uvicorn raises Ctrl-C again once it has shut down
        pass


def in_server_language(message: str, **values) -> str:
    """``message`` (marked with ``gettext_noop`` where it is written, looked up here) in the server's language:
    the terminal has no request, so it reads settings.LANGUAGE_CODE."""
    with override(settings.LANGUAGE_CODE):
        return _(message) % values if values else _(message)


def banner(
    venue: Venue, workers: int = 1, redis: bool = False, demo: bool = True, owner_path: str | None = None
) -> str:
    """What the terminal shows once the server is ready, in the server's language (settings.LANGUAGE_CODE)."""
    with override(settings.LANGUAGE_CODE):
        return _banner(venue, workers, redis, demo, owner_path)


def _banner(venue: Venue, workers: int, redis: bool, demo: bool, owner_path: str | None) -> str:
    import segno

    lines = [
        "",
        _("Muster is on the network. Phones on this Wi-Fi open:  %(address)s/") % {"address": venue.base_url},
        _("(or scan this code; the join links and QR codes on a table's page use the same address)"),
    ]
    qr = segno.make(f"{venue.base_url}/", error="m")
    picture = io.StringIO()
    qr.terminal(out=picture, compact=True)
    lines.append(picture.getvalue().rstrip("\n"))
    if venue.serves_this_machine:
        lines.append(_("On this machine: %(address)s/") % {"address": f"http://127.0.0.1:{venue.port}"})
    if redis:
        lines.append(
            ngettext(
                "Live push through Redis: %(count)d server process.",
                "Live push through Redis: %(count)d server processes.",
                workers,
            )
            % {"count": workers}
        )
    else:
        lines.append(_("Live push within this one server process (no Redis)."))
    if not demo:
        here = f"http://127.0.0.1:{venue.port}" if venue.serves_this_machine else venue.base_url
        lines.append(
            _(
                "No demo (MUSTER_DEMO=0). Make your account now with your own link below, before anyone on the Wi-Fi"
                " makes the first one at %(address)s/signup/"
            )
            % {"address": here}
        )
    if owner_path:
        lines.extend(owner_lines(venue, owner_path))
    lines.append(_("DEBUG is off. Ctrl-C stops the server."))
    if venue.host in LOCAL_HOSTS:
        lines.append(
            _("No local network found: only this machine can connect. Set MUSTER_HOST to the phones' address.")
        )
    return "\n".join(lines) + "\n"


def owner_lines(venue: Venue, path: str) -> list[str]:
    """The owner's link, on the venue address (a phone) and on this machine (its own browser)."""
    lines = [
        _(
            "Your own account: this link makes one, once, till it expires or the next run replaces it"
            " (keep it secret):"
        )
    ]
    here, phone = _("on this machine:"), _("on your phone:")
    width = max(len(here), len(phone))  # the two addresses one under the other
    if venue.serves_this_machine:
        lines.append(f"  {here:<{width}}  http://127.0.0.1:{venue.port}{path}")
    lines.append(f"  {phone:<{width}}  {venue.base_url}{path}")
    return lines


def prepare(env: dict[str, str]) -> str:
    """Migrate, collect static files (when they changed) and load the demo (unless ``MUSTER_DEMO=0``), with the
    server's own settings; the path of a new owner's link (the one before dies)."""
    os.environ.clear()
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from muster import static_sources
    from people.services.owner import owner_link_issue, owner_link_path

    call_command("migrate", interactive=False, verbosity=0)
    static_sources.collect()  # only when a static file changed since the last start
    logins = str(demo_logins_file(env))
    if demo_wanted(env):
        call_command("load_demo", logins_file=logins)
    else:  # no demo, but no account left on the password the README once printed either
        call_command("load_demo", "--passwords-only", logins_file=logins)
    owner_path = owner_link_path(owner_link_issue())
    connections.close_all()
    for connection in connections.all():
        if getattr(connection, "pool", None) is not None:
            connection.close_pool()  # PostgreSQL: the serving processes open their own pools
    return owner_path


def main() -> None:
    os.chdir(ROOT)
    venue = venue_from_environment()
    env = server_environment(venue)
    workers = processes(env)
    owner_path = prepare(env)
    redis = bool(env.get("REDIS_URL"))
    sys.stdout.write(banner(venue, workers, redis=redis, demo=demo_wanted(env), owner_path=owner_path))
    sys.stdout.flush()
    serve(venue, workers)


if __name__ == "__main__":
    main()
