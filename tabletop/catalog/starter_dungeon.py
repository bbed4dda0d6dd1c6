"""The dungeon game's starter catalog and adventure (The Distelblute Mansion, designed by Muster, not official)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from ..engines.dungeon.adventure import STARTER_ADVENTURE
from ..engines.dungeon.cards import starter_cards
from ..engines.dungeon.catalog import catalog_problems
from ..models import CatalogEntry, DungeonAdventure, DungeonCard
from . import DUNGEON_ADVENTURES, DUNGEON_CARDS, ImportReport, catalog_import


@transaction.atomic
def dungeon_catalog_load_starter() -> ImportReport:
    """Create or refresh the starter dungeon cards and adventure, labelled ``source="starter"``; safe to re-run.

    Returns the cards' report (``dungeon_adventure_load_starter`` gives the adventure's)."""
    rows = [{"code": c["code"], "kind": c["kind"], "name": c["name"], "stats": c["stats"], "text": c["text"]}
            for c in starter_cards()]
    report = catalog_import(
        spec=DUNGEON_CARDS,
        rows=list(enumerate(rows, start=1)),
        source=CatalogEntry.Source.STARTER,
        unit="starter row",
        columns=[name for name in DUNGEON_CARDS.fields if name != "active"],
    )
    dungeon_adventure_load_starter()
    return report


@transaction.atomic
def dungeon_adventure_load_starter() -> ImportReport:
    """Create or refresh The Distelblute Mansion as a STARTER DATA adventure; safe to re-run."""
    return catalog_import(
        spec=DUNGEON_ADVENTURES,
        rows=[(1, dict(STARTER_ADVENTURE))],
        source=CatalogEntry.Source.STARTER,
        unit="starter row",
        columns=[name for name in DUNGEON_ADVENTURES.fields if name != "active"],
    )


def dungeon_adventure_choices() -> list[tuple[str, str]]:
    """The active adventures a new table may be set up with (code, name)."""
    return list(DungeonAdventure.objects.filter(active=True).values_list("code", "name"))


def dungeon_config_adventure(code: str | None = None) -> dict:
    """The chosen active adventure (the only one, or the starter adventure when none is stored), as the engine
    takes it, for a new table's config."""
    adventures = DungeonAdventure.objects.filter(active=True)
    chosen = adventures.filter(code=code).first() if code else None
    if chosen is None:
        found = list(adventures[:2])
        if len(found) > 1:
            raise ValueError(gettext("Choose the adventure."))
        if not found:
            return dict(STARTER_ADVENTURE)
        chosen = found[0]
    return chosen.as_engine_adventure()


def dungeon_config_cards(adventure: dict | None = None) -> list[dict]:
    """The active dungeon cards, snapshotted into a new table's config, checked against the adventure; the
    starter cards while the catalog holds none (ruling AC3)."""
    cards = [card.as_engine_card() for card in DungeonCard.objects.filter(active=True)] or starter_cards()
    problems = catalog_problems(cards, adventure if adventure is not None else dict(STARTER_ADVENTURE))
    if problems:
        raise ValueError(gettext("The active dungeon cards cannot make a game; fix them in the admin: %(problems)s.")
                         % {"problems": "; ".join(problems[:5])})
    return cards
