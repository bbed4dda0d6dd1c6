"""Which pages may open the live push: only the site's own, port and scheme included (issue 34).

A browser sends any page's websocket to any address with that page's ``Origin``, and cookies go
with it: a page served elsewhere could listen to a player's seat with the player's login. Channels'
``AllowedHostsOriginValidator`` checks only the origin's host name against ``ALLOWED_HOSTS``, so a
page on another port of the same machine passed (``http://127.0.0.1:9999`` for a server on 8000:
any other program a venue laptop runs, or a phone's own page on the venue address). Now the origin
must also be this request's own (``same_origin``): scheme, host and port equal to the scheme the
socket came in by (``ws`` is ``http``, ``wss`` is ``https``) and its ``Host`` header, a port left
out being the scheme's own (80, 443), or else equal to ``PUBLIC_BASE_URL``.

Behind an HTTPS proxy (docs/operations.md, "Web processes"): nginx passes ``Host: muster.example``
(no port) and, with uvicorn's ``--proxy-headers``, the scope's scheme is ``wss``; the page's origin
``https://muster.example`` (or with ``:443``) is the same origin, port 443 both.

The host check stays too (``websocket_guard``): a ``Host`` that is not in ``ALLOWED_HOSTS`` (a
rebound DNS name) is refused even when the origin matches it. A socket without an ``Origin`` is
refused, as before.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from django.conf import settings

DEFAULT_PORTS = {"http": 80, "https": 443}
PAGE_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}

Origin = tuple[str, str, int]  # (scheme, host, port)


def parse_origin(url: str) -> Origin | None:
    """(scheme, host, port) of ``url``, the port filled in from the scheme; None for anything else."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:  # a port that is no number, or out of range
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin1")
    return None


def request_origin(scope: dict) -> Origin | None:
    """The origin of the site this socket came to: its scheme and its ``Host`` header."""
    scheme = PAGE_SCHEMES.get(scope.get("scheme", "ws"), "http")
    host = _header(scope, b"host")
    return parse_origin(f"{scheme}://{host}") if host else None


def same_origin(scope: dict) -> bool:
    """Whether the socket's ``Origin`` is this site's own (``request_origin``) or ``PUBLIC_BASE_URL``."""
    origin = _header(scope, b"origin")
    if not origin:
        return False
    own = {request_origin(scope), parse_origin(settings.PUBLIC_BASE_URL) if settings.PUBLIC_BASE_URL else None}
    return parse_origin(origin) in own - {None}


class SameOriginValidator:
    """Refuses (403 before the handshake) a websocket whose origin is not the site's own."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


def websocket_guard(application):
    """``application`` behind both checks: the origin's host is allowed, and the origin is the site's own."""
    return AllowedHostsOriginValidator(SameOriginValidator(application))
