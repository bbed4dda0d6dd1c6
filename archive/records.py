"""Reading a record's fields with a refusal for a wrong one, and writing one: what every section uses.

Each reader takes the record and the field's name and returns the value, or raises ``ArchiveRefused``
naming the record ("The archive's ledger_entry 12 has no valid amount."). A model's own bounds are also
its database's check constraints; these refusals come first, with a sentence. The armies sections read
with the ``*_of`` readers, which name the record by what it is ("The archive's commander has no valid
'name'."). The export side: ``iso``, ``username`` and ``rows``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import F
from django.utils.dateparse import parse_date, parse_datetime, parse_time
from django.utils.translation import gettext_noop

from .format import ArchiveRefused

_MISSING = object()
CHUNK = 2000  # rows a streamed export query fetches at a time
HELD_TWICE = gettext_noop("The archive holds %(kind)s %(id)s twice.")  # the record's kind and id, as the file has them


# A field's refusal by what is wrong with it; the placeholders are the file's own (the record's kind and id,
# the field's key).
_NO = {
    "valid": gettext_noop("The archive's %(kind)s %(id)s has no valid %(name)s."),
    "known": gettext_noop("The archive's %(kind)s %(id)s has no known %(name)s."),
    "valid time for": gettext_noop("The archive's %(kind)s %(id)s has no valid time for %(name)s."),
    "valid date for": gettext_noop("The archive's %(kind)s %(id)s has no valid date for %(name)s."),
}


def named(message: str, **params: Any) -> list:
    """What a refusal calls a record (the ``what`` of the ``*_of`` readers and ``ImportContext.id_for``): words
    said in the reader's language with the rest, ``named(gettext_noop("seat %(id)s"), id=7)``."""
    return [[message, params]]


def _named(record: dict) -> dict:
    """The placeholders that name a record: its kind and its id, as the file has them."""
    return {"kind": record.get("kind"), "id": repr(record.get("id", ""))}


def _bad(record: dict, name: str, what: list = "valid") -> ArchiveRefused:
    return ArchiveRefused(_NO[what], name=name, **_named(record))


def integer(record: dict, name: str, low: int | None = None, high: int | None = None, *,
            null: bool = False, default: Any = _MISSING) -> int | None:
    value = record.get(name, default)
    if value is _MISSING:
        raise _bad(record, name)
    if value is None and null:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(record, name)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ArchiveRefused(
            gettext_noop("The archive's %(kind)s %(id)s has %(name)s %(value)d, outside %(low)s..%(high)s."),
            name=name, value=value, low=low if low is not None else "…", high=high if high is not None else "…",
            **_named(record),
        )
    return value


def text(record: dict, name: str, max_length: int | None = None, *, blank: bool = True,
         null: bool = False, default: Any = _MISSING) -> str | None:
    value = record.get(name, default)
    if value is _MISSING:
        raise _bad(record, name)
    if value is None and null:
        return None
    if not isinstance(value, str) or (not blank and not value) or "\x00" in value:
        raise _bad(record, name)
    if max_length is not None and len(value) > max_length:
        raise ArchiveRefused(
            gettext_noop("The archive's %(kind)s %(id)s has a %(name)s longer than %(length)d characters."),
            name=name, length=max_length, **_named(record),
        )
    return value


def choice(record: dict, name: str, choices, *, default: Any = _MISSING) -> str:
    value = record.get(name, default)
    # every choice is text; a list or a mapping here is no choice (and could not be looked up in a set)
    if not isinstance(value, str) or value not in choices:
        raise _bad(record, name, "known")
    return value


def boolean(record: dict, name: str, *, default: Any = _MISSING) -> bool:
    value = record.get(name, default)
    if not isinstance(value, bool):
        raise _bad(record, name)
    return value


def moment(record: dict, name: str, *, null: bool = False, default: Any = _MISSING) -> datetime.datetime | None:
    """An aware time from its ISO string."""
    value = record.get(name, default)
    if value is None and null:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) and len(value) <= 40 else None
    if parsed is None or parsed.tzinfo is None:
        raise _bad(record, name, "valid time for")
    return parsed


def time_of_day(record: dict, name: str, *, null: bool = False) -> datetime.time | None:
    value = record.get(name)
    if value is None and null:
        return None
    parsed = parse_time(value) if isinstance(value, str) and len(value) <= 20 else None
    if parsed is None:
        raise _bad(record, name, "valid time for")
    return parsed


def date(record: dict, name: str, *, null: bool = False) -> datetime.date | None:
    value = record.get(name)
    if value is None and null:
        return None
    parsed = parse_date(value) if isinstance(value, str) and len(value) <= 20 else None
    if parsed is None:
        raise _bad(record, name, "valid date for")
    return parsed


def json_value(record: dict, name: str, *, types: tuple[type, ...] = (dict, list), null: bool = False,
               default: Any = _MISSING) -> Any:
    """A JSON field's value (already bounded by the reader's limits), of one of ``types``."""
    value = record.get(name, default)
    if value is _MISSING:
        raise _bad(record, name)
    if value is None and null:
        return None
    if not isinstance(value, types):
        raise _bad(record, name)
    return value


def ident(record: dict, name: str = "id", *, null: bool = False) -> int | None:
    """A source id (a reference's value); it only has to be a whole number the archive uses consistently."""
    return integer(record, name, 0, 2**63 - 1, null=null)


def iso(value: datetime.datetime | datetime.date | datetime.time | None) -> str | None:
    """Export side: a time as the ISO string a record holds."""
    return None if value is None else value.isoformat()


def username(user) -> str | None:
    """Export side: a user as the name a record holds (the import maps it to the importer or nobody)."""
    return None if user is None else user.get_username()


# ------------------------------------------------------------------------------------------ by what it is


def field_of(record: dict, name: str, kinds: tuple[type, ...], *, null: bool = False, what: list) -> Any:
    value = record.get(name)
    if value is None and null:
        return None
    if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
        raise ArchiveRefused(gettext_noop("The archive's %(what)s has no valid %(name)s."), what=what, name=repr(name))
    return value


def int_of(record: dict, name: str, *, what: list, null: bool = False, minimum: int = 0) -> int | None:
    value = field_of(record, name, (int,), null=null, what=what)
    if value is not None and value < minimum:
        raise ArchiveRefused(gettext_noop("The archive's %(what)s has a %(name)s below %(minimum)d."), what=what,
                             name=repr(name), minimum=minimum)
    return value


def str_of(record: dict, name: str, *, what: list, choices: Iterable[str] | None = None, blank: bool = True) -> str:
    value = field_of(record, name, (str,), what=what)
    if choices is not None and value not in choices:
        raise ArchiveRefused(gettext_noop("The archive's %(what)s has an unknown %(name)s %(value)s."), what=what,
                             name=name, value=repr(value[:40]))
    if not blank and not value:
        raise ArchiveRefused(gettext_noop("The archive's %(what)s has an empty %(name)s."), what=what, name=repr(name))
    return value


def bool_of(record: dict, name: str, *, what: list) -> bool:
    return field_of(record, name, (bool,), what=what)


def time_of(record: dict, name: str, *, what: list, null: bool = False) -> datetime.datetime | None:
    value = field_of(record, name, (str,), null=null, what=what)
    if value is None:
        return None
    try:
        parsed = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise ArchiveRefused(gettext_noop("The archive's %(what)s has %(name)s %(value)s, which is not a time."),
                             what=what, name=name, value=repr(value[:40])) from None
    if parsed.tzinfo is None:
        raise ArchiveRefused(gettext_noop("The archive's %(what)s has %(name)s %(value)s without its time zone."),
                             what=what, name=name, value=repr(value[:40]))
    return parsed


def json_of(record: dict, name: str, kinds: tuple[type, ...], *, what: list, null: bool = False) -> Any:
    return field_of(record, name, kinds, null=null, what=what)


def rows(queryset, fields: Iterable[str], **renamed: str) -> Iterator[dict]:
    """The rows' ``fields`` as records, in id order, streamed; ``renamed``: record name -> model field (a
    model's own ``kind`` is not the record's kind)."""
    streamed = queryset.order_by("pk").values(*fields, **{name: F(field) for name, field in renamed.items()})
    return streamed.iterator(chunk_size=CHUNK)

