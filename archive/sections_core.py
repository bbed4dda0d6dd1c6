"""The campaign, people and tabletop sections of an archive (docs/archive-format.md).

Each section exports a campaign's rows of one kind as plain records and loads one record into the new
campaign. Users travel by user name only, never with a password, an e-mail address or a session, and
an import matches no account here by that name but the importer's own: every other member becomes a
claim invite (``ImportContext.make_claims``: their whole place, people/services/claims.py), which the
person uses themself, so an archive never makes an existing account a member of anything (an outside
attack did exactly that, issue 34). A claim not used yet is exported as the member it stands for
(``export_members``, its id "claim-<n>", archive/context.py ``CLAIM_ID``; format version 2), and its seats,
accounts and commanders name it as they would the member, so an archive of a campaign whose claims wait (the
nightly backup's) makes the same claims again. A user a record
names (an actor, a table's creator) is the importer or nobody; the activity line keeps the name it
showed. Secret links (seat and invite tokens) do not travel either: the import makes new ones, and an
imported invite is held to the invite form's bounds (``load_invite``).

Tables are proven on the way in: the table record carries the digest of its state, every action its
own digest, and the import replays each table's log through its engine (tabletop/engines/replay.py),
refusing the archive at the first entry that does not reach its digest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db.models import Count, F, Sum
from django.utils import timezone

from campaign.bounds import MAX_COINS, MAX_COOLDOWN_MINUTES, MAX_DAY, MAX_LEDGER_AMOUNT
from campaign.models import Account, Activity, Campaign, Day, LedgerEntry, Membership, validate_time_zone
from people.models import MAX_GM_INVITE_USES, MAX_INVITE_DAYS, MAX_INVITE_USES, Invite
from people.selectors import waiting_claim_of, waiting_claims
from tabletop.engines import ENGINES
from tabletop.engines.kernel import IllegalAction, digest
from tabletop.engines.replay import ReplayError, apply_recorded, start_state_of
from tabletop.models import Seat, Stake, Table, TableAction

from . import records as r
from .context import ImportContext, Unclaimed, claim_ident, claimant
from .format import ArchiveRefused
from .records import iso
from .sections import Section, register

CHUNK = 2000

# Orders (armies/sections_armies.py fits its kinds between them: see its docstring)
CAMPAIGN, DAY, MEMBER, ACCOUNT = 10, 20, 30, 40
TABLE, SEAT, TABLE_ACTION, STAKE = 100, 110, 120, 130
INVITE, ACTIVITY, LEDGER_ENTRY = 160, 170, 180

# Choices as sets, made once: an enum's ``values`` builds a new list at every call (18 % of the write pass
# of 200,000 activity records, bench/archive.py --attack lock).
DESERTIONS, MEMBER_ROLES = frozenset(Campaign.Desertion.values), frozenset(Membership.Role.values)
LEDGER_KINDS, ACTIVITY_KINDS = frozenset(LedgerEntry.Kind.values), frozenset(Activity.Kind.values)
GAMES = frozenset(name for name in Table.Game.values if name in ENGINES)
TABLE_STATUSES, ACTION_KINDS = frozenset(Table.Status.values), frozenset(TableAction.Kind.values)
SEAT_BOTS = frozenset(value for value, _ in Seat._meta.get_field("bot").choices)
STAKE_PAYOUTS = frozenset(Stake.Payout.values)


def _username(user) -> str | None:
    return None if user is None else user.get_username()


# ------------------------------------------------------------------------------------------------ campaign


def export_campaign(campaign: Campaign) -> Iterator[dict]:
    yield {
        "id": campaign.pk,
        "name": campaign.name,
        "slug": campaign.slug,
        "description": campaign.description,
        "current_day": campaign.current_day,
        "allow_credit": campaign.allow_credit,
        "desertion": campaign.desertion,
        "day_end_time": iso(campaign.day_end_time),
        "time_zone": campaign.time_zone,
        "battle_cooldown_minutes": campaign.battle_cooldown_minutes,
        "created_at": iso(campaign.created_at),
    }


def load_campaign(record: dict, ctx: ImportContext) -> None:
    if ctx.ids["campaign"]:
        raise ArchiveRefused("The archive holds two campaigns.")
    campaign = ctx.campaign
    campaign.name = r.text(record, "name", 120, blank=False)
    campaign.description = r.text(record, "description", 20_000)
    campaign.current_day = r.integer(record, "current_day", 1, MAX_DAY)
    campaign.allow_credit = r.boolean(record, "allow_credit")
    campaign.desertion = r.choice(record, "desertion", DESERTIONS)
    campaign.day_end_time = r.time_of_day(record, "day_end_time", null=True)
    campaign.time_zone = r.text(record, "time_zone", 64, blank=False)
    try:
        validate_time_zone(campaign.time_zone)
    except Exception:
        raise ArchiveRefused(
            f"The archive's campaign has the time zone {campaign.time_zone!r}, which this site does not know."
        ) from None
    campaign.battle_cooldown_minutes = r.integer(record, "battle_cooldown_minutes", 0, MAX_COOLDOWN_MINUTES)
    campaign.save()
    Campaign.objects.filter(pk=campaign.pk).update(created_at=r.moment(record, "created_at"))
    ctx.record_id("campaign", r.ident(record), campaign.pk)


# ------------------------------------------------------------------------------------------------ days


def export_days(campaign: Campaign) -> Iterator[dict]:
    for day in Day.objects.filter(campaign=campaign).order_by("number").iterator(chunk_size=CHUNK):
        yield {"id": day.pk, "number": day.number, "opened_at": iso(day.opened_at), "closed_at": iso(day.closed_at)}


def load_day(record: dict, ctx: ImportContext) -> None:
    ctx.add(
        Day(campaign=ctx.campaign, number=r.integer(record, "number", 1, MAX_DAY),
            closed_at=r.moment(record, "closed_at", null=True)),
        kind="day", old_id=r.ident(record), times={"opened_at": r.moment(record, "opened_at")},
    )


# ------------------------------------------------------------------------------------------------ members


def export_members(campaign: Campaign) -> Iterator[dict]:
    """The members, then each claim whose place still waits (``waiting_claims``: not used, not revoked) as the
    member it stands for, so an import makes that claim again (docs/archive-format.md, version 2)."""
    members = Membership.objects.filter(campaign=campaign).select_related("user").order_by("pk")
    for member in members.iterator(chunk_size=CHUNK):
        yield {
            "id": member.pk,
            "username": member.user.get_username(),
            "display_name": member.display_name,
            "character_name": member.character_name,
            "role": member.role,
            "joined_at": iso(member.joined_at),
        }
    claims = waiting_claims(campaign).select_related("invite").order_by("pk")
    for claim in claims.iterator(chunk_size=CHUNK):
        yield {
            "id": claim_ident(claim.pk),
            "username": claim.username,
            "display_name": claim.display_name,
            "character_name": claim.character_name,
            "role": claim.invite.role,
            "joined_at": iso(claim.joined_at or claim.invite.created_at),
        }


def load_member(record: dict, ctx: ImportContext) -> None:
    old_id = ctx.member_ident(record)
    username = r.text(record, "username", 150, blank=False)
    display_name = r.text(record, "display_name", 300)
    character_name = r.text(record, "character_name", 120)
    role = r.choice(record, "role", MEMBER_ROLES)
    importer = ctx.is_importer(username)  # refuses a name that is no user name (a path, say)
    if not isinstance(old_id, str):  # a waiting claim may share its name with a member (or another claim):
        # it matches no account, so its name is only the GM's label for whom to hand the link
        if username in ctx.member_names:
            raise ArchiveRefused(f"The archive holds the member {username!r} twice.")
        ctx.member_names.add(username)
    if not importer or ctx.importer_was_member:  # the importer holds one place: a member's before a claim's
        # anyone else, with an account here or not: an invite to claim their place, never a membership
        ctx.record_id("member", old_id, None)
        ctx.unclaimed[old_id] = Unclaimed(username, display_name, role, character_name,
                                          r.moment(record, "joined_at"))
        return
    # the importer is the new campaign's GM already
    Membership.objects.filter(pk=ctx.importer_membership.pk).update(
        character_name=character_name, joined_at=r.moment(record, "joined_at"))
    ctx.record_id("member", old_id, ctx.importer_membership.pk)
    ctx.importer_was_member = True


# ------------------------------------------------------------------------------------------------ accounts


def export_accounts(campaign: Campaign) -> Iterator[dict]:
    accounts = (Account.objects.filter(campaign=campaign)
                .annotate(balance=Sum("entries__amount"), claim=waiting_claim_of(campaign, "account")).order_by("pk"))
    for account in accounts.iterator(chunk_size=CHUNK):
        yield {
            "id": account.pk,
            "name": account.name,
            "owner_id": account.owner_id if account.claim is None else claimant(account.claim),  # nobody's till then
            "balance": account.balance or 0,
            "created_at": iso(account.created_at),
        }


def load_account(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    ctx.balances[old_id] = r.integer(record, "balance", -(2**62), 2**62)
    ctx.after(_check_balances_of(ctx))
    owner_old = ctx.member_ident(record, "owner_id", null=True)
    ctx.add(
        Account(campaign=ctx.campaign, name=r.text(record, "name", 120),
                owner_id=ctx.id_for("member", owner_old, what=f"account {old_id}")),
        kind="account", old_id=old_id, times={"created_at": r.moment(record, "created_at")},
    )
    unclaimed = ctx.unclaimed_member(owner_old)
    if unclaimed is not None:  # nobody's until its owner's claim is used
        unclaimed.accounts.append(old_id)


def export_ledger(campaign: Campaign) -> Iterator[dict]:
    entries = (LedgerEntry.objects.filter(account__campaign=campaign).select_related("created_by")
               .order_by("account_id", "pk"))
    for entry in entries.iterator(chunk_size=CHUNK):
        yield {
            "id": entry.pk,
            "account_id": entry.account_id,
            "amount": entry.amount,
            "day": entry.day,
            "ledger_kind": entry.kind,
            "reason": entry.reason,
            "cause_type": entry.cause_type,
            "cause_id": entry.cause_id,
            "created_by": _username(entry.created_by),
            "created_at": iso(entry.created_at),
        }


def load_ledger_entry(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    account_id = r.ident(record, "account_id")
    amount = r.integer(record, "amount", -MAX_LEDGER_AMOUNT, MAX_LEDGER_AMOUNT)
    entry = LedgerEntry(
        account_id=ctx.id_for("account", account_id, what=f"ledger entry {old_id}"),
        amount=amount,
        day=r.integer(record, "day", 1, MAX_DAY),
        kind=r.choice(record, "ledger_kind", LEDGER_KINDS),
        reason=r.text(record, "reason", 240),
        cause_type=r.text(record, "cause_type", 40),
        created_by=ctx.member_user(record.get("created_by")),
    )
    ctx.free_ref(entry, "cause_id", entry.cause_type, r.integer(record, "cause_id", 0, 2**63 - 1, null=True))
    ctx.add(entry, kind="ledger_entry", old_id=old_id, times={"created_at": r.moment(record, "created_at")})


def _check_balances_of(ctx: ImportContext):
    if ctx.balance_check is None:
        ctx.balance_check = lambda: _check_balances(ctx)
    return ctx.balance_check


def _check_balances(ctx: ImportContext) -> None:
    """Every account's balance after the import is the one the archive states (its entries all arrived)."""
    wanted = {ctx.ids["account"][old]: balance for old, balance in ctx.balances.items()}
    names = dict(Account.objects.filter(campaign=ctx.campaign).values_list("pk", "name"))
    found = dict(
        Account.objects.filter(campaign=ctx.campaign).annotate(balance=Sum("entries__amount"))
        .values_list("pk", "balance")
    )
    for pk, balance in wanted.items():
        if (found.get(pk) or 0) != balance:
            raise balance_refusal(names.get(pk), found.get(pk) or 0, balance)


def balance_refusal(name: str | None, found: int, wanted: int) -> ArchiveRefused:
    """An account whose ledger entries do not come to the balance the archive states (checked before the
    write pass by archive/proof.py, and once more after it here)."""
    return ArchiveRefused(f"The account “{name}” comes to {found} coins from its ledger entries, but the archive "
                          f"says {wanted}: its ledger is incomplete or was changed.")


# ------------------------------------------------------------------------------------------------ activity


def export_activity(campaign: Campaign) -> Iterator[dict]:
    lines = Activity.objects.filter(campaign=campaign).select_related("actor").order_by("pk")
    for line in lines.iterator(chunk_size=CHUNK):
        yield {
            "id": line.pk,
            "actor": _username(line.actor),
            "actor_name": line.actor_name,
            "day": line.day,
            "activity_kind": line.kind,
            "summary": line.summary,
            "target_type": line.target_type,
            "target_id": line.target_id,
            "details": line.details,
            "created_at": iso(line.created_at),
        }


def load_activity(record: dict, ctx: ImportContext) -> None:
    line = Activity(
        campaign=ctx.campaign,
        actor=ctx.member_user(record.get("actor")),
        actor_name=r.text(record, "actor_name", 150),
        day=r.integer(record, "day", 1, MAX_DAY),
        kind=r.choice(record, "activity_kind", ACTIVITY_KINDS),
        summary=r.text(record, "summary", 300),
        target_type=r.text(record, "target_type", 40),
        details=r.json_value(record, "details", types=(dict,)),
    )
    ctx.free_ref(line, "target_id", line.target_type, r.integer(record, "target_id", 0, 2**63 - 1, null=True))
    ctx.add(line, kind="activity", old_id=r.ident(record), times={"created_at": r.moment(record, "created_at")})


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
            "created_by": _username(table.created_by),
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
# set-up the engine refuses is another Muster's rules; a log out of order is a log no Muster writes.
DIGEST_DIFFERS = "the archive was changed, or made by a Muster whose rules differ"
RULES_DIFFER = "the archive was made by a Muster whose rules differ"


def _refuse_table(title: str, where: str, why: str, because: str = DIGEST_DIFFERS) -> ArchiveRefused:
    return ArchiveRefused(f"The table “{title[:80]}” does not replay from its log ({where}: {why}): {because}.")


def _odd_log(title: str, where: str, why: str) -> ArchiveRefused:
    """A log no Muster writes (its entries out of order, an undo of what is not in force): named, not blamed."""
    return ArchiveRefused(f"The table “{title[:80]}” has a log no Muster writes ({where}: {why}).")


def _start(game: str, table: Table, title: str) -> Any:
    try:
        return start_state_of(game, table.config, table.setup_draws, table.start_state)
    except (ReplayError, IllegalAction, KeyError, TypeError, ValueError, IndexError) as error:
        raise _refuse_table(title, "its set-up", str(error)[:200], RULES_DIFFER) from None


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
        forked_from_id=ctx.id_for("table", forked_from, what=f"table {old_id}"),
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
    membership_id = ctx.id_for("member", member_old, what=f"seat {old_id}")
    unclaimed = ctx.unclaimed_member(member_old)
    if unclaimed is not None:  # a guest of that name until their claim gives the seat (and its own name) back
        unclaimed.seats.append((old_id, guest_name))
        guest_name = guest_name or unclaimed.display_name[:60] or unclaimed.username[:60]
    if membership_id is None and not guest_name:
        raise ArchiveRefused(f"The archive's seat {old_id!r} has neither a member nor a guest's name.")
    ctx.add(
        Seat(
            table_id=ctx.id_for("table", r.ident(record, "table_id"), what=f"seat {old_id}"),
            index=r.integer(record, "index", 0, 32767),
            membership_id=membership_id,
            guest_name=guest_name,
            stake_account_id=ctx.id_for("account", r.ident(record, "stake_account_id", null=True),
                                        what=f"seat {old_id}"),
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
            "user": _username(entry.user),
            "created_at": iso(entry.created_at),
        }


def _replay_step(record: dict, ctx: ImportContext, table_old: int) -> None:
    replaying = ctx.replaying.get(table_old)
    if replaying is None:
        raise ArchiveRefused(f"The archive's table action {record.get('id')!r} belongs to no table it holds.")
    if ctx.current_table not in (None, table_old):
        _finish_table(ctx, ctx.current_table)
    if replaying.states is None:
        replaying.states = [_start(replaying.table.game, replaying.table, replaying.title)]
    ctx.current_table = table_old
    seq = r.integer(record, "seq", 1, 2**31 - 1)
    if seq <= replaying.seq:  # gaps are the GM's settings, which count a version and log nothing
        raise _odd_log(replaying.title, f"entry {seq}", f"it comes after entry {replaying.seq}")
    replaying.seq = seq
    game = replaying.table.game
    where = f"entry {seq}"
    if record.get("action_kind") == TableAction.Kind.UNDO:
        if len(replaying.states) < 2:
            raise _odd_log(replaying.title, where, "it undoes an action that does not exist")
        if record.get("undoes_id") != replaying.action_ids[-1]:
            raise _odd_log(replaying.title, where, "it undoes an action other than the latest in force")
        replaying.states.pop()
        replaying.action_ids.pop()
    else:
        action = r.json_value(record, "action", types=(dict,))
        draws = r.json_value(record, "draws", types=(list,))
        try:
            replaying.states.append(apply_recorded(game, replaying.states[-1], action, draws))
        except (ReplayError, IllegalAction, KeyError, TypeError, ValueError, IndexError) as error:
            raise _refuse_table(replaying.title, where, str(error)[:200], RULES_DIFFER) from None
        replaying.action_ids.append(r.ident(record))
    if digest(replaying.states[-1]) != record.get("digest"):
        raise _refuse_table(replaying.title, where, "its state differs from the recorded digest")


def _finish_table(ctx: ImportContext, table_old: int) -> None:
    """The table's log is all in: its state is the replayed one, which must be the archive's."""
    replaying = ctx.replaying.pop(table_old)
    ctx.current_table = None
    if replaying.states is None:  # no action: the table is where it starts
        replaying.states = [_start(replaying.table.game, replaying.table, replaying.title)]
    replaying.table.state = replaying.states[-1]
    if replaying.seq > replaying.version:  # below it: the GM's settings counted versions (MAX_TABLE_VERSION)
        raise _odd_log(replaying.title, "its end",
                       f"its last entry is {replaying.seq}, past the table's version {replaying.version}")
    if digest(replaying.table.state) != replaying.wanted_digest:
        raise _refuse_table(replaying.title, "its end", "the final state differs from the table's digest")
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
    ctx.add(
        TableAction(
            table_id=ctx.id_for("table", table_old, what=f"table action {old_id}"),
            seq=r.integer(record, "seq", 1, 2**31 - 1),
            kind=kind,
            seat=r.text(record, "seat", 8),
            action=r.json_value(record, "action", types=(dict,), null=True),
            draws=r.json_value(record, "draws", types=(list,)),
            undoes_id=ctx.id_for("table_action", r.ident(record, "undoes_id", null=True),
                                 what=f"table action {old_id}"),
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
    ctx.add(
        Stake(table_id=ctx.id_for("table", r.ident(record, "table_id"), what=f"stake {old_id}"),
              entry_fee=r.integer(record, "entry_fee", 1, MAX_COINS),
              payout=r.choice(record, "payout", STAKE_PAYOUTS),
              paid_out_at=r.moment(record, "paid_out_at", null=True)),
        kind="stake", old_id=old_id,
    )


# ------------------------------------------------------------------------------------------------ invites


def open_invites(campaign: Campaign):
    """Invites still open, but claims: a waiting claim travels as its member (``export_members``), and the
    import makes its invite again; a plain one here would be a second invite holding nothing."""
    return (Invite.objects.filter(campaign=campaign, revoked_at__isnull=True, expires_at__gt=timezone.now(),
                                  claim__isnull=True)
            .annotate(used=Count("uses")).filter(used__lt=F("max_uses")))


def export_invites(campaign: Campaign) -> Iterator[dict]:
    for invite in open_invites(campaign).select_related("created_by").order_by("pk").iterator(chunk_size=CHUNK):
        yield {
            "id": invite.pk,
            "role": invite.role,
            "commander_id": invite.commander_id,
            "uses_left": invite.max_uses - invite.used,
            "expires_at": iso(invite.expires_at),
            "created_by": _username(invite.created_by),
            "created_at": iso(invite.created_at),
        }


# An imported invite's link is new (no token travels), so its terms matter from the import on, and are held
# to what a GM makes on the invite form now (people/forms.py, people/services/invites.py): 1..MAX_INVITE_USES
# uses, one with a commander (a player's), a GM invite for one person (MAX_GM_INVITE_USES: it makes a co-GM),
# open at most MAX_INVITE_DAYS from now. A later expiry or a GM invite's extra uses are brought back within
# (clamped: an archive whose clock ran ahead, or one made before GM invites were for one person, still
# imports); what no form could ever make (uses past the form's maximum, a commander for several) is a
# changed archive: refused.


def load_invite(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    commander_id = ctx.id_for("commander", r.ident(record, "commander_id", null=True), what=f"invite {old_id}")
    role = r.choice(record, "role", MEMBER_ROLES)
    uses = r.integer(record, "uses_left", 1, MAX_INVITE_USES)
    if commander_id is not None and (uses != 1 or role != Membership.Role.PLAYER):
        raise ArchiveRefused(f"The archive's invite {old_id!r} hands a commander to more than one player.")
    if role == Membership.Role.GM:
        uses = min(uses, MAX_GM_INVITE_USES)
    latest = timezone.now() + timedelta(days=MAX_INVITE_DAYS)
    ctx.add(
        Invite(campaign=ctx.campaign, role=role, commander_id=commander_id, max_uses=uses,
               expires_at=min(r.moment(record, "expires_at"), latest),
               created_by=ctx.member_user(record.get("created_by"))),
        kind="invite", old_id=old_id, times={"created_at": r.moment(record, "created_at")},
    )


register(Section("campaign", CAMPAIGN, export_campaign, load_campaign))
register(Section("day", DAY, export_days, load_day))
register(Section("member", MEMBER, export_members, load_member, names=("membership",)))
register(Section("account", ACCOUNT, export_accounts, load_account, names=("account",)))
register(Section("table", TABLE, export_tables, load_table, names=("table",)))
register(Section("seat", SEAT, export_seats, load_seat, names=("seat",)))
register(Section("table_action", TABLE_ACTION, export_table_actions, load_table_action, names=("tableaction",)))
register(Section("stake", STAKE, export_stakes, load_stake, names=("stake",)))
register(Section("invite", INVITE, export_invites, load_invite, names=("invite",)))
register(Section("activity", ACTIVITY, export_activity, load_activity,
                 names=("activity", "gm", "day_end_revert", "training")))
register(Section("ledger_entry", LEDGER_ENTRY, export_ledger, load_ledger_entry, names=("ledgerentry",)))
