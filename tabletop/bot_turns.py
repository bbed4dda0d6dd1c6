"""Computer turns on the site (issue 16): the Django side of ``tabletop.bots.decide``.

* A seat is played by the computer when ``Seat.bot`` names a strength ("quick", "normal",
  "strong"). The GM gives a seat to the computer when opening a table (``SeatSpec.bot``) or
  mid-game (``seat_set_bot``: one transaction, the table's version checked, an activity-log
  line and a live push).
* After every committed change of a table (an action, an undo, the table's creation, a seat
  handed over), ``turn_after_commit`` schedules a computer turn when the table is in play and a
  computer seat is to act (the lowest such seat; the next one follows once it has moved).
* Where the turn runs: with a Celery worker (``REDIS_URL`` set, tasks not eager) the task
  ``tabletop.tasks.computer_turn(table_id, version)``; without one (``make run``) in-process:
  the pure ``decide`` runs in a process pool (spawn, created on first use, ``BOT_PROCESSES``
  workers, 1 by default), so it never holds the request thread, the GIL of the server or a
  database lock, and its move is applied from a small thread when the decision is ready.
* The move is an ordinary ``table_play`` at the version the computer looked at (user None):
  if someone moved first, ``StaleVersion`` drops the turn quietly (the newer version scheduled
  its own); an ``IllegalAction`` (a bug) is logged and not retried.
* The decision's seed is the table's seed and the version (``decision_seed``): a computer turn
  is reproducible.

Pages show "<Name> (computer, normal) is thinking…" from the state and the seats' ``bot``,
which the page's own table query reads (``with_computer_seats``: one subquery per seat index in
the same SELECT, so no page does an extra query for it).
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from django.conf import settings
from django.db import OperationalError, connections, transaction
from django.db.models import OuterRef, QuerySet, Subquery

from .bots import decide
from .engines import get_engine
from .models import Seat, Table

logger = logging.getLogger(__name__)

STRENGTHS = ("quick", "normal", "strong")
# The seat indexes a page's table query reads the ``bot`` of (no game seats more than 5).
MAX_SEATS = 6
COMPUTER_NAME = "Computer"


def computer_names(count: int) -> list[str]:
    """The guest names of ``count`` computer seats opened with a table: "Computer", or numbered."""
    return [COMPUTER_NAME] if count == 1 else [f"{COMPUTER_NAME} {n}" for n in range(1, count + 1)]


def strength_check(bot: str) -> str:
    if bot not in ("", *STRENGTHS):
        raise ValueError(f"No computer strength called {bot!r}: choose quick, normal or strong.")
    return bot


# --- what pages show ----------------------------------------------------------------------


def with_computer_seats(tables: QuerySet) -> QuerySet:
    """``tables`` annotated with ``bot_0`` ... ``bot_5``: each seat's ``Seat.bot`` (None: no such seat)."""
    return tables.annotate(
        **{
            f"bot_{index}": Subquery(Seat.objects.filter(table=OuterRef("pk"), index=index).values("bot")[:1])
            for index in range(MAX_SEATS)
        }
    )


def computer_seats(table: Table) -> dict[int, str]:
    """{seat index: strength} of the seats the computer plays; read from the page's annotated table
    query when it has one, else one query."""
    if hasattr(table, "bot_0"):
        return {index: bot for index in range(MAX_SEATS) if (bot := getattr(table, f"bot_{index}", None))}
    return dict(Seat.objects.filter(table_id=table.pk).exclude(bot="").values_list("index", "bot"))


def seat_name(state: dict, index: int) -> str:
    players = state.get("players") if isinstance(state, dict) else None
    if isinstance(players, list) and 0 <= index < len(players):
        return str(players[index])
    return f"Seat {index + 1}"


def page_context(table: Table) -> dict:
    """The computer seats (``computers``: name and strength per seat) and those to act now
    (``thinking``), for the table's pages; nothing but names and strengths."""
    bots = computer_seats(table)
    if not bots:
        return {"computers": [], "thinking": []}
    state = table.state
    computers = [
        {"seat": index, "name": seat_name(state, index), "strength": bot} for index, bot in sorted(bots.items())
    ]
    thinking = []
    if table.status == Table.Status.ACTIVE:
        acting = set(get_engine(table.game).to_act(state))
        thinking = [computer for computer in computers if computer["seat"] in acting]
    return {"computers": computers, "thinking": thinking}


def seat_controls(table: Table) -> list[dict]:
    """Every seat with who plays it (``bot``: "" a person, else the strength), for the GM's control."""
    bots = computer_seats(table)
    players = table.state.get("players") if isinstance(table.state, dict) else None
    count = len(players) if isinstance(players, list) else (max(bots) + 1 if bots else 0)
    return [
        {"seat": index, "name": seat_name(table.state, index), "bot": bots.get(index, "")} for index in range(count)
    ]


# --- scheduling -------------------------------------------------------------------------------


def decision_seed(table_seed: int, version: int) -> str:
    return f"{table_seed}:computer:{version}"


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


def turn_after_commit(table: Table) -> None:
    """Once the current transaction commits, give the computer its turn at ``table`` if a computer
    seat is to act (called wherever a table changes: ``services.tables`` and ``seat_set_bot``)."""
    if table.status != Table.Status.ACTIVE:
        return
    bots = computer_seats(table)  # from the annotated row the change loaded: no query on an action
    acting = [seat for seat in get_engine(table.game).to_act(table.state) if isinstance(seat, int) and seat in bots]
    if not acting:
        return
    seat = min(acting)
    turn = (table.pk, table.game, table.seed, table.version, table.state, seat, bots[seat])
    transaction.on_commit(lambda: _schedule(*turn))


def in_process() -> bool:
    """No Celery worker to send to: tasks run eagerly (no ``REDIS_URL``), so turns run in this process."""
    from muster.celery import app

    return bool(app.conf.task_always_eager)


def _schedule(table_id: int, game: str, seed: int, version: int, state: dict, seat: int, strength: str) -> None:
    try:
        if not in_process():
            from .tasks import computer_turn

            computer_turn.delay(table_id, version)  # the worker reads the table and its seats afresh
            return
        _track(+1)
        try:
            arguments = (game, state, seat, strength, decision_seed(seed, version))
            try:
                future = _pool().submit(decide, *arguments, **budget())
            except BrokenProcessPool:  # its process died (killed, out of memory): a new pool
                _pool_reset()
                future = _pool().submit(decide, *arguments, **budget())
        except BaseException:
            _track(-1)
            raise
        future.add_done_callback(lambda done: _apply_in_thread(done, table_id, seat, version))
    except Exception:  # a turn not scheduled must never fail the write that committed
        logger.exception("computer turn at table %s (version %s) not scheduled", table_id, version)


# --- the in-process runner ------------------------------------------------------------------------

_pool_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None
_pending = 0  # in-process turns sent to the pool and not yet applied or dropped
_idle = threading.Condition()


def _track(step: int) -> None:
    global _pending
    with _idle:
        _pending += step
        _idle.notify_all()


def wait_idle(timeout: float) -> bool:
    """Wait until no in-process computer turn is deciding or being applied; False on timeout (tests,
    and a server shutting down)."""
    with _idle:
        return _idle.wait_for(lambda: _pending == 0, timeout)


def _pool_reset() -> None:
    global _executor
    with _pool_lock:
        broken, _executor = _executor, None
    if broken is not None:
        broken.shutdown(wait=False, cancel_futures=True)


def _pool() -> ProcessPoolExecutor:
    global _executor
    with _pool_lock:
        if _executor is None:
            # spawn: a fresh interpreter that imports only the pure ``tabletop.bots`` (no Django, no
            # copy of the server's threads or sockets); its first decision pays the start-up.
            _executor = ProcessPoolExecutor(
                max_workers=max(1, int(getattr(settings, "BOT_PROCESSES", 1))), mp_context=get_context("spawn")
            )
        return _executor


def budget() -> dict:
    """``decide``'s budget arguments: none in production (each strength has its own); the tests set
    ``BOT_BUDGET`` (e.g. ``{"iterations": 40}`` for a quick, seeded decision, or a ``seconds`` cap
    for a slow one)."""
    return dict(getattr(settings, "BOT_BUDGET", None) or {})


def _apply_in_thread(future: Future, table_id: int, seat: int, version: int) -> None:
    """Called by the pool's management thread: the move is applied from a thread of its own."""
    threading.Thread(
        target=_apply_decided, args=(future, table_id, seat, version), name=f"computer-turn-{table_id}", daemon=True
    ).start()


def _apply_decided(future: Future, table_id: int, seat: int, version: int) -> None:
    try:
        try:
            action = future.result()
        except BrokenProcessPool:
            logger.exception("computer at table %s (seat %s, version %s): its process died", table_id, seat, version)
            _pool_reset()
            return
        except Exception as error:
            logger.exception("computer at table %s (seat %s, version %s) failed to decide", table_id, seat, version)
            give_back(table_id, seat, version, f"it could not decide ({type(error).__name__})")
            return
        play_decided(table_id, seat, version, action)
    except Exception:
        logger.exception("computer move at table %s (seat %s, version %s) failed", table_id, seat, version)
    finally:
        connections.close_all()  # this thread's own connections
        _track(-1)


def play_decided(table_id: int, seat: int, version: int, action: dict) -> bool:
    """Play the computer's decision as an ordinary action at ``version``; False when it was dropped."""
    from .engines.kernel import IllegalAction
    from .services.tables import ABANDONED, StaleVersion, table_play

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
    """A computer that cannot play its turn hands the seat back to a person (ruling BOT30), so no page
    says "thinking" for ever: the version moves on, the pages refetch, and the activity log says why.
    Nothing happens when the table moved on meanwhile (someone else has it in hand). True when given back."""
    from campaign.activity import activity_record
    from campaign.models import Activity

    from . import live

    try:
        with transaction.atomic():
            table = Table.objects.select_for_update().only("campaign_id", "title", "version").get(pk=table_id)
            held = Seat.objects.filter(table_id=table_id, index=seat).exclude(bot="").first()
            if table.version != version or held is None:
                return False
            held.bot = ""
            held.save(update_fields=["bot"])
            table.version += 1
            table.save(update_fields=["version", "updated_at"])
            live.table_moved(table)
            activity_record(
                campaign=table.campaign_id,
                actor=None,
                kind=Activity.Kind.OVERRIDE,
                summary=f"{table.title}: the computer could not play seat {seat + 1} ({held.name}), "
                f"so a person plays it now: {reason}",
                target=table,
                details={"seat": seat, "before": "computer", "after": "", "version": table.version},
            )
            return True
    except Exception:  # never let the recovery itself fail loudly in a worker thread
        logger.exception("computer at table %s (seat %s) could not give its seat back", table_id, seat)
        return False


def run_turn(table_id: int, version: int) -> bool:
    """A whole computer turn where the database is at hand (the Celery task): read the table, decide
    without holding any transaction or lock, then play at ``version``. False when there was nothing
    to do (the table moved on, no computer to act) or the move was dropped."""
    table = Table.objects.filter(pk=table_id).only("game", "seed", "version", "status", "state").first()
    if table is None or table.version != version or table.status != Table.Status.ACTIVE:
        return False
    turn = _computer_to_act(table_id, table.game, table.state)
    if turn is None:
        return False
    seat, strength = turn
    action = decide(table.game, table.state, seat, strength, decision_seed(table.seed, version), **budget())
    return play_decided(table_id, seat, version, action)


# --- the GM hands a seat to the computer, or back ------------------------------------------------


@transaction.atomic
def seat_set_bot(*, table_id: int, index: int, bot: str, version: int, user=None) -> Table:
    """The computer plays seat ``index`` at strength ``bot`` from now on ("" gives it back to a
    person). The table's version moves on (every page refetches; a stale tab is refused), the
    activity log names the seat and the strength, and a computer to act gets its turn."""
    from campaign.activity import activity_record
    from campaign.models import Activity

    from . import live, selectors
    from .engines.kernel import IllegalAction
    from .services.tables import StaleVersion

    table = (
        with_computer_seats(Table.objects.select_related("stake"))
        .select_for_update(of=("self",))
        .defer(*selectors.UNSHOWN_TABLE_FIELDS)
        .get(pk=table_id)
    )
    if version != table.version:
        raise StaleVersion(table)
    if table.status != Table.Status.ACTIVE:
        raise IllegalAction("Only a table in play can hand a seat to the computer or back.")
    try:
        strength_check(bot)
    except ValueError as error:
        raise IllegalAction(str(error)) from None
    seat = Seat.objects.filter(table=table, index=index).select_related("membership__user").first()
    if seat is None:
        raise IllegalAction(f"This table has no seat {index + 1}.")
    if seat.bot == bot:  # nothing changes hands; a computer to act is given its turn again (after a restart)
        turn_after_commit(table)
        return table
    was, seat.bot = seat.bot, bot
    seat.save(update_fields=["bot"])
    setattr(table, f"bot_{index}", bot)
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    live.table_moved(table)
    now = f"the computer ({bot})" if bot else "a person"
    activity_record(
        campaign=table.campaign_id,
        actor=user,
        kind=Activity.Kind.OVERRIDE,
        summary=f"{table.title}: seat {index + 1} ({seat.name}) is now played by {now}",
        target=table,
        details={"seat": index, "before": was, "after": bot, "version": table.version},
    )
    turn_after_commit(table)
    return table
