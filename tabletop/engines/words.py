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

import functools
import re
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


# ---------------------------------------------------------------- phrases written as English text
#
# A log line an engine keeps in its state, or a move's label its view gives, is English text: the state and
# its digests must be the same in every language, and tables saved before issue 41 hold such lines. Each
# such sentence is written from a template the engine names at import (``phrase``), so the site reads any
# line back into its template and values (``read``) and says it in the reader's language (``say_text``).
# A value named ``..._words`` is itself a phrase of the book and is said too; every other value (a card's
# name, a player's name, a number) is put in as it is. A line no template matches is shown as it is.

_PLACEHOLDER = re.compile(r"%\((\w+)\)([sd])|%%")
_book: dict[str, re.Pattern] = {}  # template -> its anchored pattern
_order: list[str] = []  # the templates, in the order registered
_joiners: list[str] = []  # the lists' templates (``_joiner``), tried first
_opening: dict[str, int] = {}  # template -> the length of its fixed text before its first value


def phrase(message: str) -> str:
    """``message`` unchanged, registered as a template of the engines' English lines (and marked: the message
    extractor looks for ``phrase`` as for ``gettext_noop``)."""
    if message not in _book:
        _book[message] = _pattern(message)
        first = _PLACEHOLDER.search(message)
        _opening[message] = first.start() if first else len(message)
        (_joiners if _joiner(message) else _order).append(message)
        _read.cache_clear()
        _lines.cache_clear()
    return message


def _pattern(template: str) -> re.Pattern:
    parts, last = [], 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[last : match.start()]))
        if match.group(0) == "%%":
            parts.append("%")
        else:
            name, kind = match.group(1), match.group(2)
            parts.append(f"(?P<{name}>-?\\d+)" if kind == "d" else f"(?P<{name}>.+?)")
        last = match.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def _joiner(template: str) -> bool:
    """A list's template: only phrases joined ("%(first_words)s; %(rest_words)s")."""
    names = [match.group(1) for match in _PLACEHOLDER.finditer(template) if match.group(1)]
    return len(names) >= 2 and all(name.endswith("_words") for name in names)


@functools.lru_cache(maxsize=8192)
def _read(text: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """The template ``text`` was written from. A list of phrases first: a joiner whose every part reads as a
    phrase of the book ("A; B; C" as A, then "B; C"). Else, of the templates that match, the one whose fixed
    opening is longest (a value at the start may swallow a nested phrase: "Game over: %(result_words)s" before
    "%(winner)s wins."), then the one with most fixed text (the most specific)."""
    for template in _joiners:
        match = _book[template].match(text)
        if match and all(_read(part) is not None for part in match.groupdict().values()):
            return template, tuple(match.groupdict().items())
    best, best_rank = None, (-1, -1)
    for template in _order:
        match = _book[template].match(text)
        if match:
            rank = (_opening[template], len(_PLACEHOLDER.sub("", template)))
            if rank > best_rank:
                best, best_rank = (template, tuple(match.groupdict().items())), rank
    return best


def read(text: str) -> Words | None:
    """The phrase ``text`` was written from (its template and values), or None: no template of the book."""
    found = _read(text)
    if found is None:
        return None
    template, values = found
    params: dict[str, Any] = {}
    for name, value in values:
        if name.endswith("_words"):
            params[name] = read(value) or value
        elif template.find(f"%({name})d") >= 0:
            params[name] = int(value)
        else:
            params[name] = value
    return Words(template, **params)


_SENTENCE_END = re.compile(r"(?<=[.!?]) (?=[A-Z])")


def say_text(text: str, translate: Translate) -> str:
    """An engine's English line in ``translate``'s language (as it is when no template of the book matches).
    Lines a page shows together ("Ann plays X on D4. Every battlefield is taken: ...") are said sentence by
    sentence when no one template reads them whole without a value swallowing a sentence."""
    if not isinstance(text, str):
        return text
    words = read(text)
    if words is None or _swallows_a_sentence(words):
        lines = _lines(text)
        if lines is not None and len(lines) > 1:
            return " ".join(read(line).say(translate) for line in lines)
    return words.say(translate) if words is not None else text


def _swallows_a_sentence(words: Words) -> bool:
    return any(isinstance(value, str) and _SENTENCE_END.search(value) for value in words.params.values())


@functools.lru_cache(maxsize=2048)
def _lines(text: str) -> tuple[str, ...] | None:
    """``text`` as lines of the book one after another, cut where a sentence ends (a line may hold several
    sentences itself); None when it is not."""
    words = read(text)
    if words is not None and not _swallows_a_sentence(words):
        return (text,)
    for boundary in _SENTENCE_END.finditer(text):
        head = read(text[: boundary.start()])
        if head is not None and not _swallows_a_sentence(head):
            rest = _lines(text[boundary.end() :])
            if rest is not None:
                return (text[: boundary.start()], *rest)
    return None
