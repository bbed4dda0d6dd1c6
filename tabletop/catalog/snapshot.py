"""Card catalogs as the engines take them: inline definitions, snapshotted into each table's config."""

from __future__ import annotations

from django.utils.translation import gettext

from ..engines.gridaris.starter import STARTER_CARDS as GRIDARIS_STARTER_CARDS
from ..engines.mercenarium.cards import STARTER_CARDS, STARTER_HYMNS, SUITS
from ..engines.mercenarium.catalog import effect_problems
from ..models import GridarisCard, GridarisScenario, MercenariumCard, MercenariumHymn


def gridaris_config_cards() -> list[dict]:
    """The active Gridaris cards for a new table's config; the starter data while the catalog holds none
    (ruling AC3: a fresh instance plays without the admin, as Mercenarium and the dungeon do)."""
    cards = [card.as_engine_card() for card in GridarisCard.objects.filter(active=True)]
    return cards or [dict(card) for card in GRIDARIS_STARTER_CARDS]


def gridaris_scenario_choices() -> list[tuple[str, str]]:
    return list(GridarisScenario.objects.filter(active=True).values_list("key", "name"))


def mercenarium_config_catalog() -> dict:
    """The active Mercenarium cards and hymns for a new table's config (the starter data if none are loaded).

    Raises ValueError when the active catalog is not one whole deck: every suit with 2-10, J, Q, K, A and
    a Lord once each, and hymns numbered I-XV once each.
    """
    cards = [card.as_engine_card() for card in MercenariumCard.objects.filter(active=True)]
    hymns = [hymn.as_engine_hymn() for hymn in MercenariumHymn.objects.filter(active=True)]
    cards = cards or [dict(card) for card in STARTER_CARDS]
    hymns = hymns or [dict(hymn) for hymn in STARTER_HYMNS]
    if sorted((c["suit"], c["value"]) for c in cards) != sorted((s, v) for s in SUITS for v in range(2, 16)):
        raise ValueError(
            gettext("The active Mercenarium cards must be one whole deck: 2–10, J, Q, K, A and L in each suit.")
        )
    if sorted(h["number"] for h in hymns) != list(range(1, 16)):
        raise ValueError(gettext("The active Mercenarium hymns must be numbered I–XV, once each."))
    broken = [f"{h['name']}: {'; '.join(effect_problems(h['effect']))}" for h in hymns if effect_problems(h["effect"])]
    if broken:
        raise ValueError(gettext("Some active Mercenarium hymns cannot be played; fix them in the admin: %(hymns)s")
                         % {"hymns": " / ".join(broken)})
    return {"cards": cards, "hymns": hymns}
