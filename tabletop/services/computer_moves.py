"""What a computer's decision does to the database: the computer's move is a service like any other.

It lives with the services, not in ``tabletop/computer``, so the two packages depend one way only: a
change (a service) gives the computer its turn after commit (``computer/scheduling.py``), the decision
is made there (``pool``, or a worker's task), and the move comes back here, by task name (the tasks in
``tabletop/tasks.py`` call this module), so no module of the computer imports a service.

* ``run_turn``: a whole turn where the database is at hand (the Celery task): read the table, decide
  without holding any transaction or lock, in a thread of lowered priority (``priority``: the worker's
  process also settles day ends, so only the deciding thread is lowered), then play.
* ``play_decided``: the move is an ordinary ``table_play`` at the version the computer looked at (user
  None): if someone moved first, ``StaleVersion`` drops the turn quietly (the newer version scheduled
  its own); a refused move (a bug) is logged and the seat handed back.
* ``give_back``: a computer that cannot play its turn hands the seat back to a person (ruling BOT30).
* ``overdue``: a turn's bound passed (``watchdog``, ruling BOT33): if the computer is still to act at
  that version, its turn is sent once more, then the seat is handed back.
* ``end_at_limit``: an all-computer table reached its action limit (``action_limit``, issue 36): it is
  abandoned in the name of a GM of its campaign, with the limit's sentence as the reason.
"""

from __future__ import annotations

import logging
import time

from django.db import OperationalError, transaction
from django.utils.translation import gettext_noop

from campaign.activity import Line, activity_record
from campaign.models import Activity
from campaign.permissions import is_gm
from campaign.selectors import campaign_gms

from .. import titles, viewers
from ..bots import decide
from ..computer import action_limit, priority, scheduling, watchdog
from ..computer.strengths import budget, decision_seed, niceness
from ..engines import get_engine
from ..engines.kernel import IllegalAction
from ..models import Seat, Table, new_token
from ..selectors import ABANDONED
from .abandon import table_abandon
from .tables import StaleVersion, table_play

logger = logging.getLogger(__name__)


def _computer_to_act(table_id: int, game: str, state: dict) -> tuple[int, str] | None:
    """(seat, strength) of the first computer seat among those to act now, or None."""
    acting = [seat for seat in get_engine(game).to_act(state) if isinstance(seat, int)]
    if not acting:
        return None
    found = (
        Seat.objects.filter(table_id=table_id, index__in=acting)
        .exclude(bot="")
        .order_by("index")
        .values_list("index", "bot")
        .first()
    )
    return tuple(found) if found else None


def _retrying(fn, attempts: int = 6):
    """``fn()``, tried again after a short pause when SQLite answers that the database or a table is
    locked (a file database waits out its busy timeout first; the tests' shared in-memory one does not
    wait at all), so a computer turn is not lost to a moment's contention."""
    for attempt in range(attempts):
        try:
            return fn()
        except OperationalError as error:
            if "locked" not in str(error) or attempt == attempts - 1:
                raise
            time.sleep(0.05 * 2**attempt)
    return None  # pragma: no cover (the loop returns or raises)


def run_turn(table_id: int, version: int) -> bool:
    """Read the table, decide, then play at ``version``. False when there was nothing to do (the table
    moved on, no computer to act) or the move was dropped."""
    table = Table.objects.filter(pk=table_id).only("game", "seed", "version", "status", "state").first()
    if table is None or table.version != version or table.status != Table.Status.ACTIVE:
        return False
    turn = _computer_to_act(table_id, table.game, table.state)
    if turn is None:
        return False
    seat, strength = turn
    action, decided_at = priority.in_lowered_thread(
        niceness(), _decide, table.game, table.state, seat, strength, decision_seed(table.seed, version)
    )
    logger.info("computer at table %s (seat %s, version %s) decided at niceness %s, its worker at %s", table_id,
                seat, version, decided_at, priority.niceness_now())
    return play_decided(table_id, seat, version, action)


def _decide(game: str, state: dict, seat: int, strength: str, seed: str) -> tuple[dict, int]:
    """The decision, and the nice value of the thread that made it (the worker's log says both)."""
    return decide(game, state, seat, strength, seed, **budget()), priority.niceness_now()


def overdue(table_id: int, seat: int, version: int, attempt: int, limit: float) -> str:
    """The bound of attempt ``attempt`` at the turn of ``seat`` at ``version`` passed. If the table is
    still there with that computer seat to act, the turn is sent again (it keeps its bound), or after
    the last attempt the seat goes back to a person. What happened, in a word (the task's result)."""
    table = Table.objects.filter(pk=table_id).only("game", "seed", "version", "status", "state").first()
    if table is None or table.version != version or table.status != Table.Status.ACTIVE:
        return "moved on"
    turn = _computer_to_act(table_id, table.game, table.state)
    if turn is None or turn[0] != seat:
        return "moved on"
    if attempt < watchdog.ATTEMPTS:
        logger.warning("computer at table %s (seat %s) has not moved at version %s within %g s: sent again",
                       table_id, seat, version, limit)
        again = scheduling.Turn(table_id, table.game, table.seed, version, table.state, seat, turn[1])
        scheduling.send(again, attempt=attempt + 1, limit=limit)
        return "sent again"
    logger.error("computer at table %s (seat %s) has not moved at version %s, twice within %g s: given back",
                 table_id, seat, version, limit)
    give_back(table_id, seat, version, f"it had not moved within {limit:g} s, twice")
    return "given back"


def end_at_limit(table_id: int, version: int) -> bool:
    """Abandon the all-computer table ``table_id`` at its action limit if it is still at ``version``
    (a change meanwhile sent its own check); True when it was ended."""
    table = Table.objects.select_related("campaign", "created_by").filter(pk=table_id).first()
    if table is None or table.version != version or not action_limit.reached(table):
        return False
    gms = [table.created_by] if table.created_by and is_gm(table.created_by, table.campaign) else []
    gms += [membership.user for membership in campaign_gms(table.campaign)]
    if not gms:  # pragma: no cover - a campaign always keeps a GM (ruling MB1)
        logger.error("all-computer table %s at its action limit has no GM to end it in the name of", table_id)
        return False
    try:
        table_abandon(table_id=table_id, version=version, gm=gms[0], reason=action_limit.sentence())
    except (StaleVersion, IllegalAction) as refusal:  # moved on, or abandoned meanwhile
        logger.info("all-computer table %s not ended at its action limit: %s", table_id, refusal)
        return False
    logger.warning("all-computer table %s ended at its action limit (%s actions)", table_id, version)
    return True


def play_or_give_back(table_id: int, seat: int, version: int, action: dict | None, failure: str) -> bool:
    """A decision from the in-process pool: play it, or (``failure``: why there is none) give the seat back."""
    if failure:
        give_back(table_id, seat, version, failure)
        return False
    return play_decided(table_id, seat, version, action)


def play_decided(table_id: int, seat: int, version: int, action: dict) -> bool:
    """Play the computer's decision as an ordinary action at ``version``; False when it was dropped."""
    move = {key: value for key, value in action.items() if key != "seat"}
    try:
        _retrying(lambda: table_play(table_id=table_id, seat=seat, action=move, version=version))
    except StaleVersion:
        logger.info("computer turn at table %s dropped: someone moved after version %s", table_id, version)
        return False
    except IllegalAction as refusal:
        if str(refusal) in (ABANDONED, "This game is over."):  # the GM ended the table meanwhile
            logger.info("computer turn at table %s dropped: %s", table_id, refusal)
            return False
        logger.error("computer move at table %s (seat %s, version %s) refused: %s", table_id, seat, version, refusal)
        give_back(table_id, seat, version, f"its move was refused ({refusal})")
        return False
    return True


def give_back(table_id: int, seat: int, version: int, reason: str) -> bool:
    """Hand the seat back to a person (ruling BOT30), so no page says "thinking" for ever: the version
    moves on, the pages refetch, and the activity log says why. Nothing happens when the table moved
    on meanwhile (someone else has it in hand). True when given back."""
    try:
        with transaction.atomic():
            table = Table.objects.select_for_update().only("campaign_id", "title", "version").get(pk=table_id)
            held = Seat.objects.filter(table_id=table_id, index=seat).exclude(bot="").first()
            if table.version != version or held is None:
                return False
            held.bot, held.token = "", new_token()  # a new link for the person (ruling BOT32)
            held.save(update_fields=["bot", "token"])
            table.version += 1
            table.save(update_fields=["version", "updated_at"])
            viewers.table_moved(table)
            activity_record(
                campaign=table.campaign_id,
                actor=None,
                kind=Activity.Kind.OVERRIDE,
                summary=Line(
                    gettext_noop(
                        "%(title)s: the computer could not play seat %(number)s (%(name)s), "
                        "so a person plays it now: %(reason)s"
                    ),
                    title=titles.as_line(table.title),
                    number=seat + 1,
                    name=held.name,
                    reason=reason,
                ),
                target=table,
                details={"seat": seat, "before": "computer", "after": "", "version": table.version},
            )
            return True
    except Exception:  # never let the recovery itself fail loudly in a worker thread
        logger.exception("computer at table %s (seat %s) could not give its seat back", table_id, seat)
        return False
