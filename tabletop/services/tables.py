"""Play at a table: lock, apply the pure engine, save the state and a log entry, in one transaction."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from campaign.activity import Line, activity_record, listed
from campaign.models import Activity, Campaign, Membership
from muster.prepared import Prepared
from muster.refusals import Refusal, Stale

from .. import hooks, selectors, titles, viewers
from ..computer.scheduling import turn_after_commit
from ..computer.strengths import strength_check
from ..engines import get_engine
from ..engines.kernel import GM, IllegalAction, SeededRng, digest
from ..engines.replay import rebuild
from ..engines.words import Words, read
from ..models import Seat, Table, TableAction
from ..selectors import ABANDONED, COMPUTER_SEAT, live_actions, undo_refusal
from . import forks

logger = logging.getLogger(__name__)


MOVE_NOT_SAVED = gettext_noop("Your move was not saved: the site met an error writing it (it is logged for whoever "
                              "runs the site). The table is as it was; try the move again.")


GAME_OVER = gettext_noop("This game is over.")
OVERRIDE_AT = gettext_noop("Override at %(title)s: %(override)s")  # the activity line of a GM's override


class MoveNotSaved(IllegalAction, Refusal):
    """The move rolled back on a database error that was not a repeated tap: its sentence, never a silent 200."""


class SetupRefused(Refusal):
    """A table that cannot open as asked: its seats, its stakes (``stakes.py``), a computer's strength, or a
    config the engine's setup refuses. The engines import only the standard library and refuse a config with a
    plain ``ValueError``'s sentence; ``table_create``, the one caller of ``setup``, says it as this."""


class StaleVersion(Stale):
    """The action was made against an older version of the table."""

    def __init__(self, table: Table):
        super().__init__(gettext("The table moved on while you were choosing. Here is the table as it is now."))
        self.table = table


@dataclass(frozen=True)
class SeatSpec:
    membership: Membership | None = None
    guest_name: str = ""
    bot: str = ""  # "" a person plays the seat; else the computer, at this strength (computer.strengths.STRENGTHS)

    @property
    def name(self) -> str:
        """A guest's name; a member's seat goes by ``guest_name`` when it has one (an NPC's, ruling B3)."""
        return self.guest_name.strip() or (self.membership.display_name if self.membership else "")


@dataclass(frozen=True)
class PlayResult:
    table: Table
    applied: bool


def action_rng(table: Table, seq: int) -> SeededRng:
    """App dice for one log entry: reproducible from the table's seed, and recorded anyway."""
    return SeededRng(f"{table.seed}:{seq}")


@transaction.atomic
def table_create(
    *,
    campaign: Campaign,
    game: str,
    title: str,
    seats: list[SeatSpec],
    config: dict[str, Any],
    created_by=None,
    seed: int | None = None,
    record_activity: bool = True,
    coach: bool = True,
) -> Table:
    """Open a table: the engine's setup runs now and its draws are stored for replays.

    ``coach``: whether its players may ask the computer what it would do (ruling CO1): on for a
    practice table; the caller of a staked table or a battle opens it off.

    One activity line says who opened it and who sits at it, unless ``record_activity`` is False: the
    caller writes the act's one line itself (a battle opens its table: the line is about the battle).

    Raises ``SetupRefused`` with a sentence (no seat, a seat of another campaign or without a name, an unknown
    strength, a config the engine refuses); then nothing is saved.
    """
    if not seats:
        raise SetupRefused(gettext("A table needs at least one seat."))
    for spec in seats:
        if spec.membership is not None and spec.membership.campaign_id != campaign.pk:
            raise SetupRefused(
                gettext("%(name)s is not a member of %(campaign)s.") % {"name": spec.name, "campaign": campaign}
            )
        if spec.membership is None and not spec.guest_name.strip():
            raise SetupRefused(gettext("Every guest seat needs a name."))
        try:
            strength_check(spec.bot)
        except ValueError as error:
            raise SetupRefused(str(error)) from None
    engine = get_engine(game)
    full_config = {**config, "players": [spec.name for spec in seats]}
    # str(): a plain str, never a Django enum (Table.Game.ARMY), since the game crosses to the computer's process
    table = Table(campaign=campaign, game=str(game), title=title, config=full_config, created_by=created_by,
                  coach=coach)
    if seed is not None:
        table.seed = seed
    rng = SeededRng(f"{table.seed}:setup")
    try:
        table.state = engine.setup(full_config, rng)
    except ValueError as error:  # the engine's sentence for a config it refuses (the engines know no Refusal)
        raise SetupRefused(str(error)) from error
    table.setup_draws = rng.take_draws()
    table.save()
    Seat.objects.bulk_create(
        Seat(table=table, index=index, membership=spec.membership, guest_name=spec.guest_name.strip(), bot=spec.bot)
        for index, spec in enumerate(seats)
    )
    if any(spec.bot for spec in seats):
        turn_after_commit(table)  # a computer that moves first
    viewers.members_moved(table, [spec.membership.pk for spec in seats if spec.membership is not None])
    if record_activity:
        activity_record(
            campaign=campaign,
            actor=created_by,
            kind=Activity.Kind.TABLE_NEW,
            summary=_opened_line(title, table, seats),
            target=table,
            details={"game": table.game, "seats": len(seats)},
        )
    return table


def _opened_line(title: str, table: Table, seats: list[SeatSpec]) -> Line:
    """The activity line of a new table: its seats "Ann, Ben and Cara" (the game's name untranslated)."""
    with translation.override(None):
        game = table.get_game_display()
    return Line(
        gettext_noop("Opened %(title)s (%(game)s): %(seats)s."),
        title=title,
        game=Line(game),  # the game's name as its choice names it, said in the reader's language
        seats=listed(spec.name for spec in seats),
    )


def engine_line(text: str) -> Line | str:
    """An engine's English line (an outcome's reason) as activity words: its template and values, read back
    from the engines' phrase book (tabletop/engines/words.py); a line no template reads stays its text."""
    words = read(text) if isinstance(text, str) else None
    return _as_line(words) if words is not None else text


def _as_line(words: Words) -> Line:
    values = {key: _as_line(value) if isinstance(value, Words) else value for key, value in words.params.items()}
    return Line(words.message, **values)


def _finish_line(table: Table, seat, user, by_person: bool) -> None:
    """The activity line of a table's end (ruling L3): a what-if's says so, and that nothing counts.

    Who acted: the user; else the computer (its own move) or the guest whose seat made the last move.
    """
    reason = (table.outcome or {}).get("reason", "")
    reason = reason.rstrip(": ")
    title = titles.as_line(table.title if reason else table.title.rstrip(": "))  # the line ends as it always did
    if table.what_if:  # a fork's title says "What-if: " already (forks.fork_title); one a GM renamed may not
        title = (
            Line(gettext_noop("%(title)s (nothing there counts)"), title=titles.as_line(table.title))
            if table.title.startswith(forks.WHAT_IF)
            else Line(gettext_noop("What-if %(title)s"), title=title)
        )
    summary = (
        Line(gettext_noop("Finished %(title)s: %(reason)s"), title=title, reason=engine_line(reason))
        if reason
        else Line(gettext_noop("Finished %(title)s"), title=title)
    )
    actor_name = ""
    if user is None and isinstance(seat, int):
        players = table.config.get("players", [])
        actor_name = "computer" if not by_person else (players[seat] if seat < len(players) else "")
    activity_record(
        campaign=table.campaign_id,
        actor=user,
        actor_name=actor_name,
        kind=Activity.Kind.TABLE_END,
        summary=summary,
        target=table,
        details={"game": table.game, "winners": (table.outcome or {}).get("winners", []), "version": table.version},
    )


def _seat_key(seat: Any) -> str:
    return GM if seat == GM else str(seat)


def table_play(
    *,
    table_id: int,
    seat: int | str,
    action: dict[str, Any],
    version: int,
    client_action_id: str = "",
    user=None,
    by_person: bool = False,
) -> PlayResult:
    """Apply one action for ``seat`` (an index, or GM acting for the table).

    A repeated ``client_action_id`` is answered with the table as it is and applied
    once; a stale ``version`` raises ``StaleVersion``; the rules raise ``IllegalAction``.
    When the engine reports an outcome, the game's finish hooks (``hooks.py``) run in the
    same transaction; one that raises ``IllegalAction`` refuses the action whole.
    ``by_person``: a person's move (a seat's phone, the GM's tablet), refused for a seat the
    computer plays (ruling BOT32); the computer's own moves leave it False.
    """
    try:
        with transaction.atomic():
            return _play_locked(table_id, seat, action, version, client_action_id, user, by_person)
    except IntegrityError as error:
        # Two identical submissions raced past the duplicate check, the other one won: a repeat. Only then:
        # a finish hook's own database error (a payout, a battle's result) is the move not saved (issue 36).
        if client_action_id and TableAction.objects.filter(table_id=table_id,
                                                           client_action_id=client_action_id).exists():
            return PlayResult(table=selectors.table_for_page(table_id), applied=False)
        logger.error("a move at table %s was not saved: %s", table_id, error, exc_info=True)
        raise MoveNotSaved(gettext(MOVE_NOT_SAVED)) from error


def _override_label(engine, state: dict, seat, action: dict) -> str:
    """The label the GM saw for a GM override (the engine's ``override_menu(state)``, which the GM
    view shows), else "".

    Only the GM's own table decisions can be overrides: the GM entering a decision for a seat
    (hot-seat) or typing dice the table asked the GM for is ordinary play. The label never names
    a card (the action's fields are left out of the activity log). Reading the menu, not the whole
    GM view, keeps the odds and the rest of the view off the action path.
    """
    if seat != GM:
        return ""
    kind = action.get("type")
    for override in engine.SPEC.override_menu(state):  # an engine without overrides: the spec's empty menu
        if override.get("type") == kind:
            return override.get("label") or str(kind)
    return ""


_LOCKED_FOR_PLAY = Prepared(
    lambda pk: selectors.tables_for_page().select_for_update(of=("self",)).filter(pk=pk).order_by(), pk=int
)


def _locked_for_play(table_id: int) -> Table:
    """The table row, locked, as its page renders it after the action (state and stake, the seats'
    computers for the "thinking" line, the newest undo for the seats' note; the config and setup draws
    load only if a finish hook reads them). Compiled once per process (``muster.prepared``)."""
    table = _LOCKED_FOR_PLAY.first(pk=table_id)
    if table is None:
        raise Table.DoesNotExist("Table matching query does not exist.")
    return table


def _play_locked(table_id, seat, action, version, client_action_id, user, by_person=False) -> PlayResult:
    table = _locked_for_play(table_id)
    if version != table.version:
        # A repeat of an applied action (a double tap) was made against the version before it, so
        # only a stale post can be one; a current post's id is new (the unique constraint says so
        # anyway: a reused id raises IntegrityError, answered like a repeat by ``table_play``).
        if client_action_id and TableAction.objects.filter(table=table, client_action_id=client_action_id).exists():
            return PlayResult(table=table, applied=False)
        raise StaleVersion(table)
    if table.status == Table.Status.ABANDONED:
        raise IllegalAction(ABANDONED)
    if table.is_finished:
        raise IllegalAction(GAME_OVER)  # English: computer_moves compares it; the page says it translated
    if by_person and isinstance(seat, int) and getattr(table, f"bot_{seat}", None):  # read in the locked row
        raise IllegalAction(COMPUTER_SEAT)
    engine = get_engine(table.game)
    seq = table.version + 1
    rng = action_rng(table, seq)
    action = {**action, "seat": seat}
    override = _override_label(engine, table.state, seat, action)
    table.state = engine.apply(table.state, action, rng)
    table.version = seq
    fields = ["state", "version", "updated_at"]
    outcome = engine.outcome(table.state)
    if outcome is not None:
        table.status, table.outcome, table.finished_at = Table.Status.FINISHED, outcome, timezone.now()
        fields += ["status", "outcome", "finished_at"]
    table.save(update_fields=fields)
    viewers.table_moved(table)
    if outcome is not None:
        viewers.members_moved(table)  # their campaign pages show it finished
    turn_after_commit(table)  # a computer to act next gets its turn once this commits
    table.live_action = True  # the entry below is one (the locked row's annotation was read before it)
    table.made_by = client_action_id  # this tap made the version (selectors.with_made_by; the page says so)
    TableAction.objects.create(
        table=table,
        seq=seq,
        seat=_seat_key(seat),
        action=action,
        draws=rng.take_draws(),
        digest=digest(table.state),
        client_action_id=client_action_id,
        user=user,
    )
    if override:
        activity_record(
            campaign=table.campaign_id,
            actor=user,
            kind=Activity.Kind.OVERRIDE,
            summary=Line(OVERRIDE_AT, title=titles.as_line(table.title), override=override),
            target=table,
            details={"action": action.get("type"), "version": seq},
        )
    if outcome is not None:
        _finish_line(table, seat, user, by_person)
    if outcome is not None and not table.what_if:  # a what-if never reaches the campaign (services/forks.py)
        hooks.table_finished(table)  # may raise IllegalAction: the whole action rolls back
        stake = getattr(table, "stake", None)
        if stake is not None:  # the payout saved its own copy of the stake: the page shows the paid one
            stake.refresh_from_db()
    return PlayResult(table=table, applied=True)


@transaction.atomic
def table_release_log(*, table_id: int) -> Table:
    """A seat downloads the full log (ruling P7): only of a finished table (a what-if's only once the
    tables it was forked from are over too: ``forks.fork_log_refusal``), and the first download
    closes it for good (``log_released_at``), so no undo can reopen a game whose secrets are out.

    The table row is locked, so a download and a GM undo never both succeed. The GM's own
    download does not come here.
    """
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status == Table.Status.ACTIVE:  # finished or abandoned: the game is over (ruling T2)
        raise IllegalAction(gettext("The log is available to players when the game is over."))
    refusal = forks.fork_log_refusal(table)  # a what-if's: also once the table it shows is over (ruling WI10)
    if refusal:
        raise IllegalAction(refusal)
    if table.log_released_at is None:
        table.log_released_at = timezone.now()
        table.save(update_fields=["log_released_at"])
        viewers.table_moved(table)  # the GM's Undo button says why it is gone
    return table


@transaction.atomic
def table_undo(*, table_id: int, version: int, user=None) -> Table:
    """GM undo: rebuild the state from the log without the last live action, and log the undo.

    Refused with a sentence (``IllegalAction``) whenever ``undo_refusal`` gives one.
    """
    table = selectors.with_computer_seats(Table.objects.select_for_update(of=("self",))).get(pk=table_id)
    if version != table.version:
        raise StaleVersion(table)
    refusal = undo_refusal(table)
    if refusal:
        raise IllegalAction(refusal)
    kept = list(live_actions(table).order_by("seq"))
    last = kept.pop()
    table.state = rebuild(
        table.game,
        table.config,
        table.setup_draws,
        [{"action": entry.action, "draws": entry.draws} for entry in kept],
        start_state=table.start_state,  # a what-if dealt anew starts at its fork point (services/forks.py)
    )
    table.version += 1
    if table.status != Table.Status.ACTIVE:
        viewers.members_moved(table)  # a finished game reopened: their campaign pages show it in play again
    table.status, table.outcome, table.finished_at = Table.Status.ACTIVE, None, None
    table.save(update_fields=["state", "version", "status", "outcome", "finished_at", "updated_at"])
    viewers.table_moved(table)
    turn_after_commit(table)
    TableAction.objects.create(
        table=table,
        seq=table.version,
        kind=TableAction.Kind.UNDO,
        seat=GM,
        undoes=last,
        digest=digest(table.state),
        user=user,
    )
    return table
