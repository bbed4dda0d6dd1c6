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

A function registered twice is kept once (``ready`` may run again in tests).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .models import Table

FinishHook = Callable[["Table"], None]
UndoCheck = Callable[["Table"], "str | None"]

_FINISH: dict[str, list[FinishHook]] = defaultdict(list)
_UNDO: dict[str, list[UndoCheck]] = defaultdict(list)


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


def unregister(fn) -> None:
    """Remove ``fn`` from every registry (tests)."""
    for registry in (_FINISH, _UNDO):
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
