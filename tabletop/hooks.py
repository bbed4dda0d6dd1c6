"""Let other apps react to a table's life without ``tabletop`` importing them.

``tabletop`` sits below ``armies`` (``campaign`` <- ``tabletop`` <- ``armies``), yet an
Army battle's end must change rosters. An app registers, from its ``AppConfig.ready``:

* ``@on_finish(game)`` ``fn(table)``: called by ``table_play`` inside its transaction,
  after the state and the log entry are saved, when the engine reports an outcome.
  ``fn`` may raise ``IllegalAction`` to refuse the action: the transaction rolls back
  and nothing of it is saved.
* ``@undo_blocked(game)`` ``fn(table) -> str | None``: asked by ``services.undo_refusal``
  (before ``table_undo`` undoes anything, and for the GM page's Undo button, which it
  disables with the sentence); a returned sentence refuses the undo with it (ruling B5 in
  docs/rulings.md: a battle whose result is in the rosters cannot be undone). It runs on
  every GM page render, so it should cost one query at most.
* ``@on_abandon(game, can_keep_result=False)`` ``fn(table, keep_result) -> str | Line | None``: called
  by ``services.abandon.table_abandon`` inside its transaction (the table row locked, already
  marked abandoned, stakes refunded). ``fn`` may return a sentence saying what it did (it goes
  into the activity log; a ``campaign.activity.Line``, said in each reader's language) or raise
  ``IllegalAction`` to refuse the abandon whole.
  ``can_keep_result=True`` says the game can keep "the result so far" (the GM's confirm page
  then offers the choice; ``keep_result`` is False unless the GM chose it).

* ``@table_links(game)`` ``fn(table, viewer) -> list[tuple[str, str]]``: the (label, url) links a
  table page of ``game`` shows beside its way back to the campaign (issue 25: a battle's armies page,
  its page, then its result). ``viewer`` is a ``TableViewer``: which page (``gm``, ``seat`` or
  ``public``), the viewer's membership (None for a guest seat) and whether it is a guest's seat; a hook
  links only to pages that viewer may open (a guest's seat opens nothing of the campaign). It runs on
  every render of a table's live region, so it should cost one query at most, and none for a table
  it has nothing to say about.

A function registered twice is kept once (``ready`` may run again in tests).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .models import Table

FinishHook = Callable[["Table"], None]
UndoCheck = Callable[["Table"], "str | None"]

_FINISH: dict[str, list[FinishHook]] = defaultdict(list)
_UNDO: dict[str, list[UndoCheck]] = defaultdict(list)
AbandonHook = Callable[["Table", bool], "str | None"]
_ABANDON: dict[str, list[AbandonHook]] = defaultdict(list)
_KEEPS_RESULT: set[str] = set()


@dataclass(frozen=True)
class TableViewer:
    """Who looks at a table page, as a ``table_links`` hook needs it."""

    kind: str  # "gm", "seat" or "public"
    membership_id: int | None = None
    guest: bool = False


Link = tuple[str, str]
LinksHook = Callable[["Table", TableViewer], list[Link]]
_LINKS: dict[str, list[LinksHook]] = defaultdict(list)


def _register(registry: dict, game: str):
    def decorator(fn):
        if fn not in registry[game]:
            registry[game].append(fn)
        return fn

    return decorator


def on_finish(game: str) -> Callable[[FinishHook], FinishHook]:
    return _register(_FINISH, game)


def undo_blocked(game: str) -> Callable[[UndoCheck], UndoCheck]:
    return _register(_UNDO, game)


def on_abandon(game: str, *, can_keep_result: bool = False) -> Callable[[AbandonHook], AbandonHook]:
    if can_keep_result:
        _KEEPS_RESULT.add(game)
    return _register(_ABANDON, game)


def table_links(game: str) -> Callable[[LinksHook], LinksHook]:
    return _register(_LINKS, game)


def unregister(fn) -> None:
    """Remove ``fn`` from every registry (tests)."""
    for registry in (_FINISH, _UNDO, _ABANDON, _LINKS):
        for hooks in registry.values():
            if fn in hooks:
                hooks.remove(fn)


def table_finished(table: Table) -> None:
    """Run every finish hook of the table's game; an ``IllegalAction`` propagates."""
    for fn in list(_FINISH.get(table.game, ())):
        fn(table)


def undo_refusal(table: Table) -> str | None:
    """The first reason a registered check gives for refusing to undo on ``table``, or None."""
    for fn in list(_UNDO.get(table.game, ())):
        reason = fn(table)
        if reason:
            return reason
    return None


def can_keep_result(game: str) -> bool:
    """Whether an abandoned table of ``game`` may keep its result so far (a hook said so)."""
    return game in _KEEPS_RESULT and bool(_ABANDON.get(game))


def table_abandoned(table: Table, keep_result: bool) -> list[str]:
    """Run every abandon hook of the table's game; the sentences they return, in order.
    An ``IllegalAction`` propagates (the abandon is refused whole)."""
    said = []
    for fn in list(_ABANDON.get(table.game, ())):
        sentence = fn(table, keep_result)
        if sentence:
            said.append(sentence)
    return said


def links_for(table: Table, viewer: TableViewer) -> list[Link]:
    """Every link the registered hooks of the table's game give ``viewer``, in order."""
    return [link for fn in list(_LINKS.get(table.game, ())) for link in fn(table, viewer)]
