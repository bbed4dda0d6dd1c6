"""The shape of every action an engine accepts, checked before its rules see the action.

Each engine declares ``ACTION_SHAPES``: for each action type, its fields and the kind of
JSON value each one holds (``TEXT``, ``WHOLE``, ``FLAG``, ``list_of(...)``, ``optional(...)``,
``one_of(...)``). ``@checked(shapes, game)`` wraps the engine's ``apply`` so that an
action that is not a dict, has a type the game does not know, carries a field its type does
not have, or holds a value of the wrong kind or beyond the caps is refused with
``IllegalAction`` and a sentence, before any rule runs. Every action has ``type``, and may
have ``seat`` (set by the table service) and ``label`` (the text a button shows).

``load_json`` parses JSON text with a cap on its nesting depth, for posted actions and
uploaded files alike. Nothing here imports Django.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .kernel import GM, IllegalAction
from .words import Words, gettext_noop

MAX_TEXT = 200  # card ids, squares, choices: a few dozen characters at most
MAX_LABEL = 500
MAX_ITEMS = 60
MAX_WHOLE = 1_000_000
MAX_DEPTH = 20


@dataclass(frozen=True)
class Kind:
    """A kind of JSON value: ``accepts(value)`` and how a sentence names it."""

    name: str
    accepts: Callable[[Any], bool]


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_WHOLE <= value <= MAX_WHOLE


def _is_text(value: Any, cap: int) -> bool:
    # A NUL character is no text a person types, and PostgreSQL cannot store it in JSON.
    return isinstance(value, str) and len(value) <= cap and "\x00" not in value


TEXT = Kind(f"a text of at most {MAX_TEXT} characters", lambda value: _is_text(value, MAX_TEXT))
LABEL = Kind(f"a text of at most {MAX_LABEL} characters", lambda value: _is_text(value, MAX_LABEL))
WHOLE = Kind(f"a whole number from {-MAX_WHOLE:,} to {MAX_WHOLE:,}", _is_whole)
FLAG = Kind("true or false", lambda value: isinstance(value, bool))
# A seat is set by the table service; an engine's own callers may pass it as form text ("0"), which the
# engine parses and refuses with its own sentence ("'Ann' is not a seat number").
SEAT = Kind(f"a seat number or {GM!r}", lambda value: _is_whole(value) or _is_text(value, MAX_TEXT))


def list_of(item: Kind, max_items: int = MAX_ITEMS) -> Kind:
    return Kind(
        f"a list of at most {max_items} items, each {item.name}",
        lambda value: isinstance(value, list) and len(value) <= max_items and all(map(item.accepts, value)),
    )


def optional(kind: Kind) -> Kind:
    return Kind(f"{kind.name} or null", lambda value: value is None or kind.accepts(value))


def one_of(*kinds: Kind) -> Kind:
    return Kind(" or ".join(kind.name for kind in kinds), lambda value: any(kind.accepts(value) for kind in kinds))


def whole(lo: int, hi: int) -> Kind:
    return Kind(f"a whole number from {lo} to {hi}",
                lambda value: isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi)


def choice(*values: str) -> Kind:
    return Kind("one of " + ", ".join(repr(value) for value in values), lambda value: value in values)


COMMON_FIELDS = {"seat": SEAT, "label": LABEL}
Shapes = dict[str, dict[str, Kind]]


def describe(value: Any) -> Words | str:
    """What a value is, in a few words (``str()`` of it is English); only a short text is shown as itself (a
    value may be huge)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return Words(gettext_noop("a number too big")) if abs(value) > MAX_WHOLE else Words(gettext_noop("a number"))
    if isinstance(value, float):
        return Words(gettext_noop("a fraction"))
    if isinstance(value, str):
        if 0 < len(value) <= 30:
            return repr(value)
        return Words(gettext_noop("a text of %(length)s characters"), length=len(value))
    if isinstance(value, list):
        return Words(gettext_noop("a list of %(length)s items"), length=len(value))
    if isinstance(value, dict):
        return Words(gettext_noop("a set of fields"))
    return type(value).__name__


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def check_action(action: Any, shapes: Shapes, game: str) -> None:
    """Refuse an action that does not have the shape ``shapes`` declare, with a sentence."""
    if not isinstance(action, dict):
        raise IllegalAction(gettext_noop("An action must be a set of fields with a type."))
    kind = action.get("type")
    if kind is not None and not isinstance(kind, str):
        raise IllegalAction(gettext_noop("An action's type must be a word, not %(value)s."), value=describe(kind))
    fields = shapes.get(kind)
    if fields is None:
        shown = _short(kind) if kind is not None else "None"
        raise IllegalAction(gettext_noop("Unknown action type %(kind)s; %(game)s knows %(types)s."), kind=shown,
                            game=game, types=", ".join(sorted(shapes)))
    for name, value in action.items():
        if name == "type":
            continue
        field_kind = fields.get(name) or COMMON_FIELDS.get(name)
        if field_kind is None:
            known = ", ".join(sorted({*fields, *COMMON_FIELDS}))
            raise IllegalAction(gettext_noop("A %(kind)r action has no field %(field)s; its fields are %(known)s."),
                                kind=kind, field=_short(str(name)), known=known)
        if not field_kind.accepts(value):
            raise IllegalAction(gettext_noop("The field %(field)r of a %(kind)r action must be %(wanted)s, not "
                                             "%(value)s."), field=name, kind=kind, wanted=field_kind.name,
                                value=describe(value))


def field_problems(data: Any, fields: dict[str, Kind], required: tuple[str, ...] = (), what: str = "") -> list[str]:
    """Sentences for each way ``data`` is not a dict of ``fields`` holding ``required`` (empty when it is)."""
    if not isinstance(data, dict):
        return [f"{what} must be a JSON object, not {describe(data)}"]
    problems = [f"{what} needs {name!r}" for name in required if name not in data]
    for name, value in data.items():
        kind = fields.get(name)
        if kind is None:
            problems.append(f"{what} has no field {_short(str(name))}; its fields are {', '.join(fields)}")
        elif not kind.accepts(value):
            problems.append(f"{what}: {name!r} must be {kind.name}, not {describe(value)}")
    return problems


def checked(shapes: Shapes, game: str | Words) -> Callable[[Callable], Callable]:
    """Decorate an engine's ``apply``: its rules only ever see actions of the declared shapes."""

    def decorate(apply: Callable) -> Callable:
        @functools.wraps(apply)
        def apply_checked(state: dict, action: dict, rng) -> dict:
            check_action(action, shapes, game)
            return apply(state, action, rng)

        apply_checked.shapes = shapes
        return apply_checked

    return decorate


class MalformedJson(ValueError):
    """JSON text that cannot be read, or nested too deeply; the message says which."""


def load_json(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text; nesting deeper than ``max_depth`` lists and dicts is refused with a sentence."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise MalformedJson(f"The JSON is nested too deeply (more than {max_depth} levels).") from None
    except ValueError as error:
        raise MalformedJson(f"This is not valid JSON: {error}.") from None
    if depth(data) > max_depth:
        raise MalformedJson(f"The JSON is nested too deeply (more than {max_depth} levels).")
    return data


def depth(data: Any) -> int:
    """How deeply lists and dicts nest in ``data`` (a plain value is 0), without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in item)
    return deepest
