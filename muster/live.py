"""Live push: the server tells each open page that what it shows moved on.

A push carries a key (a table's version, a day end's progress) and, where one render serves every
page of a viewer, that viewer's region itself (``html``): a table is rendered once per viewer that
somebody watches (tabletop/push.py) and sent to that viewer's own group, which only that viewer's
sockets join, so no pushed message can hold another seat's secrets. A key alone makes the page fetch
its own view through the ordinary page endpoint, with its own permissions. Polling that endpoint is
the fallback while a page has no push connection, and the way a page that was asleep catches up.
A group can also be told to close (``CLOSE``): its sockets close with ``REFUSED`` and their
pages fall back to their poll, which answers with the page's refusal (a seat handed on).

The channel layer is Django Channels': in-process for the embedded default (``make run``:
one server process, no Redis) and Redis whenever ``REDIS_URL`` is set, so an action posted
to one server process reaches a phone connected to another (and a Celery worker's day-end
progress reaches the GM's page).

Services announce after their transaction commits (``announce_on_commit``): a rolled-back
write is never announced, and a page that fetches on the push reads the committed state.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable

from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404

from . import presence
from .request_log import without_secrets

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "live.moved"  # handled by LiveConsumer.live_moved
CLOSE_TYPE = "live.close"  # handled by LiveConsumer.live_close
# The close code a refused connection gets, once accepted (4000-4999 are the application's):
# the browser's socket extension does not reconnect on it, and the page falls back to
# polling, which answers with the same refusal as the page itself.
REFUSED = 4403
UNSUPPORTED_DATA = 1003  # the close code of a page that sent something (RFC 6455, 7.4.1)


class UnknownRoute(AsyncWebsocketConsumer):
    """A websocket path no route matches (muster/routing.py puts it last): refused with one log line.
    Channels' router would raise instead, and the server answer with a 500 and a traceback. Closed
    before the accept, so the server answers the handshake with HTTP 403: no page of ours asks for
    such a path, so no page reconnects to it. The path is logged without a seat's or projector's token
    (``/ws/play/***/...``): a page's path with a tail still carries one."""

    async def connect(self):
        path = without_secrets(self.scope.get("path", "")).encode("unicode_escape").decode("ascii")
        logger.warning("403 WS %s user=-: no such websocket route", path)
        await self.close()


def moved_message(key: str, html: str | None = None) -> dict:
    """The message that a group moved on to ``key``, with the group's region as it is at ``key`` when
    one render serves the whole group: then encoded once here (``text``), not once per socket."""
    if html is None:
        return {"type": MESSAGE_TYPE, "key": key}
    return {"type": MESSAGE_TYPE, "key": key, "text": json.dumps({"key": key, "html": html})}


CLOSE = {"type": CLOSE_TYPE}  # every socket of the group closes with ``REFUSED``


# The server's event loop, where its sockets live (set by the first socket that connects): a request's
# thread hands its pushes to it and goes on with its answer, rather than waiting for them to be sent.
_server_loop: list[asyncio.AbstractEventLoop] = []


def send_all(messages: list[tuple[str, dict]]) -> None:
    """Send each (group, message) from sync code, in one hop to the event loop (a table's push sends one
    per watched viewer): handed to the server's loop without waiting where this process serves sockets,
    else (a Celery worker, a command) sent before returning. A push never fails the write that caused
    it: a push lost is caught up by polling, and logged."""
    try:
        _send_all(messages)
    except Exception:
        logger.exception("live push to %s failed", ", ".join(group for group, _ in messages))


def _send_all(messages: list[tuple[str, dict]]) -> None:
    if not messages:
        return
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        for group, message in messages:
            try:
                await layer.group_send(group, message)
            except Exception:
                logger.exception("live push to %s failed", group)

    loop = _server_loop[0] if _server_loop else None
    if loop is not None and loop.is_running():
        try:
            asyncio.run_coroutine_threadsafe(send(), loop)
            return
        except RuntimeError:  # the loop closed meanwhile
            pass
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop in this thread: the ordinary case
        async_to_sync(send)()
        return
    # This thread runs an event loop of its own (a test driving a browser calls a service), where
    # async_to_sync refuses to run: sent from a thread of its own.
    sender = threading.Thread(target=async_to_sync(send), name="live-send")
    sender.start()
    sender.join()


def announce(group: str, key: str) -> None:
    """Tell every page in ``group`` that it moved on to ``key`` (now, from sync code)."""
    send_all([(group, moved_message(key))])


def announce_on_commit(group: str, key: str | Callable[[], str]) -> None:
    """Announce once the current transaction commits (at once outside one); ``key`` may be a
    callable read at commit time."""
    transaction.on_commit(lambda: announce(group, key() if callable(key) else key))


class LiveConsumer(AsyncWebsocketConsumer):
    """One page's push connection. Subclasses say which group the URL names and whether the
    connecting user may watch it (``watch``, run in a thread with database access).

    A subclass whose pushes are rendered for the viewers somebody watches sets ``presence`` (space,
    viewer) in ``watch``: the socket counts as watching once it is in its group, and reads the key
    again after that (``key_now``), so a change committed meanwhile is either pushed to it (the
    pusher saw it watching) or already in that key (the page then fetches)."""

    group = ""
    presence: tuple[str, str] | None = None
    counted = False  # counted in ``presence``: taken back once on disconnect, never more

    def watch(self, user, **url_kwargs) -> tuple[str, str]:
        """``(group, current key)`` for a viewer allowed to watch; raise PermissionDenied or Http404."""
        raise NotImplementedError

    async def connect(self):
        if not _server_loop or _server_loop[0] is not asyncio.get_running_loop():
            _server_loop[:] = [asyncio.get_running_loop()]
        try:
            self.group, key = await database_sync_to_async(self.watch)(
                self.scope.get("user"), **self.scope["url_route"]["kwargs"]
            )
        except (PermissionDenied, Http404):
            # Accept, then close with the refusal's code: closing before accepting makes the
            # server answer the handshake with HTTP 403, which a browser reports as 1006 (a
            # dropped connection) and reconnects to forever.
            await self.accept()
            await self.close(code=REFUSED)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.presence:
            await sync_to_async(presence.started, thread_sensitive=False)(*self.presence)
            self.counted = True
            key = await database_sync_to_async(self.key_now)()
        await self.accept()
        # The key now: a page reconnecting after a drop (or a phone waking) compares it with its
        # own and fetches at once if it missed anything meanwhile.
        await self.send_key(key)

    def key_now(self) -> str:
        """The key as it is now (read again after joining the group; see the class docstring)."""
        raise NotImplementedError

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.counted:
            self.counted = False
            await sync_to_async(presence.ended, thread_sensitive=False)(*self.presence)

    async def receive(self, text_data=None, bytes_data=None):
        """Pages send nothing: a socket that sends anything is not one of our pages, and is closed
        (the server already refuses a frame over a few KB: scripts/serve.py's ws_max_size)."""
        size = f"{len(text_data)} characters" if text_data is not None else f"{len(bytes_data or b'')} bytes"
        # the group, not the path: a guest seat's path holds its token
        logger.warning("live socket of %s sent %s (pages send nothing): closed", self.group or "-", size)
        await self.close(code=UNSUPPORTED_DATA)

    async def dispatch(self, message):
        """Channels closes the thread's old database connections before every message a consumer handles,
        a hop to a thread each; a push (``live.moved``, ``live.close``) touches no database, so it is
        handled without (issue 40: two hops a push, with three phones a table, cost more than sending)."""
        if message["type"] == MESSAGE_TYPE:
            await self.live_moved(message)
        elif message["type"] == CLOSE_TYPE:
            await self.live_close(message)
        else:
            await super().dispatch(message)

    async def live_moved(self, event):
        if "text" in event:  # the key and the region, encoded once for the whole group
            await self.send(text_data=event["text"])
        else:
            await self.send_key(event["key"])

    async def live_close(self, event):
        await self.close(code=REFUSED)

    async def send_key(self, key: str) -> None:
        await self.send(text_data=json.dumps({"key": key}))
