"""The tables of a campaign in an archive: tables, their seats, action logs and stakes
(docs/archive-format.md).

Tables are proven on the way in: the table record carries the digest of its state, every action its own
digest, and the import replays each table's log through its engine (tabletop/engines/replay.py), refusing the
archive at the first entry that does not reach its digest. archive/proof.py runs the same steps
(``_replay_step``, ``_finish_table``) before the write pass. A seat's secret link does not travel: the import
makes a new one. A seat a waiting claim gives back travels as that claim's (archive/sections/people.py).

Where these kinds load among the others: archive/sections/kinds.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop

from campaign.bounds import MAX_COINS
from campaign.models import Campaign
from people.selectors.claims import waiting_claim_of
from tabletop.engines import ENGINES
from tabletop.engines.kernel import IllegalAction, digest
from tabletop.engines.replay import ReplayError, apply_recorded, start_state_of
from tabletop.models import Seat, Stake, Table, TableAction

from .. import records as r
from ..context import ImportContext, claimant
from ..format import ArchiveRefused
from ..records import CHUNK, iso, username
from . import Section, register

# Orders (archive/sections/kinds.py shows every kind's place among them)
TABLE, SEAT, TABLE_ACTION, STAKE = 100, 110, 120, 130

# Choices as sets, made once: an enum's ``values`` builds a new list at every call (18 % of the write pass
# of 200,000 activity records, bench/archive.py --attack lock).
GAMES = frozenset(name for name in Table.Game.values if name in ENGINES)
TABLE_STATUSES, ACTION_KINDS = frozenset(Table.Status.values), frozenset(TableAction.Kind.values)
SEAT_BOTS = frozenset(value for value, _ in Seat._meta.get_field("bot").choices)
STAKE_PAYOUTS = frozenset(Stake.Payout.values)


# ------------------------------------------------------------------------------------------------ tables


def export_tables(campaign: Campaign) -> Iterator[dict]:
    # forks come after what they were forked from: ids grow, and a fork is made from an existing table
    tables = Table.objects.filter(campaign=campaign).select_related("created_by").order_by("pk")
    for table in tables.iterator(chunk_size=200):
        yield {
            "id": table.pk,
            "game": table.game,
            "title": table.title,
            "config": table.config,
            "seed": table.seed,
            "setup_draws": table.setup_draws,
            "start_state": table.start_state,
            "version": table.version,
            "digest": digest(table.state),
            "status": table.status,
            "outcome": table.outcome,
            "what_if": table.what_if,
            "forked_from_id": table.forked_from_id,
            "forked_at": table.forked_at,
            "gm_only": table.gm_only,
            "coach": table.coach,
            "created_by": username(table.created_by),
            "created_at": iso(table.created_at),
            "finished_at": iso(table.finished_at),
            "log_released_at": iso(table.log_released_at),
        }


# A table's version counts every change at it (a stale page is refused), its log only the moves and undos:
# an entry's ``seq`` is the version it made, and the GM's settings (the coach on or off, a seat handed to the
# computer or back) count versions no entry has (issue 35). So a log's entries come in rising ``seq``, gaps
# allowed, none past the table's version, which travels as it was. Its bound leaves a billion changes of room
# after an import (the column holds 2**31 - 1).
MAX_TABLE_VERSION = 2**30


@dataclass
class Replaying:
    """A table on its way in: its log is replayed as its actions arrive (they come table by table, in
    order), keeping the states still in force (an undo pops one). ``seq``: the latest entry's."""

    table: Table
    title: str
    wanted_digest: str
    version: int
    states: list[Any] | None = None  # None until its first action arrives
    action_ids: list[int] = field(default_factory=list)  # source ids of the actions in force
    seq: int = 0


# Why a table does not replay, as its refusal ends: only a digest says the archive was changed; a move or a
# set-up the engine refuses is another Muster's rules; a log out of order is a log no Muster writes (named, not
# blamed). ``error`` is the engine's own sentence.
SETUP_REFUSED = gettext_noop("The table “%(title)s” does not replay from its log (its set-up: %(error)s): the "
                             "archive was made by a Muster whose rules differ.")
MOVE_REFUSED = gettext_noop("The table “%(title)s” does not replay from its log (entry %(entry)d: %(error)s): the "
                            "archive was made by a Muster whose rules differ.")
ENTRY_DIGEST = gettext_noop("The table “%(title)s” does not replay from its log (entry %(entry)d: its state differs "
                            "from the recorded digest): the archive was changed, or made by a Muster whose rules "
                            "differ.")
END_DIGEST = gettext_noop("The table “%(title)s” does not replay from its log (its end: the final state differs "
                          "from the table's digest): the archive was changed, or made by a Muster whose rules differ.")
ENTRY_LATE = gettext_noop("The table “%(title)s” has a log no Muster writes (entry %(entry)d: it comes after entry "
                          "%(previous)d).")
UNDO_NOTHING = gettext_noop("The table “%(title)s” has a log no Muster writes (entry %(entry)d: it undoes an action "
                            "that does not exist).")
UNDO_OTHER = gettext_noop("The table “%(title)s” has a log no Muster writes (entry %(entry)d: it undoes an action "
                          "other than the latest in force).")
PAST_VERSION = gettext_noop("The table “%(title)s” has a log no Muster writes (its end: its last entry is "
                            "%(last)d, past the table's version %(version)d).")


def _refuse_table(message: str, title: str, **params: Any) -> ArchiveRefused:
    return ArchiveRefused(message, title=title[:80], **params)


def _start(game: str, table: Table, title: str) -> Any:
    try:
        return start_state_of(game, table.config, table.setup_draws, table.start_state)
    except (ReplayError, IllegalAction, KeyError, TypeError, ValueError, IndexError) as error:
        raise _refuse_table(SETUP_REFUSED, title, error=str(error)[:200]) from None


def load_table(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    game = r.choice(record, "game", GAMES)
    title = r.text(record, "title", 120)
    forked_from = r.ident(record, "forked_from_id", null=True)
    table = Table(
        campaign=ctx.campaign,
        game=game,
        title=title,
        config=r.json_value(record, "config", types=(dict,)),
        seed=r.integer(record, "seed", -(2**63), 2**63 - 1),
        setup_draws=r.json_value(record, "setup_draws", types=(list,)),
        start_state=r.json_value(record, "start_state", types=(dict, list), null=True),
        version=r.integer(record, "version", 0, MAX_TABLE_VERSION),
        status=r.choice(record, "status", TABLE_STATUSES),
        outcome=r.json_value(record, "outcome", types=(dict, list, str), null=True),
        what_if=r.boolean(record, "what_if"),
        forked_from_id=ctx.id_for("table", forked_from, what=r.named(gettext_noop("table %(id)s"), id=old_id)),
        forked_at=r.integer(record, "forked_at", 0, 2**31 - 1, null=True),
        gm_only=r.boolean(record, "gm_only"),
        coach=r.boolean(record, "coach", default=False),  # an archive older than the coach: off (ruling CO1)
        created_by=ctx.member_user(record.get("created_by")),
        finished_at=r.moment(record, "finished_at", null=True),
        log_released_at=r.moment(record, "log_released_at", null=True),
    )
    wanted = r.text(record, "digest", 64, blank=False)
    if ctx.proven_states is not None:  # replayed to its digest before the write transaction (archive/proof.py)
        table.state = ctx.proven_states.take(old_id)
        ctx.add(table, kind="table", old_id=old_id, times={"created_at": r.moment(record, "created_at")})
        return
    table.state = _start(game, table, title)  # refuses a set-up that does not replay
    ctx.replaying[old_id] = Replaying(table, title, wanted, table.version)
    if ctx.tables_check is None:
        ctx.tables_check = lambda: finish_tables(ctx)
    ctx.after(ctx.tables_check)
    # once written, the start state is not kept: a campaign's tables are not all held in memory at once
    ctx.add(table, kind="table", old_id=old_id, times={"created_at": r.moment(record, "created_at")},
            then=lambda saved: setattr(saved, "state", None))


def export_seats(campaign: Campaign) -> Iterator[dict]:
    seats = Seat.objects.filter(table__campaign=campaign).annotate(
        claim=waiting_claim_of(campaign, "seat"), claim_seat_name=waiting_claim_of(campaign, "seat", "seat_name"))
    for seat in seats.order_by("table_id", "index").iterator(chunk_size=CHUNK):
        member, guest_name = seat.membership_id, seat.guest_name
        if seat.claim is not None:  # a guest's of the member's name until their claim gives it back, and its name
            member, guest_name = claimant(seat.claim), seat.claim_seat_name
        yield {
            "id": seat.pk,
            "table_id": seat.table_id,
            "index": seat.index,
            "membership_id": member,
            "guest_name": guest_name,
            "stake_account_id": seat.stake_account_id,
            "bot": seat.bot,
        }


def load_seat(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    member_old = ctx.member_ident(record, "membership_id", null=True)
    guest_name = r.text(record, "guest_name", 60)
    what = r.named(gettext_noop("seat %(id)s"), id=old_id)
    membership_id = ctx.id_for("member", member_old, what=what)
    unclaimed = ctx.unclaimed_member(member_old)
    if unclaimed is not None:  # a guest of that name until their claim gives the seat (and its own name) back
        unclaimed.seats.append((old_id, guest_name))
        guest_name = guest_name or unclaimed.display_name[:60] or unclaimed.username[:60]
    if membership_id is None and not guest_name:
        raise ArchiveRefused(gettext_noop("The archive's seat %(id)s has neither a member nor a guest's name."),
                             id=repr(old_id))
    ctx.add(
        Seat(
            table_id=ctx.id_for("table", r.ident(record, "table_id"), what=what),
            index=r.integer(record, "index", 0, 32767),
            membership_id=membership_id,
            guest_name=guest_name,
            stake_account_id=ctx.id_for("account", r.ident(record, "stake_account_id", null=True), what=what),
            bot=r.choice(record, "bot", SEAT_BOTS),
        ),
        kind="seat", old_id=old_id,
    )


def export_table_actions(campaign: Campaign) -> Iterator[dict]:
    actions = (TableAction.objects.filter(table__campaign=campaign).select_related("user")
               .order_by("table_id", "seq"))
    for entry in actions.iterator(chunk_size=CHUNK):
        yield {
            "id": entry.pk,
            "table_id": entry.table_id,
            "seq": entry.seq,
            "action_kind": entry.kind,
            "seat": entry.seat,
            "action": entry.action,
            "draws": entry.draws,
            "undoes_id": entry.undoes_id,
            "digest": entry.digest,
            "client_action_id": entry.client_action_id,
            "user": username(entry.user),
            "created_at": iso(entry.created_at),
        }


def _replay_step(record: dict, ctx: ImportContext, table_old: int) -> None:
    replaying = ctx.replaying.get(table_old)
    if replaying is None:
        raise ArchiveRefused(gettext_noop("The archive's table action %(id)s belongs to no table it holds."),
                             id=repr(record.get("id")))
    if ctx.current_table not in (None, table_old):
        _finish_table(ctx, ctx.current_table)
    if replaying.states is None:
        replaying.states = [_start(replaying.table.game, replaying.table, replaying.title)]
    ctx.current_table = table_old
    seq = r.integer(record, "seq", 1, 2**31 - 1)
    if seq <= replaying.seq:  # gaps are the GM's settings, which count a version and log nothing
        raise _refuse_table(ENTRY_LATE, replaying.title, entry=seq, previous=replaying.seq)
    replaying.seq = seq
    game = replaying.table.game
    if record.get("action_kind") == TableAction.Kind.UNDO:
        if len(replaying.states) < 2:
            raise _refuse_table(UNDO_NOTHING, replaying.title, entry=seq)
        if record.get("undoes_id") != replaying.action_ids[-1]:
            raise _refuse_table(UNDO_OTHER, replaying.title, entry=seq)
        replaying.states.pop()
        replaying.action_ids.pop()
    else:
        action = r.json_value(record, "action", types=(dict,))
        draws = r.json_value(record, "draws", types=(list,))
        try:
            replaying.states.append(apply_recorded(game, replaying.states[-1], action, draws))
        except (ReplayError, IllegalAction, KeyError, TypeError, ValueError, IndexError) as error:
            raise _refuse_table(MOVE_REFUSED, replaying.title, entry=seq, error=str(error)[:200]) from None
        replaying.action_ids.append(r.ident(record))
    if digest(replaying.states[-1]) != record.get("digest"):
        raise _refuse_table(ENTRY_DIGEST, replaying.title, entry=seq)


def _finish_table(ctx: ImportContext, table_old: int) -> None:
    """The table's log is all in: its state is the replayed one, which must be the archive's."""
    replaying = ctx.replaying.pop(table_old)
    ctx.current_table = None
    if replaying.states is None:  # no action: the table is where it starts
        replaying.states = [_start(replaying.table.game, replaying.table, replaying.title)]
    replaying.table.state = replaying.states[-1]
    if replaying.seq > replaying.version:  # below it: the GM's settings counted versions (MAX_TABLE_VERSION)
        raise _refuse_table(PAST_VERSION, replaying.title, last=replaying.seq, version=replaying.version)
    if digest(replaying.table.state) != replaying.wanted_digest:
        raise _refuse_table(END_DIGEST, replaying.title)
    ctx.replayed_states.append(replaying.table)
    if len(ctx.replayed_states) >= 200:
        _store_states(ctx)


def _store_states(ctx: ImportContext) -> None:
    ctx.flush()
    Table._base_manager.bulk_update(ctx.replayed_states, ["state"], batch_size=200)
    for table in ctx.replayed_states:
        table.state = None
    ctx.replayed_states.clear()


def load_table_action(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    table_old = r.ident(record, "table_id")
    if ctx.proven_states is None:  # else replayed before the write transaction (archive/proof.py)
        _replay_step(record, ctx, table_old)
    kind = r.choice(record, "action_kind", ACTION_KINDS)
    what = r.named(gettext_noop("table action %(id)s"), id=old_id)
    ctx.add(
        TableAction(
            table_id=ctx.id_for("table", table_old, what=what),
            seq=r.integer(record, "seq", 1, 2**31 - 1),
            kind=kind,
            seat=r.text(record, "seat", 8),
            action=r.json_value(record, "action", types=(dict,), null=True),
            draws=r.json_value(record, "draws", types=(list,)),
            undoes_id=ctx.id_for("table_action", r.ident(record, "undoes_id", null=True), what=what),
            digest=r.text(record, "digest", 64, blank=False),
            client_action_id=r.text(record, "client_action_id", 64),
            user=ctx.member_user(record.get("user")),
        ),
        kind="table_action", old_id=old_id, times={"created_at": r.moment(record, "created_at")},
    )


def finish_tables(ctx: ImportContext) -> None:
    """Every table's log is in: check the tables whose log has not ended yet (and those without one),
    and store each replayed state."""
    for table_old in list(ctx.replaying):
        _finish_table(ctx, table_old)
    if ctx.replayed_states:
        _store_states(ctx)


def export_stakes(campaign: Campaign) -> Iterator[dict]:
    for stake in Stake.objects.filter(table__campaign=campaign).order_by("pk").iterator(chunk_size=CHUNK):
        yield {"id": stake.pk, "table_id": stake.table_id, "entry_fee": stake.entry_fee, "payout": stake.payout,
               "paid_out_at": iso(stake.paid_out_at)}


def load_stake(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    what = r.named(gettext_noop("stake %(id)s"), id=old_id)
    ctx.add(
        Stake(table_id=ctx.id_for("table", r.ident(record, "table_id"), what=what),
              entry_fee=r.integer(record, "entry_fee", 1, MAX_COINS),
              payout=r.choice(record, "payout", STAKE_PAYOUTS),
              paid_out_at=r.moment(record, "paid_out_at", null=True)),
        kind="stake", old_id=old_id,
    )


register(Section("table", TABLE, export_tables, load_table, names=("table",)))
register(Section("seat", SEAT, export_seats, load_seat, names=("seat",)))
register(Section("table_action", TABLE_ACTION, export_table_actions, load_table_action, names=("tableaction",)))
register(Section("stake", STAKE, export_stakes, load_stake, names=("stake",)))
