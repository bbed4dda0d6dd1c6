"""Catalog rows: each cell parsed against its model field, each row checked whole, then applied at once."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.utils.translation import gettext

from ..engines.shapes import depth
from ..models import CatalogEntry
from .base import (
    FALSE_WORDS,
    MAX_JSON_DEPTH,
    TRUE_WORDS,
    WHOLE_NUMBER,
    CatalogImportError,
    CatalogSpec,
    ImportReport,
    Row,
    at,
    both,
    column_problems,
    holds_nul,
)

# --- validation and import -----------------------------------------------------------------


def catalog_import(
    *,
    spec: CatalogSpec,
    rows: Sequence[tuple[int, Row]],
    source: str = CatalogEntry.Source.IMPORTED,
    unit: str = "line",
    columns: Sequence[str] | None = None,
) -> ImportReport:
    """Validate every row, then apply them all in one transaction, or raise and apply nothing.

    ``columns`` (default: all the spec's fields, key included) are the columns the rows
    must carry; a partial list leaves the other fields of existing rows as they are and
    gives new rows the model's defaults.  Rows absent from ``rows`` are never touched.
    """
    columns = tuple(columns or spec.fields)
    if spec.key_field not in columns:
        raise ValueError(f"The rows must carry the key field {spec.key_field!r}.")
    if not rows:
        raise CatalogImportError(errors=[gettext("There are no rows to import.")])
    clean_rows = _validate_rows(spec, rows, unit=unit, columns=columns)
    return _apply(spec, clean_rows, source=source, columns=columns)


def _validate_rows(
    spec: CatalogSpec, rows: Sequence[tuple[int, Row]], *, unit: str, columns: Sequence[str]
) -> list[Row]:
    errors: list[str] = []
    clean_rows: list[Row] = []
    first_seen: dict[Any, int] = {}
    for number, raw in rows:
        problems = column_problems(spec, list(raw), columns=columns)
        if problems:
            sentence = gettext("%(where)s: the row %(problems)s.")
            errors.append(sentence % {"where": at(unit, number), "problems": both(problems)})
            continue
        clean: Row = {}
        row_errors: list[str] = []
        for name in columns:
            try:
                clean[name] = parse_value(spec.model._meta.get_field(name), name, raw[name])
            except ValueError as error:
                row_errors.append(str(error))
        if not row_errors:
            row_errors = _model_problems(spec, clean, columns)
        if not row_errors and spec.row_validator:
            row_errors = spec.row_validator(clean)
        key = clean.get(spec.key_field)
        if key is not None:
            if key in first_seen:
                row_errors.append(gettext("%(field)s %(key)r appears twice (first on %(where)s)") % {
                    "field": spec.key_field, "key": key, "where": at(unit, first_seen[key])})
            else:
                first_seen[key] = number
        errors.extend(f"{at(unit, number)}: {problem}" for problem in row_errors)
        clean_rows.append(clean)
    if errors:
        raise CatalogImportError(errors=errors)
    return clean_rows


def _model_problems(spec: CatalogSpec, clean: Row, columns: Sequence[str]) -> list[str]:
    """The model's own checks (``full_clean``: field validators and bounds), without queries.

    Uniqueness is the import's to judge (rows match on the natural key); check constraints
    repeat the field validators in the database.
    """
    instance = spec.model(**clean)
    excluded = [f.name for f in spec.model._meta.concrete_fields if f.name not in columns]
    try:
        instance.full_clean(exclude=excluded, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        return [f"{name}: {' '.join(messages)}" if name != "__all__" else " ".join(messages)
                for name, messages in error.message_dict.items()]
    return []



def parse_value(model_field: models.Field, column: str, raw: Any) -> Any:
    """Turn one cell (CSV text or a JSON value) into the field's value, or raise ValueError saying why."""
    if isinstance(model_field, models.JSONField):
        if (raw is None or (isinstance(raw, str) and not raw.strip())) and model_field.blank:
            return model_field.get_default()
        return _parse_json_cell(column, raw)
    if isinstance(raw, (dict, list)):
        raise ValueError(gettext("%(column)s must be a single value, got %(raw)r") % {"column": column, "raw": raw})
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if model_field.blank and not isinstance(model_field, (models.BooleanField, models.IntegerField)):
            return ""
        raise ValueError(gettext("%(column)s is required") % {"column": column})
    if isinstance(model_field, models.BooleanField):
        value: Any = _parse_bool(column, raw)
    elif isinstance(model_field, models.IntegerField):
        value = _parse_int(column, raw)
        _check_range(model_field, column, value)
    else:
        if isinstance(raw, (bool, float)):
            raise ValueError(gettext("%(column)s must be text, got %(raw)r") % {"column": column, "raw": raw})
        value = str(raw).strip()
    if model_field.choices:
        allowed = {str(choice).lower(): choice for choice, _label in model_field.flatchoices}
        if str(value).lower() not in allowed:
            choices = describe_choices([str(c) for c in allowed.values()])
            raise ValueError(gettext("%(column)s must be %(choices)s, got %(raw)r") % {
                "column": column, "choices": choices, "raw": raw})
        value = allowed[str(value).lower()]
    try:
        model_field.run_validators(value)
    except ValidationError as error:
        raise ValueError(gettext("%(column)s: %(problems)s (got %(raw)r)") % {
            "column": column, "problems": " ".join(error.messages), "raw": raw}) from None
    return value


def _parse_json_cell(column: str, raw: Any) -> Any:
    """A JSON field: a JSON object or list as is, or CSV text holding one."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            example = '["a", "b"] or {"kind": "a"}'
            raise ValueError(gettext("%(column)s must be JSON, such as %(example)s, got %(raw)s") % {
                "column": column, "example": example, "raw": _short(raw)}) from None
        except RecursionError:
            raise ValueError(_too_deep(column)) from None
    if not isinstance(raw, (dict, list)):
        sentence = gettext("%(column)s must be a JSON object, got %(raw)s")
        raise ValueError(sentence % {"column": column, "raw": _short(raw)})
    if depth(raw) > MAX_JSON_DEPTH - 3:
        raise ValueError(_too_deep(column))
    if holds_nul(raw):
        raise ValueError(gettext("%(column)s holds a NUL character (\\u0000), which no card text may contain")
                         % {"column": column})
    return raw


def _too_deep(column: str) -> str:
    return gettext("%(column)s is nested too deeply (at most %(levels)s levels)") % {
        "column": column, "levels": MAX_JSON_DEPTH - 3}


def _short(raw: Any) -> str:
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_range(model_field: models.Field, column: str, value: int) -> None:
    """A number beyond the field's bounds (campaign/bounds.py validators) is refused as "1–9, got 0"."""
    low = max((v.limit_value for v in model_field.validators if isinstance(v, MinValueValidator)), default=None)
    high = min((v.limit_value for v in model_field.validators if isinstance(v, MaxValueValidator)), default=None)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise ValueError(gettext("%(column)s must be %(low)s–%(high)s, got %(value)s") % {
                "column": column, "low": low, "high": high, "value": value})
        if low is not None:
            raise ValueError(gettext("%(column)s must be at least %(low)s, got %(value)s") % {
                "column": column, "low": low, "value": value})
        raise ValueError(gettext("%(column)s must be at most %(high)s, got %(value)s") % {
            "column": column, "high": high, "value": value})


def _parse_bool(column: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise ValueError(gettext("%(column)s must be true or false, got %(raw)r") % {"column": column, "raw": raw})


def _parse_int(column: str, raw: Any) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and WHOLE_NUMBER.fullmatch(raw.strip()):
        return int(raw.strip())
    raise ValueError(gettext("%(column)s must be a whole number, got %(raw)r") % {"column": column, "raw": raw})


def describe_choices(values: list[str]) -> str:
    """``["1", ..., "9", "A"]`` -> ``"1–9 or A"``; ``["silver", "gold"]`` -> ``"silver or gold"``."""
    parts: list[str] = []
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and _follows(values[end], values[end + 1]):
            end += 1
        if end - start >= 2:
            parts.append(f"{values[start]}–{values[end]}")
        else:
            parts.extend(values[start:end + 1])
        start = end + 1
    # Translators: the last of the values a column takes ("1–9 or A", "silver or gold").
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " " + gettext("or") + " " + parts[-1]


def _follows(previous: str, value: str) -> bool:
    return previous.isdigit() and value.isdigit() and int(value) == int(previous) + 1


@transaction.atomic
def _apply(spec: CatalogSpec, rows: list[Row], *, source: str, columns: Sequence[str]) -> ImportReport:
    manager = spec.model.objects
    keys = [row[spec.key_field] for row in rows]
    existing = manager.select_for_update().in_bulk(keys, field_name=spec.key_field)
    to_create: list[CatalogEntry] = []
    to_update: list[CatalogEntry] = []
    for row in rows:
        entry = existing.get(row[spec.key_field])
        if entry is None:
            to_create.append(spec.model(**row, **{spec.source_field: source}))
        elif any(getattr(entry, name) != value for name, value in row.items()):
            for name, value in row.items():
                setattr(entry, name, value)
            setattr(entry, spec.source_field, source)
            to_update.append(entry)
    manager.bulk_create(to_create, batch_size=500)
    if to_update:
        manager.bulk_update(to_update, [*columns, spec.source_field], batch_size=500)
    unchanged = len(rows) - len(to_create) - len(to_update)
    return ImportReport(created=len(to_create), updated=len(to_update), unchanged=unchanged)
