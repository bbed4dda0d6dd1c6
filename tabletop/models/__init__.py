"""Tabletop's models, a module per subject: tables with their seats, stakes, logs and projector links
(tables.py), and the card catalogs (catalogs.py).

Every model is imported here, so Django finds them all and ``from tabletop.models import Table`` keeps
working; the migrations name ``new_token``, ``new_seed`` and ``validate_dungeon_stats`` by this module.
"""

from .catalogs import (
    CatalogEntry,
    DungeonAdventure,
    DungeonCard,
    GridarisCard,
    GridarisScenario,
    MercenariumCard,
    MercenariumHymn,
    validate_dungeon_stats,
)
from .tables import ProjectorLink, Seat, Stake, Table, TableAction, TableQuerySet, new_seed, new_token

__all__ = [
    "CatalogEntry",
    "DungeonAdventure",
    "DungeonCard",
    "GridarisCard",
    "GridarisScenario",
    "MercenariumCard",
    "MercenariumHymn",
    "ProjectorLink",
    "Seat",
    "Stake",
    "Table",
    "TableAction",
    "TableQuerySet",
    "new_seed",
    "new_token",
    "validate_dungeon_stats",
]
