"""The engines' sentences, said in the reader's language by the caller (issue 41).

The engines import no Django, so they cannot translate: an engine marks each English template with
``gettext_noop`` (the name the message extractor looks for; it returns the text unchanged) and raises it
with its named values, ``IllegalAction(gettext_noop("There is no seat %(seat)s at this table."), seat=3)``.
The site says it in the request's language, ``refusal.say(gettext)``; ``str()`` is the English sentence,
and nothing an engine stores (state, log, digest) ever holds a translated word.

A value that is itself a phrase of the engine's (``Words``, e.g. an Army battle's step, "Ann plays a unit
on Offense or passes") is said in the same language as the sentence around it; any other value (a card's
name, a player's name, a number) is put in as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Translate = Callable[[str], str]


def gettext_noop(message: str) -> str:
    """``message`` unchanged: the mark that puts an English template into the translators' catalog."""
    return message


def english(message: str) -> str:
    """The translate of ``str()``: the English the engine wrote."""
    return message


def say(message: str, params: dict[str, Any], translate: Translate) -> str:
    """``message`` in ``translate``'s language with its ``params`` put in (``Words`` said likewise). A message
    that is no ``str`` (a site's lazy sentence, another exception) is read as its ``str()`` first."""
    message = message if isinstance(message, str) else str(message)
    if not params:
        return translate(message)
    return translate(message) % {
        key: value.say(translate) if isinstance(value, Words) else value for key, value in params.items()
    }


class Words:
    """A phrase of the engine's: an English template and its named values, said by ``say(translate)``."""

    __slots__ = ("message", "params")

    def __init__(self, message: str, /, **params: Any) -> None:
        self.message = message
        self.params = params

    def say(self, translate: Translate) -> str:
        return say(self.message, self.params, translate)

    def __str__(self) -> str:
        return self.say(english)

    def __repr__(self) -> str:
        return f"Words({self.message!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and (self.message, self.params) == (other.message, other.params)

    def __hash__(self) -> int:
        return hash(self.message)


def either(items: list) -> Any:
    """``items`` as one phrase, "a or b or c" (a single item as it is)."""
    return chain(list(items), gettext_noop("%(first)s or %(rest)s"))


def both(items: list) -> Any:
    """``items`` as one phrase, "a and b and c" (a single item as it is)."""
    return chain(list(items), gettext_noop("%(first)s and %(rest)s"))


def chain(items: list, template: str) -> Any:
    """``items`` joined by ``template`` ("%(first)s or %(rest)s"), a phrase said in the sentence's language."""
    if len(items) == 1:
        return items[0]
    return Words(template, first=items[0], rest=chain(items[1:], template))
