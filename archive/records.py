"""Reading a record's fields with a refusal for a wrong one: what every section's ``load`` uses.

Each reader takes the record and the field's name and returns the value, or raises ``ArchiveRefused``
naming the record ("The archive's ledger_entry 12 has no valid amount."). A model's own bounds are also
its database's check constraints; these refusals come first, with a sentence.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.utils.dateparse import parse_date, parse_datetime, parse_time

from .format import ArchiveRefused

_MISSING = object()


def _bad(record: dict, name: str, what: str = "valid") -> ArchiveRefused:
    return ArchiveRefused(f"The archive's {record.get('kind')} {record.get('id', '')!r} has no {what} {name}.")


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
            f"The archive's {record.get('kind')} {record.get('id', '')!r} has {name} {value}, outside "
            f"{low if low is not None else '…'}..{high if high is not None else '…'}."
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
            f"The archive's {record.get('kind')} {record.get('id', '')!r} has a {name} longer than "
            f"{max_length} characters."
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
