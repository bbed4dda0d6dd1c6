"""The card catalogs the admin keeps: import and export (CSV and JSON), the starter data, and the
snapshot a new table takes. Import and export are generic over any ``CatalogEntry`` model.

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

To add a catalog (Army unit cards, ...): declare a spec in ``specs.py`` and add it to ``CATALOGS``;
the admin mixin in ``tabletop/admin/catalog.py`` gives it import/export buttons.

Modules: ``base`` (specs, reports, errors), ``files`` (export, reading uploads), ``rows`` (cell parsing,
row checks, applying), ``specs`` (the catalogs and the row checks of what their engines read),
``starter`` and ``starter_dungeon`` (loading the starter data, designed by Muster, not official),
``snapshot`` (the active cards as a new table's config takes them).
"""

from .base import (
    FORMAT_VERSION,
    MAX_JSON_DEPTH,
    MAX_UPLOAD_BYTES,
    CatalogImportError,
    CatalogSpec,
    ImportReport,
    ParsedUpload,
    Row,
    RowValidator,
    too_big,
)
from .files import export_csv, export_json, export_rows, neutralise_formula, parse_upload, read_upload, restore_formula
from .rows import catalog_import, describe_choices, parse_value
from .specs import (
    CATALOGS,
    DUNGEON_ADVENTURES,
    DUNGEON_CARDS,
    GRIDARIS_CARDS,
    GRIDARIS_SCENARIOS,
    MERCENARIUM_CARDS,
    MERCENARIUM_HYMNS,
)

__all__ = [
    "FORMAT_VERSION", "MAX_JSON_DEPTH", "MAX_UPLOAD_BYTES", "CatalogImportError", "CatalogSpec", "ImportReport",
    "ParsedUpload", "Row", "RowValidator", "export_csv", "export_json", "export_rows", "neutralise_formula",
    "parse_upload", "read_upload", "restore_formula", "catalog_import", "describe_choices", "parse_value",
    "too_big", "CATALOGS", "DUNGEON_ADVENTURES",
    "DUNGEON_CARDS", "GRIDARIS_CARDS", "GRIDARIS_SCENARIOS", "MERCENARIUM_CARDS", "MERCENARIUM_HYMNS",
]
