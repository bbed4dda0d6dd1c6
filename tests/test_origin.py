"""The live push opens only for the site's own pages: scheme, host AND port (muster/origin.py, issue 34)."""

from __future__ import annotations

import pytest

from muster.origin import parse_origin, same_origin

from tests.factories import gridaris_table
from tests.sockets import Socket, close_all, run, seat_path


def scope(origin: str | None, host: str = "127.0.0.1:8000", scheme: str = "ws") -> dict:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin is not None else [])
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    "origin, host, scheme, same",
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
        ("http://127.0.0.1:9999", "127.0.0.1:8000", "ws", False),  # another program on the same machine
        ("http://127.0.0.1", "127.0.0.1:8000", "ws", False),  # port 80
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", False),  # another scheme
        ("http://LOCALHOST:8000", "localhost:8000", "ws", True),  # host names are case-blind
        ("http://[::1]:8000", "[::1]:8000", "ws", True),
        ("http://192.168.1.20:8000", "127.0.0.1:8000", "ws", False),  # another host
        ("http://venue.example", "venue.example:80", "ws", True),  # 80 said or not
        # behind nginx on 443: Host without a port, the scheme from X-Forwarded-Proto (wss)
        ("https://muster.example", "muster.example", "wss", True),
        ("https://muster.example:443", "muster.example", "wss", True),
        ("https://muster.example:8443", "muster.example", "wss", False),
        ("http://muster.example", "muster.example", "wss", False),
        ("http://127.0.0.1:notaport", "127.0.0.1:8000", "ws", False),
        ("null", "127.0.0.1:8000", "ws", False),  # a sandboxed page or a file
        ("", "127.0.0.1:8000", "ws", False),
        (None, "127.0.0.1:8000", "ws", False),
    ],
)
def test_only_the_sites_own_origin_is_the_same_origin(settings, origin, host, scheme, same):
    settings.PUBLIC_BASE_URL = ""
    assert same_origin(scope(origin, host, scheme)) is same


def test_the_public_address_is_the_sites_own_too(settings):
    """make run's PUBLIC_BASE_URL is where the phones' pages come from, whatever Host a proxy passes."""
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    assert same_origin(scope("http://192.168.1.20:8000", host="muster-upstream:8000"))
    assert not same_origin(scope("http://192.168.1.20:9999", host="muster-upstream:8000"))


def test_an_origin_names_its_scheme_host_and_port():
    assert parse_origin("http://127.0.0.1") == ("http", "127.0.0.1", 80)
    assert parse_origin("https://Muster.Example") == ("https", "muster.example", 443)
    assert parse_origin("ftp://muster.example") is None and parse_origin("http://:99999") is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_layer")
@pytest.mark.parametrize("origin, opens", [("http://testserver", True), ("http://testserver:9999", False)])
def test_a_page_on_another_port_of_an_allowed_host_cannot_open_a_seats_push(application, world, origin, opens):
    path = seat_path(gridaris_table(world.campaign, ["Ann", "Ben"]), 0)

    async def scenario():
        socket = Socket(application, path, origin=origin)
        accepted, _ = await socket.connect()
        await close_all([socket] if accepted else [])
        return accepted

    assert run(scenario) is opens
