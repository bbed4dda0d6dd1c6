"""The step machine of an Army battle: a queue of tasks and at most one open decision.

(The battle's own queue inside a state, not a Celery task: hence ``steps``, not ``tasks``.)

``state["tasks"]`` is a queue of small JSON tasks (``{"do": "turn"}``,
``{"do": "resolve"}``, ``{"do": "roll", "labels": [...], "then": {...}}`` ...).
``advance`` runs them in order until one opens a decision (``state["step"]``), the
battle is over, or the queue is empty (then the active commander's turn begins).
Each module registers its handlers with ``@handler("name")``.

A decision step is ``{"kind", "seat", "task", ...}``: ``task`` is the task that
opened it. If a GM override takes away every real option of a step (e.g. moves the
last playable card out of a hand), ``refresh`` closes the step and re-runs that task,
which then decides afresh (e.g. the commander is now Unable). A rout
(``state["routing"]``) is handled before any other task.
"""

from __future__ import annotations

from collections.abc import Callable

from .common import push

HANDLERS: dict[str, Callable] = {}
MAX_TASKS_PER_ACTION = 5000


def handler(name: str):
    def register(function: Callable) -> Callable:
        HANDLERS[name] = function
        return function
    return register


def ask(state: dict, kind: str, seat, task: dict, **extra) -> None:
    """Open a decision for ``seat``; ``task`` is re-run if the decision loses its options."""
    state["step"] = {"kind": kind, "seat": seat, "task": task, **extra}


def advance(state: dict, rng) -> None:
    for _ in range(MAX_TASKS_PER_ACTION):
        if state["routing"] is not None:
            HANDLERS["rout"](state, {"do": "rout", "seat": state["routing"]}, rng)
            continue
        if state["step"] is not None or state["phase"] == "over":
            return
        if not state["tasks"]:
            push(state, {"do": "turn"})
        task = state["tasks"].pop(0)
        HANDLERS[task["do"]](state, task, rng)
    raise RuntimeError("The battle's task queue did not settle; this is a bug in the army engine.")
