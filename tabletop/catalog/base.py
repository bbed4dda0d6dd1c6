"""The shapes every catalog file and row share: specs, reports, errors, column checks."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from django.utils import formats
from django.utils.translation import gettext, gettext_noop, ngettext

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
        super().__init__(
            ngettext("%(count)s problem: %(problems)s", "%(count)s problems: %(problems)s", count)
            % {"count": count, "problems": "; ".join(self.errors)}
        )


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
        counts = {"total": self.total, "noun": noun, "created": self.created, "updated": self.updated,
                  "unchanged": self.unchanged}
        if self.unchanged:
            return gettext(
                "Imported %(total)s %(noun)s (%(created)s new, %(updated)s updated, %(unchanged)s unchanged)"
            ) % counts
        return gettext("Imported %(total)s %(noun)s (%(created)s new, %(updated)s updated)") % counts


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
        names = ", ".join(map(repr, unknown))
        problems.append(ngettext("has unknown column %(names)s", "has unknown columns %(names)s", len(unknown))
                        % {"names": names})
    if missing:
        names = ", ".join(map(repr, missing))
        problems.append(ngettext("is missing column %(names)s", "is missing columns %(names)s", len(missing))
                        % {"names": names})
    return problems


def both(problems: Sequence[str]) -> str:
    """Problems of one thing in one phrase: "has unknown column 'x' and is missing column 'y'"."""
    # Translators: joins the problems of one row or header ("has unknown column 'x' and is missing column 'y'").
    return (" " + gettext("and") + " ").join(problems)


def at(unit: str, number: int) -> str:
    """Where a problem is in an upload: "line 3" (a CSV's file line), "row 3" (a JSON file's row) or "starter row 3"."""
    places = {
        "line": gettext_noop("line %(number)s"),
        "row": gettext_noop("row %(number)s"),
        "starter row": gettext_noop("starter row %(number)s"),
    }
    return gettext(places[unit]) % {"number": number} if unit in places else f"{unit} {number}"


def too_big(size: int) -> str:
    """The sentence for an upload over ``MAX_UPLOAD_BYTES``."""
    return gettext("The file is %(size)s bytes; the limit is %(limit)s.") % {
        "size": formats.number_format(size, force_grouping=True),
        "limit": formats.number_format(MAX_UPLOAD_BYTES, force_grouping=True),
    }


def fail(message: str) -> NoReturn:
    raise CatalogImportError(errors=[message])


def holds_nul(data: Any) -> bool:
    """Whether a NUL character hides in any text or key of JSON data (PostgreSQL cannot store one)."""
    return any("\x00" in text for text in strings_in(data))
