"""The in-process channel layer of ``make run``'s server (one process, no Redis): Channels' own, with its
expiry sweep run at most once a second.

Channels' ``InMemoryChannelLayer`` looks at the queue of every channel of the process on each group send
and each receive, to drop messages older than ``expiry``: with 150 phones connected, 150 queues, several
times an action (issue 40: a twentieth of the server's CPU). Swept at most every ``SWEEP_EVERY_S`` seconds
instead, a message unread still goes after ``expiry`` (60 s by default), at most a second later. With
``REDIS_URL`` the Redis layer is used and this one not at all.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer


class InMemoryLayer(InMemoryChannelLayer):
    SWEEP_EVERY_S = 1.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._swept_at: float | None = None  # time.monotonic() of the last sweep

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if self._swept_at is not None and now - self._swept_at < self.SWEEP_EVERY_S:
            return
        self._swept_at = now
        super()._clean_expired()
