"""The coach at the table (issue 27): a seat asks "what would the computer do?" from its phone.

* **Who may ask** (``refusal``, ruling CO2): a person's seat (a computer's seat has no link), at a table in
  play whose GM allows it (``Table.coach``: on for a practice table and a what-if, off at a staked table
  or a battle until the GM switches it on, ruling CO1), that is to act at the version its page shows.
* **The answer** (``advice``): the search the computer would run for that seat (``bots.coach.advise`` at
  ``STRENGTH``), its first three moves named from the seat's own view (``move_names.own_move_label``,
  ruling CO3), each with its win chance as a whole percent. Plain data: a list of dicts.
* **Bounded in the request**: the search runs in a thread of lowered priority (``priority``, like a
  worker's computer turn) and stops at the strength's seconds cap, so the page never thinks for ever.
  Its seed is the table's seed, version and seat: asking twice gives the same answer, and the answer is
  cached per (table, version, seat), so a double tap costs one search. Two taps in the same process at
  once wait for one search (a striped lock); the cache is shared by every process where it is Redis.
"""

from __future__ import annotations

import threading
import zlib
from typing import NamedTuple

from django.core.cache import cache

from ..bots import BotError
from ..bots.coach import advise, percent
from ..engines import get_engine
from ..models import Table
from ..move_names import own_move_label
from . import priority
from .strengths import budget, niceness

STRENGTH = "normal"
CACHED_SECONDS = 15 * 60  # a version's advice; the next move makes a new key

NOT_ALLOWED = "The GM has not let players ask the computer at this table."
OVER = "This table is not in play: there is no move left to ask about."
MOVED_ON = "The table moved on since this page was shown: ask again on the table as it is now."
NOT_YOUR_TURN = "The computer only advises a seat that is to act, and it is not your turn."
ESTIMATE = "The computer's estimate, from what your seat sees: it knows no more of the hidden cards than you do."

_LOCKS = [threading.Lock() for _ in range(32)]  # one search at a time per key in this process


class Answer(NamedTuple):
    """The coach's answer: the moves (plain dicts) and 200, or no moves, a refusal's sentence and its status
    (409 a stale page, swapped in like a stale move's; 403 where the GM has not allowed it; 400 otherwise)."""

    moves: list[dict] | None
    refusal: str = ""
    status: int = 200


def ask(seat, version: int | None) -> Answer:
    """``seat`` (read by its token, with its table's light fields) asks at the ``version`` its page shows."""
    table = seat.table
    if table.status != Table.Status.ACTIVE:
        return Answer(None, OVER, 400)
    if version != table.version:
        return Answer(None, MOVED_ON, 409)
    if not table.coach:
        return Answer(None, NOT_ALLOWED, 403)
    return advice(seat.table_id, seat.index, version)


def cache_key(table_id: int, version: int, seat: int) -> str:
    return f"tabletop:coach:{table_id}:{version}:{seat}"


def coach_seed(table_seed: int, version: int, seat: int) -> str:
    """Asking twice at the same version gives the same search: the table's seed, the version, the seat."""
    return f"{table_seed}:coach:{version}:{seat}"


def advice(table_id: int, seat: int, version: int) -> Answer:
    """The moves for ``seat`` at ``version`` of the table, or why there are none. Each move is
    ``{"label", "percent", "visits"}`` (``percent`` None: no estimate, e.g. the only legal move)."""
    key = cache_key(table_id, version, seat)
    found = cache.get(key)
    if found is not None:
        return Answer(found)
    with _LOCKS[zlib.crc32(key.encode()) % len(_LOCKS)]:
        found = cache.get(key)  # the tap this one waited for searched already
        if found is not None:
            return Answer(found)
        table = Table.objects.filter(pk=table_id).only("game", "seed", "version", "status", "state").first()
        if table is None or table.version != version or table.status != Table.Status.ACTIVE:
            return Answer(None, MOVED_ON, 409)
        engine = get_engine(table.game)
        if seat not in engine.to_act(table.state):
            return Answer(None, NOT_YOUR_TURN, 400)
        try:
            ranked = priority.in_lowered_thread(niceness(), advise, table.game, table.state, seat,
                                                coach_seed(table.seed, version, seat), strength=STRENGTH, **budget())
        except BotError as refusal:  # the computer cannot play this state: its sentence, not a 500
            return Answer(None, str(refusal), 400)
        view = engine.view(table.state, seat)
        moves = [{"label": own_move_label(view, entry.action), "percent": percent(entry.win_chance),
                  "visits": entry.visits} for entry in ranked]
        cache.set(key, moves, CACHED_SECONDS)
        return Answer(moves)
