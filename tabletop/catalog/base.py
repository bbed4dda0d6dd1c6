"""The shapes every catalog file and row share: specs, reports, errors, column checks."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from muster.refusals import Refusal

from ..engines.simulate import strings_in
from ..models import CatalogEntry

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


class CatalogImportError(Refusal):
    """An upload that cannot be imported, a ``Refusal`` (400); ``errors`` holds one readable sentence per problem,
    and its message counts them and joins them into the one sentence a page shows."""

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


def column_problems(spec: CatalogSpec, names: list[str], *, columns: Sequence[str] | None = None) -> list[str]:
    expected = list(columns or spec.fields)
    unknown = [name for name in names if name not in expected]
    missing = [name for name in expected if name not in names]
    problems = []
    if unknown:
        problems.append(f"has unknown column{'s' if len(unknown) > 1 else ''} " + ", ".join(map(repr, unknown)))
    if missing:
        problems.append(f"is missing column{'s' if len(missing) > 1 else ''} " + ", ".join(map(repr, missing)))
    return problems


def fail(message: str) -> NoReturn:
    raise CatalogImportError(errors=[message])


def holds_nul(data: Any) -> bool:
    """Whether a NUL character hides in any text or key of JSON data (PostgreSQL cannot store one)."""
    return any("\x00" in text for text in strings_in(data))
