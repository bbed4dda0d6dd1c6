"""Reads for tables: logs, seats, lists, and what a table's page asks of its undo, stakes and abandon.

The pages read through here and ``presenters``, never through a service (``tests/test_imports.py``):
a read the writes need too (``undo_refusal``, ``table_start``) lives here and the services import it.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, QuerySet, Subquery, Sum
from django.http import Http404
from django.utils.translation import gettext, gettext_noop

from campaign.models import Activity, Campaign, LedgerEntry, Membership
from muster.prepared import Prepared

from . import hooks
from .engines.kernel import State, digest
from .engines.replay import LOG_FORMAT, LOG_VERSION, setup_state, start_state_of
from .models import ProjectorLink, Seat, Stake, Table, TableAction
from .pots import CAUSE_TYPE, pot_shares

GM_ONLY_WHAT_IF = gettext_noop("Only the GM plays this what-if, on the GM's page: no seat link opens it.")
# The seat indexes a page's table query reads the ``bot`` of (no game seats more than 5).
MAX_SEATS = 6


def with_computer_seats(tables: QuerySet) -> QuerySet:
    """``tables`` annotated with ``bot_0`` ... ``bot_5``: each seat's ``Seat.bot`` (None: no such seat).
    One subquery per seat index in the same SELECT, so no page does an extra query for the computer; not
    ordered (a table has one seat per index), so none of them joins the table for ``Seat``'s ordering."""
    return tables.annotate(
        **{
            f"bot_{index}": Subquery(
                Seat.objects.filter(table=OuterRef("pk"), index=index).order_by().values("bot")[:1]
            )
            for index in range(MAX_SEATS)
        }
    )


def with_last_undo(tables: QuerySet) -> QuerySet:
    """``tables`` annotated with ``last_undo``: the number of the newest undo in the log (None: none), in
    the same SELECT, so a seat's page knows without a query whether to say what the GM took back
    (``taken_back.seat_notes``)."""
    undos = TableAction.objects.filter(table=OuterRef("pk"), kind=TableAction.Kind.UNDO).order_by("-seq")
    return tables.annotate(last_undo=Subquery(undos.values("seq")[:1]))


def with_live_action(tables: QuerySet) -> QuerySet:
    """``tables`` annotated with ``live_action``: whether the log holds an action no undo took back, in the
    same SELECT, so the GM's Undo button (``undo_refusal``) asks no query of its own."""
    live = TableAction.objects.filter(table=OuterRef("pk"), kind=TableAction.Kind.ACTION, undone_by__isnull=True)
    return tables.annotate(live_action=Exists(live))


def with_made_by(tables: QuerySet) -> QuerySet:
    """``tables`` annotated with ``made_by``: the client action id of the move that made the table's version
    ("" for an undo, a hand-over or the computer), in the same SELECT. The page carries it (data-made-by), so
    a phone whose own answer is slow knows the push already brought its move (static/js/live.js). The play
    service sets it for the version it makes, as it sets ``live_action``."""
    made = TableAction.objects.filter(table=OuterRef("pk"), seq=OuterRef("version")).order_by()
    return tables.annotate(made_by=Subquery(made.values("client_action_id")[:1]))


def computer_seats(table: Table) -> dict[int, str]:
    """{seat index: strength} of the seats the computer plays; read from the page's annotated table
    query when it has one, else one query."""
    if hasattr(table, "bot_0"):
        return {index: bot for index in range(MAX_SEATS) if (bot := getattr(table, f"bot_{index}", None))}
    return dict(Seat.objects.filter(table_id=table.pk).exclude(bot="").values_list("index", "bot"))


def table_log(table: Table) -> dict:
    """The self-contained log documented in docs/replay-format.md."""
    about = {
        "id": table.pk,
        "title": table.title,
        "campaign": table.campaign.slug,
        "created_at": table.created_at.isoformat(),
        "status": table.status,
    }
    if table.what_if:  # a sandbox (tabletop/services/forks.py): its log says so, and where it came from
        about["what_if"] = {
            "forked_from": table.forked_from_id,
            "forked_at": table.forked_at,
            "dealt_anew": table.start_state is not None,
        }
    entries = []
    for entry in TableAction.objects.filter(table=table).select_related("undoes", "user").order_by("seq"):
        row = {"seq": entry.seq, "at": entry.created_at.isoformat(), "by": entry.user.username if entry.user else None}
        if entry.kind == TableAction.Kind.UNDO:
            row["undo"] = entry.undoes.seq
        else:
            row.update(seat=entry.seat, action=entry.action, draws=entry.draws)
        row["digest"] = entry.digest
        entries.append(row)
    if table.start_state is not None:  # a what-if dealt anew: it starts there, not from the original's set-up
        start = {"start_state": table.start_state, "start_digest": digest(table.start_state)}
    else:
        start = {
            "config": table.config,
            "setup_draws": table.setup_draws,
            "setup_digest": digest(setup_state(table.game, table.config, table.setup_draws)),
        }
    return {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "game": table.game,
        "table": about,
        **start,
        "entries": entries,
        "final_digest": digest(table.state),
    }


def campaign_tables(campaign: Campaign) -> QuerySet[Table]:
    return Table.objects.filter(campaign=campaign).prefetch_related("seats__membership__user")


def seats_of(membership: Membership) -> QuerySet[Seat]:
    """The member's seats, newest table first; a what-if only the GM plays has none to open (ruling WI10)."""
    return (
        Seat.objects.filter(membership=membership)
        .exclude(table__gm_only=True)
        .select_related("table")
        .order_by("-table__created_at")
    )


HEAVY_TABLE_FIELDS = ("state", "config", "setup_draws", "start_state", "outcome")
# What no page of a table shows (the log and replays read them): left out of the page's loads.
UNSHOWN_TABLE_FIELDS = ("config", "setup_draws", "start_state")
# A seat by its token: the seat, its table's light fields (the key: version and status) and its member
# (the character name, the user). Listing them (``only``) and not
# ordering (a token is unique) keeps the one query cheap to build: it runs on every action,
# poll and fetch of every phone.
SEAT_BY_TOKEN_FIELDS = (
    "table_id",
    "index",
    "membership_id",
    "guest_name",
    "token",
    "stake_account_id",
    "table__campaign_id",
    "table__campaign__slug",  # the page's way back to the campaign (presenters.page_links)
    "table__campaign__language",  # a guest's page reads in it (seat_page_language)
    "table__game",
    "table__title",
    "table__status",
    "table__version",
    "table__log_released_at",
    "table__gm_only",
    "table__coach",  # whether the seat may ask the computer what it would do (tabletop/computer/coach.py)
    "membership__user_id",
    "membership__character_name",
    # the member's user whole: the seat's views check the login against it and make it request.user
    # (campaign.permissions.require_own_login), so no request of a member's phone loads the user again
    *(f"membership__user__{field.name}" for field in get_user_model()._meta.concrete_fields),
)


_SEAT_BY_TOKEN = Prepared(
    lambda token: Seat.objects.select_related("table__campaign", "membership__user")
    .only(*SEAT_BY_TOKEN_FIELDS)
    .filter(token=token, bot="")
    .order_by(),  # a token is unique: no ordering (and no sort) as ``get`` would leave out
    token=str,
)


def seat_by_token(token: str) -> Seat:
    """The seat with its table's light fields (version, status): enough for polls and checks, in one
    query, compiled once per process (``muster.prepared``). Its page renders with the table of
    ``table_for_page``.

    A seat the computer plays has no link (ruling BOT32): its token is answered like one that never
    existed, on every path that reads the seat by it (page, poll, action, log, socket). A seat of a
    what-if only the GM plays opens nowhere either: it is refused with a sentence (ruling WI10)."""
    seat = _SEAT_BY_TOKEN.first(token=token)
    if seat is None:
        raise Http404("No such seat.")
    if seat.table.gm_only:  # a what-if only the GM plays holds the real deal (ruling WI10)
        raise PermissionDenied(gettext(GM_ONLY_WHAT_IF))
    return seat


def seat_page_language(seat: Seat) -> str:
    """The campaign's language where a seat's page takes it (muster/languages.py): a guest's seat, whom no
    account's choice speaks for. "" elsewhere. ``seat`` as ``seat_by_token`` reads it: no query."""
    return seat.table.campaign.language if seat.is_guest else ""


_TABLE_SEATS = Prepared(
    lambda table_id: Seat.objects.select_related("membership__user").filter(table_id=table_id).order_by("index"),
    table_id=int,
)


def table_seats(table_id: int) -> list[Seat]:
    """The table's seats with their members' users, by index: a few rows, in one query compiled once per
    process (the push reads them for every change: issue 40)."""
    return _TABLE_SEATS.all(table_id=table_id)


def tables_for_page() -> QuerySet[Table]:
    """Tables as their live region renders them: the state, the stake (``stake_summary`` reads it from
    here), the campaign (every page's links name its slug: the push renders from this alone), the seats'
    computers, the newest undo, whether an action is left to undo and which tap made the version (``made_by``);
    not the config or the setup draws."""
    tables = Table.objects.select_related("stake", "campaign")
    return with_made_by(with_live_action(with_last_undo(with_computer_seats(tables)))).defer(*UNSHOWN_TABLE_FIELDS)


_TABLE_FOR_PAGE = Prepared(lambda pk: tables_for_page().filter(pk=pk).order_by(), pk=int)


def table_for_page(pk: int) -> Table:
    """Table ``pk`` as its live region renders it (``tables_for_page``), in one query compiled once per
    process: every fetch after a push runs it."""
    table = _TABLE_FOR_PAGE.first(pk=pk)
    if table is None:
        raise Table.DoesNotExist("Table matching query does not exist.")
    return table


def table_for_campaign(campaign: Campaign, pk: int, *, light: bool = False) -> Table:
    """The campaign's table ``pk`` or 404; ``light`` leaves out the state (polls, permission checks)."""
    tables = Table.objects.filter(campaign=campaign, pk=pk)
    full = with_computer_seats(tables.select_related("stake"))  # the "thinking" line reads the seats' bot
    table = (tables.defer(*HEAVY_TABLE_FIELDS) if light else full).first()
    if table is None:
        raise Http404("No such table.")
    table.campaign = campaign  # the page's links name its slug: no query for it
    return table


# --- the projector link (issue 25, ruling PJ1) --------------------------------------------------

PROJECTOR_REFUSED = gettext_noop("This projector link was revoked, or never was: ask the GM for the current one.")


def table_by_projector_token(token: str, *, light: bool = False) -> Table:
    """The table a projector link shows, as its live region renders it (``light``: without the state, for
    polls and sockets); Http404 with the refusal's sentence for a revoked or forged link. A what-if only
    the GM plays is never projected (ruling WI10)."""
    tables = Table.objects.filter(projector__token=token, gm_only=False).select_related("campaign")  # its language
    if light:
        tables = tables.defer(*HEAVY_TABLE_FIELDS)
    else:
        tables = with_computer_seats(tables.select_related("stake")).defer(*UNSHOWN_TABLE_FIELDS)
    table = tables.first()
    if table is None:
        raise Http404(PROJECTOR_REFUSED)  # English, for the request log: the page says it translated
    return table


def projector_link(table_id: int) -> ProjectorLink | None:
    return ProjectorLink.objects.filter(table_id=table_id).first()


# --- undo ------------------------------------------------------------------------------

# The sentences of a refused write or undo: English here (a module constant), said in the reader's language
# where a page shows them (``gettext``).
LOG_RELEASED = gettext_noop(
    "A player has downloaded this table's full log, so every hidden card of it is known: "
    "the game is closed for good and cannot be undone."
)
NOTHING_TO_UNDO = gettext_noop("There is nothing to undo.")
ABANDONED = gettext_noop("This table was abandoned: nothing more can be played or undone.")
COMPUTER_SEAT = gettext_noop("The computer is playing this seat; hand it back to a person to decide for it.")


def table_start(table: Table) -> State:
    """Where ``table``'s log starts: its ``start_state`` (a what-if dealt anew), else its set-up."""
    return start_state_of(table.game, table.config, table.setup_draws, table.start_state)


def undo_refusal(table: Table) -> str | None:
    """Why GM undo cannot work on ``table`` now, as a sentence, or None.

    The one rule behind both the GM page's Undo button (disabled, with this reason) and
    ``services.tables.table_undo``: the log was released to a seat (ruling P7); a game's ``undo_blocked``
    hook refuses (stakes paid out, a battle in the rosters); nothing is left to undo.
    """
    if table.status == Table.Status.ABANDONED:
        return gettext(ABANDONED)
    if table.log_released_at is not None:
        return gettext(LOG_RELEASED)
    refusal = None if table.what_if else hooks.undo_refusal(table)  # a what-if wrote nothing to guard
    if refusal:
        return refusal
    if table.version == 0:
        return gettext(NOTHING_TO_UNDO)
    live = getattr(table, "live_action", None)  # read with the page's table (with_live_action)
    if not (live_actions(table).exists() if live is None else live):
        return gettext(NOTHING_TO_UNDO)
    return None


def live_actions(table: Table) -> QuerySet[TableAction]:
    """``table``'s log entries that are actions no undo took back."""
    return TableAction.objects.filter(table=table, kind=TableAction.Kind.ACTION, undone_by__isnull=True)


# --- stakes and abandon ----------------------------------------------------------------


def stake_summary(table: Table) -> dict | None:
    """The table's stakes for its page: fee, pot, and per staked seat what it paid and received.

    No query for an unstaked table loaded with its stake (``table_for_page``, the play service's locked
    table); otherwise one to find out.
    """
    stake = getattr(table, "stake", None)  # a missing one-to-one raises an AttributeError: None
    if stake is None:
        return None
    seats = list(
        Seat.objects.filter(table_id=table.pk, stake_account__isnull=False)
        .select_related("membership__user", "stake_account")
        .order_by("index")
    )
    received = {}
    if stake.is_paid_out:
        received = dict(
            LedgerEntry.objects.filter(
                cause_type=CAUSE_TYPE, cause_id=table.pk, kind=LedgerEntry.Kind.STAKE, amount__gt=0
            )
            .order_by()
            .values_list("account_id")
            .annotate(total=Sum("amount"))
        )
    rows = [
        {"seat": seat, "account": seat.stake_account, "received": received.get(seat.stake_account_id, 0)}
        for seat in seats
    ]
    return {"stake": stake, "pot": stake.entry_fee * len(seats), "rows": rows,
            "refunded": stake.is_paid_out and _fees_returned(table, stake, seats)}


def _fees_returned(table: Table, stake: Stake, seats: list[Seat]) -> bool:
    """Whether what the staked seats got back were their own fees, not winnings (issue 35: "paid 5,
    refunded 5", not "received 5"): the table was abandoned, or the payout returned every fee (no staked
    seat won, or a shared win under ``tie_returns``), as ``pot_shares`` decided it at the end."""
    if table.status == Table.Status.ABANDONED:
        return True
    winners = [int(seat) for seat in (table.outcome or {}).get("winners", [])]
    shares = pot_shares(entry_fee=stake.entry_fee, payout=stake.payout, staked=[s.index for s in seats],
                        winners=winners)
    return bool(shares) and all(share.returned for share in shares)


def abandon_note(table: Table) -> Activity | None:
    """The activity line that abandoned ``table`` (who, which day, why), or None."""
    if table.status != Table.Status.ABANDONED:
        return None
    return (
        Activity.objects.filter(
            campaign_id=table.campaign_id, kind=Activity.Kind.TABLE_ABANDON, target_type="table", target_id=table.pk
        )
        .order_by("-created_at", "-id")
        .first()
    )
