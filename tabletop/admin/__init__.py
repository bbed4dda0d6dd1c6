"""Admin: inspect tables and their logs (tables.py); manage the card catalogs with CSV/JSON import and
export (catalog.py the shared ``CatalogAdmin``, cards.py each catalog's admin).

Django's admin finds this package by its name and imports it; importing the modules here registers their
admins.
"""

from . import cards, tables  # noqa: F401
