"""The Army unit-card catalog: its import/export spec and the starter units.

The generic machinery (``tabletop.catalog``) reads every cell as one plain value and
every whole-number column as required, so two things are adapted here, before and after it:

- the JSON-list columns, ``traits`` and ``abilities``, travel as JSON *text*: in a CSV cell
  (``["reach"]``, as the generic export writes them) and, on the way in, from a JSON file
  too (``prepare_rows`` turns a list into that text before the generic import sees it);
  the row check decodes the text back into lists, validates them and puts the lists in
  the row it checked;
- ``strength`` may be empty (a card that cannot fight: Rituals, the Courier); the import
  remembers those rows, hands the generic check a 0, and the row check puts ``None`` back.

The whole card is checked by the army engine (``config.normalise_card``: role, path,
traits, the ability vocabulary of ``abilities.py``), imported as any module of the floor
below: the engine is part of the tree, so nothing is probed for.

Errata never rewrite history: a roster shows the current card (a foreign key), a battle
keeps the snapshot of the cards it was fought with.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tabletop.catalog import CatalogSpec, ImportReport, Row, catalog_import
from tabletop.engines.army.config import normalise_card
from tabletop.engines.army.starter import STARTER_UNITS
from tabletop.models import CatalogEntry

from .models import UnitCard

JSON_COLUMNS = ("traits", "abilities")
TRAIT = re.compile(r"[a-z]+(?:[-_][a-z]+)*")


def engine_problems(card: Row) -> list[str]:
    """What the army engine's whole-card check (``normalise_card(raw, where)``) finds wrong with the card."""
    try:
        normalise_card({**card, "id": card["code"]}, f"Card {card['code']!r}")
    except (ValueError, TypeError, KeyError) as error:
        return [str(error)]
    return []


def _decode_list(row: Row, column: str) -> tuple[list | None, str | None]:
    value = row[column]
    if isinstance(value, list):
        return value, None
    if value in ("", None):
        return [], None
    try:
        decoded = json.loads(value)
    except (TypeError, json.JSONDecodeError):
        decoded = None
    if not isinstance(decoded, list):
        return None, gettext('%(column)s must be a JSON list such as ["reach"], got %(value)s') % {
            "column": column,
            "value": repr(value),
        }
    return decoded, None


def check_unit_row(row: Row, *, without_strength: frozenset[str] = frozenset()) -> list[str]:
    """Row-level check of one unit card; also puts back the lists and the empty strengths, in place."""
    if row.get("code") in without_strength:
        row["strength"] = None
    problems: list[str] = []
    for column in JSON_COLUMNS:
        decoded, problem = _decode_list(row, column)
        if problem:
            problems.append(problem)
        else:
            row[column] = decoded
    if problems:
        return problems
    bad_traits = [trait for trait in row["traits"] if not isinstance(trait, str) or not TRAIT.fullmatch(trait)]
    if bad_traits:
        problems.append(
            gettext("traits must be lowercase words such as reach or undead, got %(traits)s")
            % {"traits": repr(bad_traits)}
        )
    elif len(set(row["traits"])) != len(row["traits"]):
        problems.append(gettext("traits lists a trait twice: %(traits)s") % {"traits": repr(row["traits"])})
    problems.extend(engine_problems(row))
    return problems


UNIT_CARDS = CatalogSpec(
    slug="army-unit-cards",
    model=UnitCard,
    key_field="code",
    fields=("code", "name", "strength", "role", "path", "traits", "abilities", "upkeep", "price", "text", "active"),
    row_validator=check_unit_row,
    hints={
        "strength": _("a whole number; leave empty for a card that cannot fight (Rituals)"),
        "traits": _('a JSON list of lowercase words, e.g. ["reach", "undead"] (empty: no traits)'),
        "abilities": _('a JSON list in the army engine\'s vocabulary, e.g. [{"kind": "..."}] (empty: none)'),
        "upkeep": _("coins per day the unit is used (a whole number)"),
        "price": _("usual recruit price in coins (a whole number)"),
    },
)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def prepare_rows(rows: Sequence[tuple[int, Row]]) -> tuple[list[tuple[int, Row]], frozenset[str]]:
    """Rows the generic import can read (lists as JSON text, 0 for an empty strength) and the codes
    whose strength was empty."""
    prepared: list[tuple[int, Row]] = []
    without_strength: set[str] = set()
    for number, row in rows:
        if isinstance(row, dict):
            row = {
                name: json.dumps(value) if name in JSON_COLUMNS and isinstance(value, (list, dict)) else value
                for name, value in row.items()
            }
            if "strength" in row and _blank(row["strength"]) and not _blank(row.get("code")):
                without_strength.add(str(row["code"]).strip())
                row["strength"] = 0
        prepared.append((number, row))
    return prepared, frozenset(without_strength)


def unit_catalog_import(
    *,
    rows: Sequence[tuple[int, Row]],
    source: str = CatalogEntry.Source.IMPORTED,
    unit: str = "line",
    columns: Sequence[str] | None = None,
) -> ImportReport:
    """``catalog_import`` for unit cards: all or nothing; lists in the JSON columns, empty strengths."""
    prepared, without_strength = prepare_rows(rows)
    spec = replace(UNIT_CARDS, row_validator=partial(check_unit_row, without_strength=without_strength))
    return catalog_import(spec=spec, rows=prepared, source=source, unit=unit, columns=columns)


def starter_units() -> list[dict]:
    """The Army engine's starter units (``tabletop/engines/army/starter.py``), a list of their own."""
    return list(STARTER_UNITS)


@transaction.atomic
def unit_catalog_load_starter(units: Sequence[dict] | None = None) -> ImportReport:
    """Create or refresh the starter unit cards (``source="starter"``); safe to repeat.

    A starter card someone edited is put back to its starter values; ``active`` is left as
    the admin set it, and cards with other codes are not touched. Units a commander power
    grants (``granted_by``: the Alchemy Lab, the Mediating Chaplain) are not catalog cards:
    they are never recruited nor kept in a roster (ruling E13).
    """
    units = starter_units() if units is None else units
    rows = [
        {
            "code": card["code"],
            "name": card["name"],
            "strength": card["strength"],
            "role": card["role"],
            "path": card["path"],
            "traits": list(card.get("traits", [])),
            "abilities": list(card.get("abilities", [])),
            "upkeep": card["upkeep"],
            "price": card["price"],
            "text": card.get("text", ""),
        }
        for card in units
        if not card.get("granted_by")
    ]
    columns = [name for name in UNIT_CARDS.fields if name != "active"]
    return unit_catalog_import(
        rows=list(enumerate(rows, start=1)), source=CatalogEntry.Source.STARTER, unit="starter unit", columns=columns
    )
