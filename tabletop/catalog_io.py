"""Import and export of card catalogs (CSV and JSON), generic over any ``CatalogEntry`` model.

A ``CatalogSpec`` names a catalog's model, its natural key (``code``, ``key``) and the
columns a file carries.  Each value is parsed and checked against the model field it
lands in (choices, validators, required), then an optional row-level check runs.

An import is all or nothing: ``catalog_import`` checks every row first and raises one
``CatalogImportError`` listing each bad row with its line and the reason; only a
file without errors is applied, in one transaction.  Rows are matched on the natural
key: new keys are created, changed rows updated (and take the import's ``source``),
identical rows are left untouched.  Rows that exist in the database but are absent
from the file are left alone: an import never deletes or deactivates anything
(untick ``active`` to retire a card).

To add a catalog (Army unit cards, ...): declare a spec below and add it to ``CATALOGS``;
the admin mixin in ``tabletop/admin.py`` gives it import/export buttons.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, NoReturn

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction

from .engines.dungeon.catalog import card_problems as dungeon_card_problems
from .engines.gridaris.scoring import MAX_STARS
from .engines.mercenarium.catalog import effect_problems
from .engines.shapes import depth
from .engines.simulate import strings_in
from .models import CatalogEntry, DungeonCard, GridarisCard, GridarisScenario, MercenariumCard, MercenariumHymn

FORMAT_VERSION = 1
MAX_UPLOAD_BYTES = 2_000_000
TRUE_WORDS = {"true", "1", "yes", "y"}
FALSE_WORDS = {"false", "0", "no", "n"}
WHOLE_NUMBER = re.compile(r"[+-]?\d{1,18}")
MAX_JSON_DEPTH = 10  # a catalog's rows are at most a few levels deep; deeper is damage, not data
# OWASP CSV injection: a text cell starting with one of these is a formula to a spreadsheet.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Row = dict[str, Any]
RowValidator = Callable[[Row], list[str]]


class CatalogImportError(Exception):
    """An upload that cannot be imported; ``errors`` holds one readable sentence per problem."""

    def __init__(self, *, errors: list[str]) -> None:
        self.errors = list(errors)
        count = len(self.errors)
        super().__init__(f"{count} problem{'s' if count != 1 else ''}: " + "; ".join(self.errors))


@dataclass(frozen=True)
class CatalogSpec:
    slug: str
    model: type[CatalogEntry]
    key_field: str
    fields: tuple[str, ...]
    row_validator: RowValidator | None = None
    hints: Mapping[str, str] = field(default_factory=dict)  # column -> what it takes, for the import page
    source_field: str = "source"

    def __post_init__(self) -> None:
        if self.key_field not in self.fields:
            raise ValueError(f"The key field {self.key_field!r} must be one of the spec's fields.")
        for name in self.fields:
            self.model._meta.get_field(name)  # fails early on a typo

    @property
    def noun(self) -> str:
        return str(self.model._meta.verbose_name_plural)


@dataclass(frozen=True)
class ImportReport:
    created: int
    updated: int
    unchanged: int

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged

    def summary(self, noun: str) -> str:
        text = f"Imported {self.total} {noun} ({self.created} new, {self.updated} updated"
        return text + (f", {self.unchanged} unchanged)" if self.unchanged else ")")


@dataclass(frozen=True)
class ParsedUpload:
    """Rows of an uploaded file; ``unit`` is what their numbers count: file lines (CSV) or rows (JSON)."""

    rows: list[tuple[int, Row]]
    unit: str = "line"


# --- export ------------------------------------------------------------------------------


def export_rows(spec: CatalogSpec, queryset: models.QuerySet) -> list[Row]:
    return list(queryset.order_by(spec.key_field).values(*spec.fields))


def export_csv(spec: CatalogSpec, queryset: models.QuerySet) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=spec.fields)
    writer.writeheader()
    for row in export_rows(spec, queryset):
        writer.writerow({name: _csv_cell(value) for name, value in row.items()})
    return out.getvalue()


def export_json(spec: CatalogSpec, queryset: models.QuerySet) -> str:
    document = {"catalog": spec.slug, "version": FORMAT_VERSION, "rows": export_rows(spec, queryset)}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _csv_cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    if isinstance(value, str):
        return neutralise_formula(value)
    return value


def neutralise_formula(text: str) -> str:
    """A text a spreadsheet would run as a formula gets a leading ``'`` (ruling C1 in docs/rulings.md).

    Text that already starts with quotes before such a character gets one more, so that
    ``restore_formula`` undoes exactly this and an export imports back unchanged.
    """
    return "'" + text if text.lstrip("'").startswith(FORMULA_STARTS) else text


def restore_formula(cell: str) -> str:
    """The text ``neutralise_formula`` was given: one leading ``'`` less before a formula character."""
    return cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_STARTS) else cell


# --- parsing an upload ---------------------------------------------------------------------


def parse_upload(spec: CatalogSpec, filename: str, content: bytes) -> list[tuple[int, Row]]:
    return read_upload(spec, filename, content).rows


def read_upload(spec: CatalogSpec, filename: str, content: bytes) -> ParsedUpload:
    """Decode and split an upload into numbered rows; a malformed file raises one clear error."""
    if len(content) > MAX_UPLOAD_BYTES:
        _fail(f"The file is {len(content):,} bytes; the limit is {MAX_UPLOAD_BYTES:,}.")
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        _fail(f"The file is not UTF-8 text (bad byte at position {error.start}). "
              "Upload a CSV or JSON file saved as UTF-8.")
    if "\x00" in text:
        _fail("The file is binary, not text. Upload a CSV or JSON file.")
    if not text.strip():
        _fail("The file is empty.")
    suffix = PurePath(filename).suffix.lower()
    if suffix not in {".csv", ".json", ".txt", ""}:
        _fail(f"{filename!r} is neither .csv nor .json. Upload a CSV or JSON file.")
    looks_like_json = text.lstrip().startswith(("{", "["))
    if suffix == ".json" or (suffix != ".csv" and looks_like_json):
        return ParsedUpload(rows=_parse_json(spec, text), unit="row")
    return ParsedUpload(rows=_parse_csv(spec, text), unit="line")


def _parse_csv(spec: CatalogSpec, text: str) -> list[tuple[int, Row]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        numbered = list(_numbered_csv_rows(reader))
    except csv.Error as error:
        _fail(f"line {reader.line_num}: the CSV cannot be read ({error}).")
    numbered = [(line, cells) for line, cells in numbered if any(cell.strip() for cell in cells)]
    if not numbered:
        _fail("The file is empty.")
    header_line, header = numbered[0]
    header = [name.strip() for name in header]
    column_errors = _column_problems(spec, header)
    if len(set(header)) != len(header):
        column_errors.append("a column name appears twice")
    if column_errors:
        _fail(f"line {header_line}: the header row (column names) {' and '.join(column_errors)}. "
              f"Expected: {', '.join(spec.fields)}.")
    if len(numbered) == 1:
        _fail("The file has a header row but no data rows.")
    rows: list[tuple[int, Row]] = []
    errors: list[str] = []
    for line, cells in numbered[1:]:
        if len(cells) != len(header):
            errors.append(f"line {line}: {len(cells)} values but the header has {len(header)} columns.")
        else:
            rows.append((line, {name: restore_formula(cell) for name, cell in zip(header, cells, strict=True)}))
    if errors:
        raise CatalogImportError(errors=errors)
    return rows


def _numbered_csv_rows(reader: Any) -> Iterable[tuple[int, list[str]]]:
    """Each row with the file line it starts on (a quoted value may span several lines)."""
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        yield start, cells


def _parse_json(spec: CatalogSpec, text: str) -> list[tuple[int, Row]]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        _fail(f"The file is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno}).")
    except RecursionError:
        document = None
    if document is None or depth(document) > MAX_JSON_DEPTH:
        _fail(f"The JSON is nested too deeply: a catalog file is at most {MAX_JSON_DEPTH} levels of "
              "lists and objects. Export a catalog to see the expected layout.")
    if _holds_nul(document):
        _fail("The JSON holds a NUL character (\\u0000), which no card text may contain.")
    shape = f'The JSON must be an object like {{"catalog": "{spec.slug}", "version": {FORMAT_VERSION}, "rows": [...]}}'
    if not isinstance(document, dict) or not isinstance(document.get("rows"), list):
        _fail(f"{shape}.")
    if document.get("catalog", spec.slug) != spec.slug:
        _fail(f"This file holds the {document['catalog']!r} catalog, not {spec.slug!r}.")
    if document.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        _fail(f"This file has format version {document['version']!r}; this version of Muster reads {FORMAT_VERSION}.")
    if not document["rows"]:
        _fail("The file has no rows.")
    errors = [
        f"row {number}: expected an object with {', '.join(spec.fields)}, got {type(row).__name__}."
        for number, row in enumerate(document["rows"], start=1)
        if not isinstance(row, dict)
    ]
    if errors:
        raise CatalogImportError(errors=errors)
    return list(enumerate(document["rows"], start=1))


def _fail(message: str) -> NoReturn:
    raise CatalogImportError(errors=[message])


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
        raise CatalogImportError(errors=["There are no rows to import."])
    clean_rows = _validate_rows(spec, rows, unit=unit, columns=columns)
    return _apply(spec, clean_rows, source=source, columns=columns)


def _validate_rows(
    spec: CatalogSpec, rows: Sequence[tuple[int, Row]], *, unit: str, columns: Sequence[str]
) -> list[Row]:
    errors: list[str] = []
    clean_rows: list[Row] = []
    first_seen: dict[Any, int] = {}
    for number, raw in rows:
        problems = _column_problems(spec, list(raw), columns=columns)
        if problems:
            errors.append(f"{unit} {number}: the row {' and '.join(problems)}.")
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
                row_errors.append(f"{spec.key_field} {key!r} appears twice (first on {unit} {first_seen[key]})")
            else:
                first_seen[key] = number
        errors.extend(f"{unit} {number}: {problem}" for problem in row_errors)
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


def _column_problems(spec: CatalogSpec, names: list[str], *, columns: Sequence[str] | None = None) -> list[str]:
    expected = list(columns or spec.fields)
    unknown = [name for name in names if name not in expected]
    missing = [name for name in expected if name not in names]
    problems = []
    if unknown:
        problems.append("has unknown column(s) " + ", ".join(repr(name) for name in unknown))
    if missing:
        problems.append("is missing column(s) " + ", ".join(repr(name) for name in missing))
    return problems


def parse_value(model_field: models.Field, column: str, raw: Any) -> Any:
    """Turn one cell (CSV text or a JSON value) into the field's value, or raise ValueError saying why."""
    if isinstance(model_field, models.JSONField):
        if (raw is None or (isinstance(raw, str) and not raw.strip())) and model_field.blank:
            return model_field.get_default()
        return _parse_json_cell(column, raw)
    if isinstance(raw, (dict, list)):
        raise ValueError(f"{column} must be a single value, got {raw!r}")
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if model_field.blank and not isinstance(model_field, (models.BooleanField, models.IntegerField)):
            return ""
        raise ValueError(f"{column} is required")
    if isinstance(model_field, models.BooleanField):
        value: Any = _parse_bool(column, raw)
    elif isinstance(model_field, models.IntegerField):
        value = _parse_int(column, raw)
        _check_range(model_field, column, value)
    else:
        if isinstance(raw, (bool, float)):
            raise ValueError(f"{column} must be text, got {raw!r}")
        value = str(raw).strip()
    if model_field.choices:
        allowed = {str(choice).lower(): choice for choice, _label in model_field.flatchoices}
        if str(value).lower() not in allowed:
            raise ValueError(f"{column} must be {describe_choices([str(c) for c in allowed.values()])}, got {raw!r}")
        value = allowed[str(value).lower()]
    try:
        model_field.run_validators(value)
    except ValidationError as error:
        raise ValueError(f"{column}: {' '.join(error.messages)} (got {raw!r})") from None
    return value


def _parse_json_cell(column: str, raw: Any) -> Any:
    """A JSON field: a JSON object or list as is, or CSV text holding one."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            example = '["a", "b"] or {"kind": "a"}'
            raise ValueError(f"{column} must be JSON, such as {example}, got {_short(raw)}") from None
        except RecursionError:
            raise ValueError(f"{column} is nested too deeply (at most {MAX_JSON_DEPTH - 3} levels)") from None
    if not isinstance(raw, (dict, list)):
        raise ValueError(f"{column} must be a JSON object, got {_short(raw)}")
    if depth(raw) > MAX_JSON_DEPTH - 3:
        raise ValueError(f"{column} is nested too deeply (at most {MAX_JSON_DEPTH - 3} levels)")
    if _holds_nul(raw):
        raise ValueError(f"{column} holds a NUL character (\\u0000), which no card text may contain")
    return raw


def _holds_nul(data: Any) -> bool:
    """Whether a NUL character hides in any text or key of JSON data (PostgreSQL cannot store one)."""
    return any("\x00" in text for text in strings_in(data))


def _short(raw: Any) -> str:
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_range(model_field: models.Field, column: str, value: int) -> None:
    """A number beyond the field's bounds (campaign/bounds.py validators) is refused as "1–9, got 0"."""
    low = max((v.limit_value for v in model_field.validators if isinstance(v, MinValueValidator)), default=None)
    high = min((v.limit_value for v in model_field.validators if isinstance(v, MaxValueValidator)), default=None)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            raise ValueError(f"{column} must be {low}–{high}, got {value}")
        raise ValueError(f"{column} must be at least {low}, got {value}" if low is not None
                         else f"{column} must be at most {high}, got {value}")


def _parse_bool(column: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise ValueError(f"{column} must be true or false, got {raw!r}")


def _parse_int(column: str, raw: Any) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and WHOLE_NUMBER.fullmatch(raw.strip()):
        return int(raw.strip())
    raise ValueError(f"{column} must be a whole number, got {raw!r}")


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
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


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


# --- the catalogs ------------------------------------------------------------------------------


def _check_card_stars(row: Row) -> list[str]:
    if not 1 <= row["stars"] <= MAX_STARS:
        return [f"stars must be 1–{MAX_STARS}, got {row['stars']}"]
    return []


GRIDARIS_CARDS = CatalogSpec(
    slug="gridaris-cards",
    model=GridarisCard,
    key_field="code",
    fields=("code", "name", "card_class", "tier", "stars", "top", "right", "bottom", "left", "active"),
    row_validator=_check_card_stars,
    hints={"stars": f"a whole number 1–{MAX_STARS}"},
)

GRIDARIS_SCENARIOS = CatalogSpec(
    slug="gridaris-scenarios",
    model=GridarisScenario,
    key_field="key",
    fields=("key", "name", "text", "active"),
)


def _check_mercenarium_hymn(row: Row) -> list[str]:
    from .engines.mercenarium.cards import PRIMITIVES

    effect = row.get("effect")
    if not isinstance(effect, dict) or effect.get("primitive") not in PRIMITIVES:
        return [f"effect must be an object whose primitive is one of {', '.join(PRIMITIVES)}"]
    problems = effect_problems(effect)
    if problems:
        return problems
    if not 1 <= row["number"] <= 15:
        return [f"number must be 1–15, got {row['number']}"]
    return []


MERCENARIUM_CARDS = CatalogSpec(
    slug="mercenarium-cards",
    model=MercenariumCard,
    key_field="code",
    fields=("code", "name", "suit", "value", "top", "right", "bottom", "left", "active"),
)

MERCENARIUM_HYMNS = CatalogSpec(
    slug="mercenarium-hymns",
    model=MercenariumHymn,
    key_field="code",
    fields=("code", "number", "name", "effect", "text", "active"),
    row_validator=_check_mercenarium_hymn,
    hints={"effect": "a JSON object with a primitive, e.g. {\"primitive\": \"draw\", \"count\": 2}"},
)

def _check_dungeon_card(row: Row) -> list[str]:
    """The engine's own check of a card (every stat it reads, of the right kind and within bounds)."""
    return dungeon_card_problems({"code": row.get("code", ""), "kind": row.get("kind"), "name": row.get("name", ""),
                                  "stats": row.get("stats"), "text": row.get("text", "")})


DUNGEON_CARDS = CatalogSpec(
    slug="dungeon-cards",
    model=DungeonCard,
    key_field="code",
    fields=("code", "kind", "name", "stats", "text", "active"),
    row_validator=_check_dungeon_card,
    hints={"stats": "a JSON object, e.g. {\"type\": \"melee\", \"health\": 2, \"melee\": 2, \"copies\": 18}"},
)

CATALOGS: dict[str, CatalogSpec] = {
    spec.slug: spec
    for spec in (GRIDARIS_CARDS, GRIDARIS_SCENARIOS, MERCENARIUM_CARDS, MERCENARIUM_HYMNS, DUNGEON_CARDS)
}
