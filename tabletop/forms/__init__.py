"""The table forms, one module per subject: ``tables`` (the form that opens a table: seats, the preview,
stakes), ``games`` (each game's form and its options, ``TABLE_FORMS`` by engine name), ``abandon`` and
``forks`` (the GM's forms to abandon a table and to fork a what-if). The names the views import are
named here too."""

from .abandon import KEEP, RELEASE, AbandonForm
from .forks import ForkForm
from .games import TABLE_FORMS, DungeonTableForm, GotmTableForm, GridarisTableForm, MercenariumTableForm
from .tables import TableForm

__all__ = [
    "KEEP",
    "RELEASE",
    "TABLE_FORMS",
    "AbandonForm",
    "DungeonTableForm",
    "ForkForm",
    "GotmTableForm",
    "GridarisTableForm",
    "MercenariumTableForm",
    "TableForm",
]
