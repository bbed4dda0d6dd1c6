"""The coach at the table (issue 27): a seat asks "what would the computer do?" from its phone.

* **Who may ask** (``refusal``, ruling CO2): a person's seat (a computer's seat has no link), at a table in
  play whose GM allows it (``Table.coach``: on for a practice table and a what-if, off at a staked table
  or a battle until the GM switches it on, ruling CO1), that is to act at the version its page shows.
* **The answer** (``advice``): the search the computer would run for that seat (``bots.coach.advise`` at
  ``STRENGTH``), its first three moves named from the seat's own view (``move_names.own_move_label``,
  ruling CO3), each with its win chance as a whole percent. Plain data: a list of dicts.
* **Not in the web process, and bounded** (issue 34, ruling CO4): ten tables asking at once once slowed
  every phone's page, the search sharing the web process's GIL. The search is sent where the computer's
  own turns think (``coach_search``: the coach's processes of the pool, or a worker) and the request waits
  for it at most its seconds cap plus a margin (503 with ``TOO_LONG`` past it). Before it is sent it takes
  its leases (``coach_bounds``): one question at a time per account (per seat for a guest), a few per
  campaign, a few over the site; a tap over one is answered 429 with its sentence, before the table's
  state is read.
* **Once per question**: the seed is the table's seed, version and seat, so asking twice gives the same
  answer, and the answer is cached per (table, version, seat). A second tap while the first searches
  (a double tap, from any process where the cache is Redis) waits for that answer (``wait_for_answer``)
  and takes no lease: it neither counts twice nor is refused.
"""

from __future__ import annotations

import time
from typing import NamedTuple

from django.core.cache import cache
from django.utils.translation import gettext_noop

from ..bots import BotError
from ..engines import get_engine
from ..models import Table
from . import coach_bounds, coach_search
from .strengths import budget

STRENGTH = "normal"
CACHED_SECONDS = 15 * 60  # a version's advice; the next move makes a new key
LEASE_SLACK = 5.0  # a lease outlives its request's wait by this much, freed sooner in ``finally``
POLL_SECONDS = 0.05  # how often a double tap looks for the first tap's answer

# The coach's words, in English: the view says them in the asker's language (``gettext``).
NOT_ALLOWED = gettext_noop("The GM has not let players ask the computer at this table.")
OVER = gettext_noop("This table is not in play: there is no move left to ask about.")
MOVED_ON = gettext_noop("The table moved on since this page was shown: ask again on the table as it is now.")
NOT_YOUR_TURN = gettext_noop("The computer only advises a seat that is to act, and it is not your turn.")
TOO_LONG = gettext_noop("The computer did not answer in time; ask again in a moment.")
ESTIMATE = gettext_noop(
    "The computer's estimate, from what your seat sees: it knows no more of the hidden cards than you do."
)


class Answer(NamedTuple):
    """The coach's answer: the moves (plain dicts) and 200, or no moves, a refusal's sentence and its status
    (409 a stale page, swapped in like a stale move's; 403 where the GM has not allowed it; 429 over a bound
    and 503 no answer in time, both "ask again in a moment"; 400 otherwise)."""

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
    return advice(seat.table_id, seat.index, version, asker=asker(seat), campaign_id=table.campaign_id)


def asker(seat) -> str:
    """Who asks, for the bound of one question at a time: a member's account, or a guest's seat (no account)."""
    return f"user:{seat.membership.user_id}" if seat.membership_id else f"seat:{seat.pk}"


def cache_key(table_id: int, version: int, seat: int) -> str:
    return f"tabletop:coach:{table_id}:{version}:{seat}"


def coach_seed(table_seed: int, version: int, seat: int) -> str:
    """Asking twice at the same version gives the same search: the table's seed, the version, the seat."""
    return f"{table_seed}:coach:{version}:{seat}"


def advice(table_id: int, seat: int, version: int, *, asker: str, campaign_id: int) -> Answer:
    """The moves for ``seat`` at ``version`` of the table, or why there are none. Each move is
    ``{"label", "percent", "visits"}`` (``percent`` None: no estimate, e.g. the only legal move)."""
    key = cache_key(table_id, version, seat)
    within = coach_search.limit(STRENGTH)
    deadline = time.monotonic() + within
    while True:
        found = cache.get(key)
        if found is not None:
            return Answer(found)
        claim = coach_bounds.claim(key, within + LEASE_SLACK)
        if claim:
            break
        if not wait_for_answer(key, deadline):
            return Answer(None, TOO_LONG, 503)
    try:
        with coach_bounds.held(asker, campaign_id, within + LEASE_SLACK):
            return _searched(key, table_id, seat, version, within)
    except coach_bounds.Busy as busy:
        return Answer(None, str(busy), 429)
    finally:
        coach_bounds.unclaim(key, claim)


def wait_for_answer(key: str, deadline: float) -> bool:
    """Another tap searches this question: wait until its answer is cached or it gave up (True: look
    again), or until ``deadline`` (False). The request thread sleeps meanwhile."""
    while time.monotonic() < deadline:
        if cache.get(key) is not None or not coach_bounds.claimed(key):
            return True
        time.sleep(POLL_SECONDS)
    return False


def _searched(key: str, table_id: int, seat: int, version: int, within: float) -> Answer:
    table = Table.objects.filter(pk=table_id).only("game", "seed", "version", "status", "state").first()
    if table is None or table.version != version or table.status != Table.Status.ACTIVE:
        return Answer(None, MOVED_ON, 409)
    if seat not in get_engine(table.game).to_act(table.state):
        return Answer(None, NOT_YOUR_TURN, 400)
    try:
        moves = coach_search.search(str(table.game), table.state, seat, coach_seed(table.seed, version, seat),
                                    STRENGTH, budget(), within=within)
    except BotError as refusal:  # the computer cannot play this state: its sentence, not a 500
        return Answer(None, str(refusal), 400)
    except coach_search.TookTooLong:
        return Answer(None, TOO_LONG, 503)
    cache.set(key, moves, CACHED_SECONDS)
    return Answer(moves)
