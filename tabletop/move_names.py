"""How a move is named as the GM saw it: the what-if list (services/forks.py) and the GM's "take it
back?" question (taken_back.py) name moves the same way. And how a move a seat could make is named from
that seat's own view alone (``own_move_label``: the coach's answer, issue 27). Pure reads of engine views."""

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


# An action's field shown after a word, when a move is named from its fields (``own_move_label``).
FIELD_WORDS = {"cell": "on", "to": "to", "target": "at", "at": "at"}


def own_move_label(view: dict, action: dict) -> str:
    """``action``, one the viewing seat may take, named from that seat's ``view`` only (ruling CO3), so
    never by a card hidden from it: the label of the choice it is in the view (a choice may label it
    more fully than the action's own ``label``); else the action's own ``label``; else its type and its
    fields, each by the name the view gives it (a card's name, a cell's label), a field the view does not
    show at all left out."""
    wanted = {key: value for key, value in action.items() if key not in ("seat", "label")}
    for choice in labelled_choices(view.get("choices")):
        if all(choice.get(key) == value for key, value in wanted.items()):
            return str(choice["label"])
    if isinstance(action.get("label"), str) and action["label"]:
        return action["label"]
    names, strings = _view_names(view)
    words = [str(wanted.pop("type", "move")).replace("_", " ").capitalize()]
    for key, value in wanted.items():
        if isinstance(value, str) and value in names:
            shown = names[value]
        elif (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and value in strings):
            shown = str(value)
        else:
            continue
        words.append(f"{FIELD_WORDS[key]} {shown}" if key in FIELD_WORDS else shown)
    return " ".join(words)


def _view_names(view) -> tuple[dict[str, str], set[str]]:
    """({id or key: its name} of every card (``id`` and ``name``) and place (``key`` and ``label``) in a
    view, every string the view holds)."""
    names: dict[str, str] = {}
    strings: set[str] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for ident, name in (("id", "name"), ("key", "label")):
                if isinstance(item.get(ident), str) and isinstance(item.get(name), str):
                    names.setdefault(item[ident], item[name])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            strings.add(item)
    return names, strings
