"""The registry of archive sections: each kind of record, how it is exported and how it is loaded.

A ``Section`` exports a campaign's records of its kind (plain JSON data: the source id as "id",
references as "<name>_id" holding source ids, times as ISO strings, days as numbers; never a password
hash or a session; a model field called ``kind`` travels as ``<section>_kind``, since "kind" is the
record's own) and loads one record into the new campaign through the ``ImportContext``.
Sections run in ``order``: a record refers only to records of lower-ordered sections or its own kind.

Each section module of this package registers its kinds when imported: campaign.py (the campaign, days,
accounts, ledger, activity), people.py (members, invites), tabletop.py (tables, seats, logs, stakes),
armies.py with unit_cards.py and battles.py (the armies kinds); kinds.py shows where each kind loads.
archive/apps.py imports them when Django is ready; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from campaign.models import Campaign

from ..context import ImportContext
from ..format import END


@dataclass(frozen=True)
class Section:
    kind: str
    order: int
    export: Callable[[Campaign], Iterable[dict]]
    load: Callable[[dict, ImportContext], None]
    # The names other records use for this kind in a free reference (a ledger entry's cause_type, an
    # activity's target_type, a unit event's cause_type), e.g. ("settlement",): ``ImportContext.remap_later``
    # finds the new id through them.
    names: tuple[str, ...] = ()


_registry: dict[str, Section] = {}


def register(section: Section) -> Section:
    """Add ``section``; a second section of one kind is a programming error (two modules disagree)."""
    if section.kind == END or not section.kind:
        raise ValueError(f"{section.kind!r} is not a kind a section may have.")
    existing = _registry.get(section.kind)
    if existing is not None and existing != section:
        raise ValueError(f"Two archive sections of kind {section.kind!r}.")
    _registry[section.kind] = section
    return section


def sections() -> list[Section]:
    return sorted(_registry.values(), key=lambda section: (section.order, section.kind))


def section_for(kind: str) -> Section | None:
    return _registry.get(kind)


def kinds() -> frozenset[str]:
    return frozenset(_registry)


def kind_named(name: str) -> str | None:
    """The kind a free reference's type name (``Section.names``) stands for, or None."""
    for section in _registry.values():
        if name in section.names:
            return section.kind
    return None
