"""A page's websocket in tests, through the real ASGI application (tests/test_live.py,
tests/tabletop/test_push_sockets.py; the ``application`` and ``fresh_layer`` fixtures are in
tests/fixtures.py).

Each test drives one event loop (``run``: ``async_to_sync`` from the test's thread), so the
consumers' database work and the services called through ``sync_to_async`` run on the test's
own thread and connection (queries can be counted), and the in-process channel layer's
queues belong to that one loop (a fresh layer per test).

``channels.testing`` needs Daphne, which the project does not install; ``Socket`` is the few
lines of its ``WebsocketCommunicator`` the tests use, over asgiref's ``ApplicationCommunicator``.
"""

from __future__ import annotations

import json

from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.test import Client

ORIGIN = "http://testserver"  # the test client's host, in ALLOWED_HOSTS under the tests
WAIT = 5  # seconds a message may take to arrive before the test fails (never a measurement)


def run(scenario, *args):
    return async_to_sync(scenario)(*args)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class Socket(ApplicationCommunicator):
    """A page's websocket to ``path`` (logged in with ``cookie``, from ``origin``)."""

    def __init__(self, application, path: str, cookie: str | None = None, origin: str | None = ORIGIN):
        headers = [(b"host", b"testserver")]
        if origin:
            headers.append((b"origin", origin.encode()))
        if cookie:
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        scope = {"type": "websocket", "path": path, "query_string": b"", "headers": headers, "subprotocols": []}
        super().__init__(application, scope)
        self.path = path
        self.first = None  # the message read after the accept, until text() returns it

    async def connect(self) -> tuple[bool, object]:
        """(True, None) when the socket is open, (False, close code) when refused: refused either
        before accepting or, as the consumers do, by a close right after the accept (an accepted
        socket's first message is always its key)."""
        await self.send_input({"type": "websocket.connect"})
        response = await self.receive_output(WAIT)
        if response["type"] == "websocket.close":
            return False, response.get("code", 1000)
        assert response["type"] == "websocket.accept", response
        self.first = await self.receive_output(WAIT)
        if self.first["type"] == "websocket.close":
            return False, self.first.get("code", 1000)
        return True, None

    async def text(self) -> str:
        """The next message (waits for it)."""
        response, self.first = self.first or await self.receive_output(WAIT), None
        assert response["type"] == "websocket.send" and "bytes" not in response, response
        return response["text"]

    async def key(self) -> str:
        return json.loads(await self.text())["key"]

    async def close(self) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(WAIT)


async def opened(socket: Socket) -> Socket:
    assert await socket.connect() == (True, None), socket.path
    return socket


async def close_all(sockets) -> None:
    for socket in sockets:
        await socket.close()


def seat_path(table, index: int) -> str:
    return f"/ws/play/{table.seats.get(index=index).token}/"


def gm_path(table) -> str:
    return f"/ws/c/{table.campaign.slug}/tables/{table.pk}/gm/"
