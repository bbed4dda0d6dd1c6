"""Who watches what: a count of the open push sockets of each viewer of a space (a table's seats, its GM,
its public view and projector), so a push renders only the viewers somebody watches (muster/live.py).

The embedded server (``make run``: one process, the in-process channel layer) keeps the counts in this
process; with ``REDIS_URL`` (several server processes, a Celery worker that pushes) they are one Redis
hash per space, where ``HINCRBY`` is atomic and one ``HGETALL`` reads every viewer of a table. A count a
crashed process never took back costs an extra render of that viewer, never a secret: what is rendered
goes only to that viewer's own group. The hash expires a week after its last change (a socket opening
or closing on that table), so such a count does not linger, and no page held open all day is forgotten.

It also keeps when each viewer's last socket closed (issue 38: "Ann's phone is not connected", which
tabletop/away.py says to the others): ``left`` is how long ago, for a viewer with no socket open now. In
Redis a second hash per space, ``muster:left:<space>``, expiring as the counts do; the time is the server's
clock (the processes of one site share a machine or a time server).
"""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict

import redis
from django.conf import settings

EXPIRES_S = 7 * 24 * 3600


class InProcess:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._spaces: dict[str, Counter] = defaultdict(Counter)
        self._left: dict[str, dict[str, float]] = defaultdict(dict)  # when a viewer's last socket closed

    def add(self, space: str, viewer: str, by: int) -> None:
        with self._lock:
            counts = self._spaces[space]
            counts[viewer] += by
            if by > 0:
                self._left[space].pop(viewer, None)
            if counts[viewer] <= 0:
                del counts[viewer]
                if by < 0:
                    self._left[space][viewer] = time.time()
            if not counts:
                del self._spaces[space]

    def left(self, space: str) -> dict[str, float]:
        with self._lock:
            watched = self._spaces.get(space, {})
            now = time.time()
            return {viewer: now - at for viewer, at in self._left.get(space, {}).items() if viewer not in watched}

    def watched(self, space: str) -> dict[str, int]:
        with self._lock:
            return dict(self._spaces.get(space, {}))

    def forget_all(self) -> None:
        with self._lock:
            self._spaces.clear()
            self._left.clear()


class InRedis:
    def __init__(self, url: str) -> None:
        # a password and TLS come in the URL, a CA bundle in the options (muster/redis_urls.py)
        self._client = redis.Redis.from_url(url, **getattr(settings, "REDIS_CLIENT_OPTIONS", {}))

    def add(self, space: str, viewer: str, by: int) -> None:
        key = f"muster:watch:{space}"
        with self._client.pipeline() as pipe:
            pipe.hincrby(key, viewer, by)
            pipe.expire(key, EXPIRES_S)
            if by > 0:
                pipe.hdel(f"muster:left:{space}", viewer)
            count = pipe.execute()[0]  # a count back at 0 stays (a delete could lose a racing connect's +1)
        if by < 0 and count <= 0:
            with self._client.pipeline() as pipe:
                pipe.hset(f"muster:left:{space}", viewer, repr(time.time()))
                pipe.expire(f"muster:left:{space}", EXPIRES_S)
                pipe.execute()

    def watched(self, space: str) -> dict[str, int]:
        raw = self._client.hgetall(f"muster:watch:{space}")
        return {viewer.decode(): int(count) for viewer, count in raw.items() if int(count) > 0}

    def left(self, space: str) -> dict[str, float]:
        with self._client.pipeline() as pipe:
            pipe.hgetall(f"muster:watch:{space}")
            pipe.hgetall(f"muster:left:{space}")
            counts, lefts = pipe.execute()
        now = time.time()
        return {viewer.decode(): now - float(at) for viewer, at in lefts.items() if int(counts.get(viewer, 0)) <= 0}

    def forget_all(self) -> None:
        for pattern in ("muster:watch:*", "muster:left:*"):
            for key in self._client.scan_iter(match=pattern):
                self._client.delete(key)


_backend: InProcess | InRedis | None = None
_backend_lock = threading.Lock()


def backend() -> InProcess | InRedis:
    global _backend
    with _backend_lock:
        if _backend is None:
            url = getattr(settings, "REDIS_URL", "")
            _backend = InRedis(url) if url else InProcess()
        return _backend


def started(space: str, viewer: str) -> None:
    backend().add(space, viewer, 1)


def ended(space: str, viewer: str) -> None:
    backend().add(space, viewer, -1)


def forget_all() -> None:
    """Every count dropped (tests: a socket another test left open watches nothing here)."""
    backend().forget_all()


def watched(space: str) -> dict[str, int]:
    """{viewer: open sockets} of ``space``, only viewers with at least one."""
    return backend().watched(space)


def left(space: str) -> dict[str, float]:
    """{viewer: seconds since its last socket closed} of ``space``, only viewers with no socket open now."""
    return backend().left(space)
