"""Whether two archives hold the same campaign, apart from what an import makes its own.

An archive exported after an import differs from the original in ways that mean nothing: every id
(the new database numbers its rows afresh), the header's export time, the campaign's slug (made free
here) and the import's own line in the activity log. ``archives_differences`` reads both archives
side by side (streamed, checked as any archive is) and lists everything else that differs:

- records are paired in order: each pair must be of one kind and hold the same fields;
- ids are matched, not compared: the first pairing of a source id with a new one fixes it, and a
  reference (``*_id``) must follow the same pairing wherever it appears;
- every other value must be equal.

``manage.py campaign_compare A B`` prints the differences (tests/archive/test_compare.py).
"""

from __future__ import annotations

from collections import defaultdict
from typing import IO, Any

from .format import DEFAULT_LIMITS, Limits, read_archive

IGNORED_HEADER = {"exported_at", "campaign"}  # when it was written, and the slug it was given here
IGNORED = {("campaign", "slug")}
MAX_DIFFERENCES = 50


def _is_import_line(record: dict) -> bool:
    details = record.get("details")
    return record.get("kind") == "activity" and isinstance(details, dict) and "archive_import" in details


def _is_ref(key: str) -> bool:
    return key == "id" or key.endswith("_id")


class _Pairing:
    """Source ids of one archive paired with those of the other: per kind for "id", and references
    checked against them."""

    def __init__(self):
        self.ids: dict[str, dict[Any, Any]] = defaultdict(dict)
        self.back: dict[str, dict[Any, Any]] = defaultdict(dict)
        self.refs: dict[tuple[str, str], dict[Any, Any]] = defaultdict(dict)

    def pair_id(self, kind: str, a: Any, b: Any) -> str | None:
        if self.ids[kind].setdefault(a, b) != b or self.back[kind].setdefault(b, a) != a:
            return f"{kind} {a} is paired with {b}, but {kind} {self.back[kind].get(b, a)} already was"
        return None

    def pair_ref(self, kind: str, key: str, a: Any, b: Any) -> str | None:
        if a is None or b is None:
            return None if a is b else f"{kind}'s {key} is {a!r} in one and {b!r} in the other"
        known = {ids[a] for ids in self.ids.values() if a in ids}
        if known and b not in known:
            return f"{kind}'s {key} points at {a} in one and at {b} in the other, which is not its counterpart"
        seen = self.refs[(kind, key)].setdefault(a, b)
        if seen != b:
            return f"{kind}'s {key} {a} stands for {seen} and for {b}"
        return None


def archives_differences(first: IO[bytes], second: IO[bytes], *, limits: Limits = DEFAULT_LIMITS,
                         ignore: set[tuple[str, str]] = frozenset()) -> list[str]:
    """What differs between the two archives, in sentences (at most ``MAX_DIFFERENCES``); [] if the same.
    ``ignore``: more (kind, field) pairs not compared."""
    ignored = IGNORED | set(ignore)
    a_reader, b_reader = read_archive(first, limits), read_archive(second, limits)
    differences: list[str] = []

    def differ(sentence: str) -> bool:
        differences.append(sentence)
        return len(differences) >= MAX_DIFFERENCES

    for key in sorted((set(a_reader.header) | set(b_reader.header)) - IGNORED_HEADER):
        if a_reader.header.get(key) != b_reader.header.get(key):
            differ(f"The headers differ in {key}: {a_reader.header.get(key)!r} and {b_reader.header.get(key)!r}.")

    pairing = _Pairing()
    a_records, b_records = iter(a_reader), iter(b_reader)
    number = 0
    while True:
        a = next(a_records, None)
        b = next(b_records, None)
        while b is not None and _is_import_line(b) and (a is None or not _is_import_line(a)):
            b = next(b_records, None)  # the line the import wrote about itself
        if a is None and b is None:
            break
        number += 1
        if a is None or b is None:
            more, record = ("second", b) if a is None else ("first", a)
            differ(f"Record {number}: the {more} archive goes on with a {record['kind']} record "
                   "the other does not have.")
            break
        if a["kind"] != b["kind"]:
            differ(f"Record {number} is a {a['kind']} in the first archive and a {b['kind']} in the second.")
            break
        kind = a["kind"]
        for key in sorted(set(a) | set(b)):
            if (kind, key) in ignored or key == "kind":
                continue
            if key not in a or key not in b:
                problem = f"only one has {key}"
            elif key == "id":
                problem = pairing.pair_id(kind, a[key], b[key])
            elif _is_ref(key):
                # a free reference (cause_id, target_id) is paired within its type: cause 1 may be an
                # offer in one record and a battle in the next
                typed = f"{key}:{a.get(key[:-3] + '_type', '')}"
                problem = pairing.pair_ref(kind, typed, a[key], b[key])
            elif a[key] != b[key]:
                problem = f"{key} is {_short(a[key])} in one and {_short(b[key])} in the other"
            else:
                problem = None
            if problem and differ(f"Record {number} ({kind} {a.get('id')}): {problem}."):
                return differences
    return differences


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"
