"""What-if tables: the GM forks a table at any entry of its log into a sandbox that never counts.

``table_fork`` (one transaction, GM only, applied once per one-time token: ruling WI5) makes a new
table in the same campaign with ``what_if=True``, ``forked_from`` the original and ``forked_at`` the
move forked at. The moves a table can be forked at are its log's entries and 0 (the set-up): a
version no entry has (a seat handed to the computer raises the version and logs nothing) is refused
with a sentence. The state reached by the actions live at that move (ruling WI2: an action taken
back by an undo entry at or before it is not live; entries after it are not taken) must have the
digest the original recorded there (its log entry; the start's for move 0), or nothing is made.

Who plays it is the GM's choice (ruling WI10):

* **only the GM** (``players=False``, ``gm_only``): the real deal. It has the original's config and
  set-up draws and, as its own log, those live actions with their draws, numbered 1..n, each digest
  recomputed by replaying them (``engines/replay.py``), so the GM's undo works back to the set-up.
  No seat link opens it (the seat's page refuses with a sentence, the GM page shows no links).
* **the same players** (``players=True``): the state at the fork point is dealt anew for the seats
  people play (every seat but the computer's): the engine's ``redeal(state, seats, rng)`` deals anew
  the cards none of them could see, so each of those seats sees exactly what it saw at the original
  (checked, else nothing is made) and nobody learns the original's hidden cards by playing on or by
  reading the fork's log. What the rules decide without a move is then decided again on the new cards
  (the engine's ``settle``, ruling WI13: GOT'M's game ends if the player to shop can now hire nothing).
  That state is the fork's ``start_state``: its log starts there (version 0, no config, no set-up
  draws: log format version 2) and undo goes back to it.

Either way a fork gets a fresh seed, so its dice and draws after the fork point tell nothing of the
original's. Its seats belong to the same people as the original's (ruling WI3): a member's seat
keeps its membership (it opens with that member's login; no stake account: a fork has no stake),
a guest seat stays a guest with the same name and a new secret link, a computer seat keeps its
``bot`` setting (a computer seat to act at the fork point moves once the fork commits). A fork's
seats get its log (``fork_log_refusal``) only once the fork is over and no table it comes from is
still running: until then another seat's hand in it is that seat's hand at the real table.

Nothing of a what-if reaches the campaign (ruling WI4): it has no stake; ``table_play`` runs no
finish hooks for it (no rosters, kills, ledger), ``table_undo`` asks no game's undo hooks,
``table_abandon`` refunds nothing and runs no abandon hooks; every read that means the campaign goes
through ``Table.objects.counted()``. One activity line (kind ``table_fork``) records the fork.

``log_entries`` lists a table's log for the what-if page, each action named as the GM saw it (the
engine's label of the choice it was, else the lines it added, ruling WI11).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from campaign.activity import Line, activity_record
from campaign.models import Activity
from campaign.permissions import is_gm
from campaign.submissions import applied_once

from .. import titles
from ..computer.scheduling import turn_after_commit
from ..engines import get_engine
from ..engines.kernel import GM, IllegalAction, SeededRng, State, digest
from ..engines.replay import ReplayError, apply_recorded, live_entries
from ..engines.what_if import deal_what_if
from ..models import Seat, Table, TableAction
from ..move_names import action_label
from ..selectors import GM_ONLY_WHAT_IF, table_start

TITLE_LENGTH = Table._meta.get_field("title").max_length
WHAT_IF = "What-if: "
# The newest entries the what-if page lists (and names): a long game's log is fetched whole by "Download log".
SHOWN_ENTRIES = 200
ORIGINAL_RUNNING = gettext_noop(
    "This what-if's log is given to its seats once it is over and the table it was forked from is over "
    "too: until then another seat's cards in it are that seat's cards at the real table."
)


def fork_title(title: str, version: int) -> str:
    """"What-if: <title> from move N" (``titles.what_if_title``), the original's title shortened to fit the field.

    A what-if of a what-if names the table once ("What-if: Battle #3: … from move 9", not "What-if: What-if:
    Battle #3: … from move 5 from move 9"): the what-if it comes from is linked on its page.
    """
    title = titles.forked_from(title) or title
    room = TITLE_LENGTH - len(titles.what_if_title("", version))
    if len(title) > room:
        title = title[: room - 1].rstrip() + "…"
    return titles.what_if_title(title, version)


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
    """The digest ``table`` recorded for its state at ``version``: its log entry's, or the start's."""
    if version == 0:
        return digest(table_start(table))
    return next(entry.digest for entry in entries if entry.seq == version)


def version_refusal(table: Table, version, entries: list[TableAction]) -> str | None:
    """Why ``table`` cannot be forked at ``version``, as a sentence, or None. ``entries``: its log up to
    ``version``. A what-if starts from a move of the log (an entry's number) or from 0, the start."""
    valid = isinstance(version, int) and not isinstance(version, bool) and version >= 0
    if valid and (version == 0 or any(entry.seq == version for entry in entries)):
        return None
    last = TableAction.objects.filter(table=table).aggregate(last=Max("seq"))["last"] or 0
    if not valid or version > last:
        return gettext("%(title)s has no move %(move)s: a what-if starts from one of its moves 0 to %(last)s.") % {
            "title": table.shown_title, "move": version, "last": last,
        }
    return gettext(
        "%(title)s logged no move %(move)s (a seat handed to the computer or back counts a version "
        "but is no move): a what-if starts from a move of its log."
    ) % {"title": table.shown_title, "move": version}


def _replayed(original: Table, version: int, entries: list[TableAction], live: list[TableAction]) -> tuple:
    """The state at ``version`` and the digest after each live action, proven against the recorded digest."""
    digests = []
    try:
        state = table_start(original)
        for entry in live:
            state = apply_recorded(original.game, state, entry.action, entry.draws)
            digests.append(digest(state))
        replays = digest(state) == recorded_digest(original, version, entries)
    except (ReplayError, IllegalAction):
        replays = False
    if not replays:
        raise IllegalAction(gettext(
            "The log of %(title)s does not replay to the state it recorded at move %(move)s: "
            "it cannot be forked there."
        ) % {"title": original.shown_title, "move": version})
    return state, digests


def dealt_anew(game: str, state: State, seats: list[int], seed: int) -> State:
    """``state`` with the cards none of ``seats`` could see dealt anew (the engine's ``redeal``), checked:
    each of ``seats`` sees exactly what it saw (ruling WI10), then settled: what the rules decide without a
    move decided again on the new cards (``engines/what_if.py``, ruling WI13). Raises ``IllegalAction``."""
    engine = get_engine(game)
    if not engine.SPEC.can_redeal:
        raise IllegalAction(gettext("This game cannot deal a what-if anew yet: only the GM can play a what-if of it."))
    return deal_what_if(engine, state, seats, SeededRng(f"{seed}:what-if deal"))


@applied_once("table_fork")
@transaction.atomic
def table_fork(*, table_id: int, version: int, user, players: bool = False) -> Table:
    """Fork table ``table_id`` at ``version`` into a what-if table, for the campaign's GM ``user``:
    ``players`` False, only the GM plays it (the real deal); True, the same players do (dealt anew).

    Raises ``PermissionDenied`` (not the GM) or ``IllegalAction`` with a sentence (a move the log
    does not have; a log that does not replay to what it recorded); then nothing is saved. A
    table whose log was released, an abandoned or finished table and a what-if can all be forked
    (rulings WI1, WI6).
    """
    original = Table.objects.select_related("campaign").get(pk=table_id)
    if not is_gm(user, original.campaign):
        raise PermissionDenied(gettext("Only the GM can fork a table into a what-if."))
    entries = (
        list(TableAction.objects.filter(table=original, seq__lte=version).order_by("seq"))
        if isinstance(version, int) and not isinstance(version, bool) else []
    )
    refusal = version_refusal(original, version, entries)
    if refusal:
        raise IllegalAction(refusal)
    live = live_at(entries, version)
    state, digests = _replayed(original, version, entries, live)
    seats = list(original.seats.order_by("index"))

    fork = Table(  # a fresh seed (the field's default): its dice and draws tell nothing of the original's
        campaign=original.campaign,
        game=original.game,
        title=fork_title(original.title, version),
        config=original.config,
        created_by=user,
        what_if=True,
        forked_from=original,
        forked_at=version,
        gm_only=not players,
        coach=True,  # nothing played at a what-if counts: its players may ask the computer (ruling CO1)
    )
    if players:  # its log starts at the fork point, dealt anew: none of the original's set-up, draws or moves
        fork.state = fork.start_state = dealt_anew(
            original.game, state, [seat.index for seat in seats if not seat.bot], fork.seed
        )
        fork.setup_draws, fork.version, copied = [], 0, []
    else:
        fork.state, fork.setup_draws, fork.version = state, original.setup_draws, len(live)
        fork.start_state = original.start_state  # a GM-only fork of a dealt-anew what-if starts where it did
        copied = live
    outcome = get_engine(original.game).outcome(fork.state)
    if outcome is not None:  # forked at a game's last move: finished, and the GM may undo from there
        fork.status, fork.outcome, fork.finished_at = Table.Status.FINISHED, outcome, timezone.now()
    fork.save()
    Seat.objects.bulk_create(  # the same people's seats (ruling WI3): no stake account, new links
        Seat(table=fork, index=seat.index, membership_id=seat.membership_id, guest_name=seat.guest_name, bot=seat.bot)
        for seat in seats
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
        for seq, (entry, entry_digest) in enumerate(zip(copied, digests[: len(copied)], strict=True), start=1)
    )
    turn_after_commit(fork)  # a computer seat to act at the fork point moves once this commits
    said = (
        gettext_noop(
            "What-if: forked %(title)s at move %(move)s, played by the same players, the cards nobody could see "
            "dealt anew. Nothing played there counts."
        )
        if players
        else gettext_noop(
            "What-if: forked %(title)s at move %(move)s, played by only the GM, the real deal. "
            "Nothing played there counts."
        )
    )
    activity_record(
        campaign=original.campaign,
        actor=user,
        kind=Activity.Kind.TABLE_FORK,
        summary=Line(said, title=titles.as_line(original.title), move=version),
        target=fork,
        details={"original": original.pk, "version": version, "actions": len(copied), "players": players},
    )
    return fork


def fork_log_refusal(table: Table) -> str | None:
    """Why a seat of what-if ``table`` may not have its log yet, or None (ruling WI10): a GM-only what-if
    has no seat that opens; a players' one gives its log once no table it comes from is still running
    (the caller checks that the what-if itself is over)."""
    if not table.what_if:
        return None
    if table.gm_only:
        return gettext(GM_ONLY_WHAT_IF)
    origin_id = table.forked_from_id
    while origin_id is not None:  # a what-if of a what-if: every table up the chain
        origin = Table.objects.filter(pk=origin_id).values("status", "forked_from_id").first()
        if origin is None:
            return None
        if origin["status"] == Table.Status.ACTIVE:
            return gettext(ORIGINAL_RUNNING)
        origin_id = origin["forked_from_id"]
    return None


def forks_of(table: Table) -> list[Table]:
    """The what-ifs forked from ``table``, newest first (light: no state)."""
    return list(
        Table.objects.filter(forked_from_id=table.pk)
        .only("id", "title", "status", "forked_at", "version", "created_at", "forked_from_id", "campaign_id",
              "gm_only")
        .order_by("-created_at", "-id")
    )


def fork_origin(table: Table) -> Table | None:
    """The table a what-if was forked from (light: its id and title), or None (deleted, or not a what-if)."""
    if not table.forked_from_id:
        return None
    return Table.objects.only("id", "title", "campaign_id").filter(pk=table.forked_from_id).first()


# --- the log as the what-if page lists it -----------------------------------------------------------


def log_entries(table: Table, seat_names: dict[str, str], shown: int | None = None) -> tuple[list[dict], int]:
    """The newest ``shown`` entries of ``table``'s log, newest first: number, who, what (the action named
    as the GM saw it, ruling WI11), and the number of the undo that took it back, if one did; and how
    many entries the log has.

    The log is replayed from the table's start to name each action from the state it was taken in;
    a log that does not replay names its actions by their type."""
    shown = shown or SHOWN_ENTRIES
    rows = list(
        TableAction.objects.filter(table=table)
        .order_by("seq")
        .values("seq", "kind", "seat", "action", "draws", "undoes__seq", "undone_by__seq")
    )
    named = _named(table, rows, {row["seq"] for row in rows[-shown:]})
    entries = []
    for row in reversed(rows[-shown:]):
        if row["kind"] == TableAction.Kind.UNDO:
            what, who = gettext("Undo of move %(move)s") % {"move": row["undoes__seq"]}, gettext("GM")
        else:
            what = named.get(row["seq"]) or str((row["action"] or {}).get("type", "action")).replace("_", " ")
            who = gettext("GM") if row["seat"] == GM else seat_names.get(row["seat"]) or _seat(row["seat"])
        entries.append({"seq": row["seq"], "what": what, "who": who, "undone": row["undone_by__seq"]})
    return entries, len(rows)


def _seat(seat) -> str:
    return gettext("Seat %(number)s") % {"number": seat}


def _named(table: Table, rows: list[dict], wanted: set[int]) -> dict[int, str]:
    """{seq: what the action was, as the GM saw it} for the action rows numbered in ``wanted``."""
    engine = get_engine(table.game)
    named: dict[int, str] = {}
    start = Table.objects.only("game", "config", "setup_draws", "start_state").get(pk=table.pk)  # a page's is light
    try:
        history = [table_start(start)]
        for row in rows:
            if row["kind"] == TableAction.Kind.UNDO:
                history.pop()
                continue
            before = history[-1]
            after = apply_recorded(table.game, before, row["action"], row["draws"])
            if row["seq"] in wanted:
                named[row["seq"]] = action_label(engine, before, after, row["seat"], row["action"])
            history.append(after)
    except (ReplayError, IllegalAction, IndexError, KeyError):
        pass  # the rest keep their type
    return named
