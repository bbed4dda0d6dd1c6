"""Card catalogs as the engines take them: inline definitions, snapshotted into each table's config."""

from __future__ import annotations

from .models import GridarisCard, GridarisScenario


def gridaris_config_cards() -> list[dict]:
    cards = [card.as_engine_card() for card in GridarisCard.objects.filter(active=True)]
    if not cards:
        raise ValueError("The Gridaris catalog has no active cards: load the starter catalog in the admin first.")
    return cards


def gridaris_scenario_choices() -> list[tuple[str, str]]:
    return list(GridarisScenario.objects.filter(active=True).values_list("key", "name"))
