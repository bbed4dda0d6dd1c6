"""How a move is named as the GM saw it: the what-if list (services/forks.py) and the GM's "take it
back?" question (taken_back.py) name moves the same way. Pure reads of engine views."""

from __future__ import annotations

from .engines.kernel import GM, State


def action_label(engine, before: State, after: State, seat: str, action: dict) -> str:
    """``action`` (taken by ``seat`` in ``before``, giving ``after``) as the GM saw it: the label of the
    choice it was in the GM's or the seat's view; else the lines it added to the GM's events; else ''."""
    viewers = [GM] if seat == GM else [GM, int(seat)] if str(seat).isdigit() else [GM]
    wanted = {key: value for key, value in action.items() if key != "seat"}
    for viewer in viewers:
        for choice in labelled_choices(engine.view(before, viewer).get("choices")):
            if all(choice.get(key) == value for key, value in wanted.items()):
                return str(choice["label"])
    then = engine.view(before, GM).get("events") or []
    now = engine.view(after, GM).get("events") or []
    added = [line for line in now if isinstance(line, str) and line not in then]
    return " ".join(added[:2])


def labelled_choices(data) -> list[dict]:
    """Every dict with a ``type`` and a ``label`` in a view's choices (engines nest them in groups)."""
    found, stack = [], [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "type" in item and isinstance(item.get("label"), str):
                found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found
