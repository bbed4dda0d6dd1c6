"""What an undo takes back, named for whoever looks (issue 25).

* The GM's Undo asks first, in the page, naming the action it takes back as the GM saw it (the
  what-if list's naming, ``move_names.action_label``): ``last_action`` replays the log once, only
  when the GM taps Undo, never on a page render.
* Every seat's page says "The GM took back: ..." for the undos of the last ``NOTE_MOVES`` versions.
  A seat sees an action named only as it could see it: its own move by the label of the choice it
  made (its own view), another's (or the GM's) by the table's event lines it added (the events every
  view shows), else "a move of <seat>" / "a decision of the GM". Never from the GM's view, so never
  a card hidden from that seat. The page's table query says when the newest undo was
  (``selectors.with_last_undo``): only then are the log and the start read (two queries) and replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, gettext_noop

from .engines import get_engine
from .engines.kernel import GM, IllegalAction, State
from .engines.replay import ReplayError, apply_recorded
from .models import Table, TableAction
from .move_names import action_label, labelled_choices
from .selectors import table_start

# An undo stays noted on the seats' pages for this many versions of the table (the undo's own included).
NOTE_MOVES = 3
GM_DECISION = gettext_noop("a decision of the GM")


@dataclass(frozen=True)
class Step:
    row: dict  # the log entry: seq, kind, seat, action, draws, undoes__seq
    before: State
    after: State


def _rows(table: Table) -> list[dict]:
    return list(
        TableAction.objects.filter(table=table).order_by("seq").values("seq", "kind", "seat", "action", "draws",
                                                                      "undoes__seq")
    )


def _replay(table: Table) -> tuple[list[Step], list[tuple[dict, Step]]]:
    """(the live actions, each with the states around it; every undo with the step it took back).
    A log that does not replay gives what it replayed so far."""
    start = Table.objects.only("game", "config", "setup_draws", "start_state").get(pk=table.pk)
    live: list[Step] = []
    undos: list[tuple[dict, Step]] = []
    try:
        state = table_start(start)
        for row in _rows(table):
            if row["kind"] == TableAction.Kind.UNDO:
                undone = live.pop()
                undos.append((row, undone))
                state = undone.before
                continue
            after = apply_recorded(table.game, state, row["action"], row["draws"])
            live.append(Step(row, state, after))
            state = after
    except (ReplayError, IllegalAction, IndexError, KeyError):
        pass
    return live, undos


def _type(action: dict) -> str:
    return str((action or {}).get("type", "action")).replace("_", " ")


def last_action(table: Table, seat_names: dict[str, str]) -> dict | None:
    """The action the GM's Undo takes back, as the GM saw it: {seq, what, who}; None if none is left."""
    live, _undos = _replay(table)
    if not live:
        return None
    step = live[-1]
    row = step.row
    what = action_label(get_engine(table.game), step.before, step.after, row["seat"], row["action"])
    who = gettext("GM") if row["seat"] == GM else seat_names.get(row["seat"]) or _seat(row["seat"])
    return {"seq": row["seq"], "what": what or _type(row["action"]), "who": who}


def _seat(seat) -> str:
    return gettext("Seat %(number)s") % {"number": seat}


def note_due(table: Table) -> bool:
    """Whether the table's newest undo is recent enough to be noted (read from the page's query)."""
    last = getattr(table, "last_undo", None)
    return last is not None and last > table.version - NOTE_MOVES


def seat_label(engine, step: Step, viewer: int, seat_names: dict[str, str]) -> str:
    """``step``'s action named as seat ``viewer`` could see it (see the module's docstring)."""
    row = step.row
    if row["seat"] == str(viewer):
        wanted = {key: value for key, value in row["action"].items() if key != "seat"}
        for choice in labelled_choices(engine.view(step.before, viewer).get("choices")):
            if all(choice.get(key) == value for key, value in wanted.items()):
                return str(choice["label"])
    then = engine.view(step.before, viewer).get("events") or []
    now = engine.view(step.after, viewer).get("events") or []
    added = [line for line in now if isinstance(line, str) and line not in then]
    if added:
        return " ".join(added[:2])
    if row["seat"] == GM:
        return gettext(GM_DECISION)
    return gettext("a move of %(seat)s") % {"seat": seat_names.get(row["seat"]) or _seat(row["seat"])}


def seat_notes(table: Table, viewer: int, seat_names: dict[str, str]) -> list[str]:
    """What the GM took back in the table's last ``NOTE_MOVES`` versions, newest first, named for seat
    ``viewer``; [] (and no query) when no undo is that recent."""
    if not note_due(table):
        return []
    engine = get_engine(table.game)
    _live, undos = _replay(table)
    recent = [step for row, step in reversed(undos) if row["seq"] > table.version - NOTE_MOVES]
    return [seat_label(engine, step, viewer, seat_names) for step in recent]
