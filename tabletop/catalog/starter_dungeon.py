"""The dungeon game's starter catalog (The Distelblute Mansion, designed by Muster, not official)."""

from __future__ import annotations

from django.db import transaction

from ..engines.dungeon.cards import starter_cards
from ..engines.dungeon.catalog import catalog_problems
from ..models import CatalogEntry, DungeonCard
from . import DUNGEON_CARDS, ImportReport, catalog_import


@transaction.atomic
def dungeon_catalog_load_starter() -> ImportReport:
    """Create or refresh the starter dungeon cards, labelled ``source="starter"``; safe to re-run."""
    rows = [{"code": c["code"], "kind": c["kind"], "name": c["name"], "stats": c["stats"], "text": c["text"]}
            for c in starter_cards()]
    return catalog_import(
        spec=DUNGEON_CARDS,
        rows=list(enumerate(rows, start=1)),
        source=CatalogEntry.Source.STARTER,
        unit="starter row",
        columns=[name for name in DUNGEON_CARDS.fields if name != "active"],
    )


def dungeon_config_cards() -> list[dict]:
    """The active dungeon cards, snapshotted into a new table's config."""
    cards = [card.as_engine_card() for card in DungeonCard.objects.filter(active=True)]
    if not cards:
        raise ValueError("The dungeon catalog has no active cards: load the starter catalog in the admin first.")
    problems = catalog_problems(cards)
    if problems:
        raise ValueError("The active dungeon cards cannot make a game; fix them in the admin: "
                         + "; ".join(problems[:5]) + ".")
    return cards
