"""What-if tables: the GM forks a table at any entry of its log into a sandbox that never counts.

``table_fork`` (one transaction, GM only, applied once per one-time token: ruling WI5) makes a new
table in the same campaign with ``what_if=True``, ``forked_from`` the original and ``forked_at`` the
version forked at. It has the original's game, config, seed and setup draws, and as its own log the
actions live at that version (ruling WI2): an action taken back by an undo entry at or before the
version is not live; entries after the version are not taken. Those actions are copied with their
draws, numbered 1..n, each digest recomputed by replaying them (``engines/replay.py``), so the
fork's version is n and the GM's undo works inside it. The state reached must have the digest the
original recorded at that version (its log entry with that seq; the setup's for version 0), or
nothing is made.

Its seats carry the original seats' names as guest seats (no membership, no stake account, new
secret links: ruling WI3) and their ``bot`` setting (a computer seat to act at the fork point moves
once the fork commits). Nothing of a what-if reaches the campaign (ruling WI4): it has no stake;
``table_play`` runs no finish hooks for it (no rosters, kills, ledger), ``table_undo`` asks no
game's undo hooks, ``table_abandon`` refunds nothing and runs no abandon hooks; every read that
means the campaign goes through ``Table.objects.counted()``.
One activity line (kind ``table_fork``) records the fork.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from campaign.activity import activity_record
from campaign.models import Activity
from campaign.permissions import is_gm
from campaign.submissions import applied_once

from ..computer.scheduling import turn_after_commit
from ..engines import get_engine
from ..engines.kernel import IllegalAction, digest
from ..engines.replay import ReplayError, apply_recorded, live_entries, setup_state
from ..models import Seat, Table, TableAction

TITLE_LENGTH = Table._meta.get_field("title").max_length
GUEST_NAME_LENGTH = Seat._meta.get_field("guest_name").max_length
WHAT_IF = "What-if: "


def fork_title(title: str, version: int) -> str:
    """"What-if: <title> from move N", the original's title shortened to fit the field."""
    tail = f" from move {version}"
    room = TITLE_LENGTH - len(WHAT_IF) - len(tail)
    if len(title) > room:
        title = title[: room - 1].rstrip() + "…"
    return f"{WHAT_IF}{title}{tail}"


def live_at(entries: list[TableAction], version: int) -> list[TableAction]:
    """The action entries in force at ``version`` (``replay.live_entries`` over the log's rows up to it):
    each undo entry takes back the latest action still live before it; later entries do not count."""
    marked = [
        {"seq": entry.seq, "undo": True} if entry.kind == TableAction.Kind.UNDO else {"seq": entry.seq, "row": entry}
        for entry in entries
        if entry.seq <= version
    ]
    try:
        return [item["row"] for item in live_entries(marked)]
    except ReplayError as error:
        raise IllegalAction(str(error)) from None


def recorded_digest(table: Table, version: int, entries: list[TableAction]) -> str:
    """The digest ``table`` recorded for its state at ``version``: its log entry's, or the setup's."""
    if version == 0:
        return digest(setup_state(table.game, table.config, table.setup_draws))
    return next(entry.digest for entry in entries if entry.seq == version)


def version_refusal(table: Table, version) -> str | None:
    """Why ``table`` cannot be forked at ``version``, as a sentence, or None."""
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= table.version:
        return (
            f"{table.title} has no move {version}: a what-if starts from one of its moves 0 to {table.version}."
        )
    return None


@applied_once("table_fork")
@transaction.atomic
def table_fork(*, table_id: int, version: int, user) -> Table:
    """Fork table ``table_id`` at ``version`` into a what-if table, for the campaign's GM ``user``.

    Raises ``PermissionDenied`` (not the GM) or ``IllegalAction`` with a sentence (a version the
    table never had; a log that does not replay to what it recorded); then nothing is saved. A
    table whose log was released, an abandoned or finished table and a what-if can all be forked
    (rulings WI1, WI6).
    """
    original = Table.objects.select_related("campaign").get(pk=table_id)
    if not is_gm(user, original.campaign):
        raise PermissionDenied("Only the GM can fork a table into a what-if.")
    refusal = version_refusal(original, version)
    if refusal:
        raise IllegalAction(refusal)
    entries = list(TableAction.objects.filter(table=original, seq__lte=version).order_by("seq"))
    live = live_at(entries, version)

    engine = get_engine(original.game)
    digests = []
    try:
        state = setup_state(original.game, original.config, original.setup_draws)
        for entry in live:
            state = apply_recorded(original.game, state, entry.action, entry.draws)
            digests.append(digest(state))
        replays = digest(state) == recorded_digest(original, version, entries)
    except (ReplayError, IllegalAction):
        replays = False
    if not replays:
        raise IllegalAction(
            f"The log of {original.title} does not replay to the state it recorded at move {version}: "
            "it cannot be forked there."
        )

    fork = Table(
        campaign=original.campaign,
        game=original.game,
        title=fork_title(original.title, version),
        config=original.config,
        seed=original.seed,
        setup_draws=original.setup_draws,
        state=state,
        version=len(live),
        created_by=user,
        what_if=True,
        forked_from=original,
        forked_at=version,
    )
    outcome = engine.outcome(state)
    if outcome is not None:  # forked at a game's last move: finished, and the GM may undo from there
        fork.status, fork.outcome, fork.finished_at = Table.Status.FINISHED, outcome, timezone.now()
    fork.save()
    Seat.objects.bulk_create(
        Seat(table=fork, index=seat.index, guest_name=seat.name[:GUEST_NAME_LENGTH], bot=seat.bot)
        for seat in original.seats.select_related("membership__user").order_by("index")
    )
    TableAction.objects.bulk_create(
        TableAction(
            table=fork,
            seq=seq,
            seat=entry.seat,
            action=entry.action,
            draws=entry.draws,
            digest=entry_digest,
            user_id=entry.user_id,
        )
        for seq, (entry, entry_digest) in enumerate(zip(live, digests, strict=True), start=1)
    )
    turn_after_commit(fork)  # a computer seat to act at the fork point moves once this commits
    activity_record(
        campaign=original.campaign,
        actor=user,
        kind=Activity.Kind.TABLE_FORK,
        summary=f"What-if: forked {original.title} at move {version} into {fork.title}. Nothing played there counts.",
        target=fork,
        details={"original": original.pk, "version": version, "actions": len(live)},
    )
    return fork


def forks_of(table: Table) -> list[Table]:
    """The what-ifs forked from ``table``, newest first (light: no state)."""
    return list(
        Table.objects.filter(forked_from_id=table.pk)
        .only("id", "title", "status", "forked_at", "version", "created_at", "forked_from_id", "campaign_id")
        .order_by("-created_at", "-id")
    )


def fork_origin(table: Table) -> Table | None:
    """The table a what-if was forked from (light: its id and title), or None (deleted, or not a what-if)."""
    if not table.forked_from_id:
        return None
    return Table.objects.only("id", "title", "campaign_id").filter(pk=table.forked_from_id).first()
