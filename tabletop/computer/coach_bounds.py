"""How many of the coach's questions think at once (issue 34): leases in the cache.

An outside attack found ten practice tables asking at once slowing every phone's page; so a question takes
three leases before its search is sent, and a tap over any bound is answered at once (429) with its
sentence, before the table's state is read:

* **the asker**: one question at a time per account (a member's login, whichever table it asks at); a
  guest's seat has no account, so one per seat;
* **the campaign**: ``COACH_PER_CAMPAIGN`` (2) slots, so one campaign's game day cannot take them all;
* **the site**: ``COACH_SEARCHES`` (2) slots: the most the coach thinks at once (in-process also the number
  of the coach's processes, so no question waits in their queue; with a worker, keep it below the
  workers' concurrency so the computer's own turns always find one free).

A lease is ``cache.add`` with a timeout: atomic on Redis (``REDIS_URL``: every web process and worker share
it, so the bounds hold across processes) and on the local memory cache of ``make run``'s one process. It is
released in ``finally`` when its question is answered, refused or given up; the timeout only frees a lease
whose process died holding it. Releasing checks the lease is still its own (a get, then a delete: a lease
that outlived its timeout by that instant could free another's, a harmless over-count of one).

``claimed`` is the double-tap lock of one question (table, version, seat): a second tap for a question
being searched waits for its answer instead of searching again, and takes no other lease (it does not
count twice).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_noop

# Said in the asker's language by the view (``gettext``).
ACCOUNT_BUSY = gettext_noop("The computer is still thinking about your question at another table; ask again once "
                            "it has answered.")
CAMPAIGN_BUSY = gettext_noop(
    "The computer is still thinking about another question at this campaign; ask again in a moment."
)
ALL_BUSY = gettext_noop("The computer is thinking about other tables' questions; ask again in a moment.")

DEFAULT_PER_CAMPAIGN = 2
DEFAULT_SEARCHES = 2
PREFIX = "tabletop:coach-lease"


class Busy(Exception):
    """A bound is reached: the sentence that says which (answered 429)."""


def per_campaign() -> int:
    return max(1, int(getattr(settings, "COACH_PER_CAMPAIGN", DEFAULT_PER_CAMPAIGN)))


def searches() -> int:
    """The most questions the coach thinks about at once over the site (and its processes in-process)."""
    return max(1, int(getattr(settings, "COACH_SEARCHES", DEFAULT_SEARCHES)))


@contextmanager
def held(asker: str, campaign_id: int, seconds: float) -> Iterator[None]:
    """Hold the asker's lease, a slot of the campaign's and one of the site's for the block (at most
    ``seconds``); ``Busy`` with the first bound reached, and nothing held, when one is full."""
    token = secrets.token_hex(8)
    bounds = (
        ([f"{PREFIX}:asker:{asker}"], ACCOUNT_BUSY),
        ([f"{PREFIX}:campaign:{campaign_id}:{slot}" for slot in range(per_campaign())], CAMPAIGN_BUSY),
        ([f"{PREFIX}:site:{slot}" for slot in range(searches())], ALL_BUSY),
    )
    taken: list[str] = []
    try:
        for keys, sentence in bounds:
            key = next((key for key in keys if cache.add(key, token, timeout=seconds)), None)
            if key is None:
                raise Busy(sentence)
            taken.append(key)
        yield
    finally:
        _release(taken, token)


def claim(question: str, seconds: float) -> str:
    """The double-tap lock of ``question``: a token when this tap searches it, "" when another tap is."""
    token = secrets.token_hex(8)
    return token if cache.add(f"{PREFIX}:question:{question}", token, timeout=seconds) else ""


def claimed(question: str) -> bool:
    return cache.get(f"{PREFIX}:question:{question}") is not None


def unclaim(question: str, token: str) -> None:
    _release([f"{PREFIX}:question:{question}"], token)


def _release(keys: list[str], token: str) -> None:
    for key in keys:
        if cache.get(key) == token:
            cache.delete(key)
