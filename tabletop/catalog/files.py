"""Catalog files: export (CSV with formulas neutralised, JSON) and reading an upload into numbered rows."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterable
from pathlib import PurePath
from typing import Any

from django.db import models
from django.utils.translation import gettext

from ..engines.shapes import depth
from .base import (
    FORMAT_VERSION,
    FORMULA_STARTS,
    MAX_JSON_DEPTH,
    MAX_UPLOAD_BYTES,
    CatalogImportError,
    CatalogSpec,
    ParsedUpload,
    Row,
    at,
    both,
    column_problems,
    fail,
    holds_nul,
    too_big,
)

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
    return "'" + text if _starts_a_formula(text.lstrip("'")) else text


def restore_formula(cell: str) -> str:
    """The text ``neutralise_formula`` was given: one leading ``'`` less before a formula character."""
    return cell[1:] if cell.startswith("'") and _starts_a_formula(cell.lstrip("'")) else cell


def _starts_a_formula(text: str) -> bool:
    """Whether ``text`` starts with a formula character, or a look-alike a spreadsheet reads as one: the
    first character is NFKC-normalised, so full-width ＝ ＋ － ＠ and the small ﹦ ﹢ ﹣ ﹫ count too."""
    return unicodedata.normalize("NFKC", text[:1]).startswith(FORMULA_STARTS)


# --- parsing an upload ---------------------------------------------------------------------


def parse_upload(spec: CatalogSpec, filename: str, content: bytes) -> list[tuple[int, Row]]:
    return read_upload(spec, filename, content).rows


def read_upload(spec: CatalogSpec, filename: str, content: bytes) -> ParsedUpload:
    """Decode and split an upload into numbered rows; a malformed file raises one clear error."""
    if len(content) > MAX_UPLOAD_BYTES:
        fail(too_big(len(content)))
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        fail(gettext("The file is not UTF-8 text (bad byte at position %(position)s). "
                     "Upload a CSV or JSON file saved as UTF-8.") % {"position": error.start})
    if "\x00" in text:
        fail(gettext("The file is binary, not text. Upload a CSV or JSON file."))
    if not text.strip():
        fail(gettext("The file is empty."))
    suffix = PurePath(filename).suffix.lower()
    if suffix not in {".csv", ".json", ".txt", ""}:
        fail(gettext("%(name)r is neither .csv nor .json. Upload a CSV or JSON file.") % {"name": filename})
    looks_like_json = text.lstrip().startswith(("{", "["))
    if suffix == ".json" or (suffix != ".csv" and looks_like_json):
        return ParsedUpload(rows=_parse_json(spec, text), unit="row")
    return ParsedUpload(rows=_parse_csv(spec, text), unit="line")


def _parse_csv(spec: CatalogSpec, text: str) -> list[tuple[int, Row]]:
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        numbered = list(_numbered_csv_rows(reader))
    except csv.Error as error:
        where = at("line", reader.line_num)
        fail(gettext("%(where)s: the CSV cannot be read (%(error)s).") % {"where": where, "error": error})
    numbered = [(line, cells) for line, cells in numbered if any(cell.strip() for cell in cells)]
    if not numbered:
        fail(gettext("The file is empty."))
    header_line, header = numbered[0]
    header = [name.strip() for name in header]
    column_errors = column_problems(spec, header)
    if len(set(header)) != len(header):
        column_errors.append(gettext("a column name appears twice"))
    if column_errors:
        fail(gettext("%(where)s: the header row (column names) %(problems)s. Expected: %(columns)s.") % {
            "where": at("line", header_line), "problems": both(column_errors), "columns": ", ".join(spec.fields)})
    if len(numbered) == 1:
        fail(gettext("The file has a header row but no data rows."))
    rows: list[tuple[int, Row]] = []
    errors: list[str] = []
    for line, cells in numbered[1:]:
        if len(cells) != len(header):
            errors.append(gettext("%(where)s: %(values)s values but the header has %(columns)s columns.") % {
                "where": at("line", line), "values": len(cells), "columns": len(header)})
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
        fail(gettext("The file is not valid JSON: %(error)s (line %(line)s, column %(column)s).") % {
            "error": error.msg, "line": error.lineno, "column": error.colno})
    except RecursionError:
        document = None
    if document is None or depth(document) > MAX_JSON_DEPTH:
        fail(gettext("The JSON is nested too deeply: a catalog file is at most %(levels)s levels of "
                     "lists and objects. Export a catalog to see the expected layout.") % {"levels": MAX_JSON_DEPTH})
    if holds_nul(document):
        fail(gettext("The JSON holds a NUL character (\\u0000), which no card text may contain."))
    if not isinstance(document, dict) or not isinstance(document.get("rows"), list):
        shape = f'{{"catalog": "{spec.slug}", "version": {FORMAT_VERSION}, "rows": [...]}}'
        fail(gettext("The JSON must be an object like %(shape)s.") % {"shape": shape})
    if document.get("catalog", spec.slug) != spec.slug:
        fail(gettext("This file holds the %(found)r catalog, not %(wanted)r.") % {
            "found": document["catalog"], "wanted": spec.slug})
    if document.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        fail(gettext("This file has format version %(found)r; this version of Muster reads %(wanted)s.") % {
            "found": document["version"], "wanted": FORMAT_VERSION})
    if not document["rows"]:
        fail(gettext("The file has no rows."))
    errors = [
        gettext("%(where)s: expected an object with %(columns)s, got %(type)s.") % {
            "where": at("row", number), "columns": ", ".join(spec.fields), "type": type(row).__name__}
        for number, row in enumerate(document["rows"], start=1)
        if not isinstance(row, dict)
    ]
    if errors:
        raise CatalogImportError(errors=errors)
    return list(enumerate(document["rows"], start=1))
