"""The catalogs: one spec each, with the row checks of what its engine reads.

Numbers are bounded by the models' validators (campaign/bounds.py), which the import runs per row.
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..engines.dungeon.adventure import adventure_problems as dungeon_adventure_problems
from ..engines.dungeon.catalog import card_problems as dungeon_card_problems
from ..engines.gridaris.scoring import MAX_STARS
from ..engines.mercenarium.cards import PRIMITIVES
from ..engines.mercenarium.catalog import effect_problems
from ..models import DungeonAdventure, DungeonCard, GridarisCard, GridarisScenario, MercenariumCard, MercenariumHymn
from .base import (
    CatalogSpec,
    Row,
)

# --- the catalogs ------------------------------------------------------------------------------


GRIDARIS_CARDS = CatalogSpec(
    slug="gridaris-cards",
    model=GridarisCard,
    key_field="code",
    fields=("code", "name", "card_class", "tier", "stars", "top", "right", "bottom", "left", "active"),
    hints={"stars": lazy(lambda: gettext("a whole number 1–%(max)s") % {"max": MAX_STARS}, str)()},
)

GRIDARIS_SCENARIOS = CatalogSpec(
    slug="gridaris-scenarios",
    model=GridarisScenario,
    key_field="key",
    fields=("key", "name", "text", "active"),
)


def _check_mercenarium_hymn(row: Row) -> list[str]:
    effect = row.get("effect")
    if not isinstance(effect, dict) or effect.get("primitive") not in PRIMITIVES:
        return [gettext("effect must be an object whose primitive is one of %(primitives)s") % {
            "primitives": ", ".join(PRIMITIVES)}]
    return effect_problems(effect)


MERCENARIUM_CARDS = CatalogSpec(
    slug="mercenarium-cards",
    model=MercenariumCard,
    key_field="code",
    fields=("code", "name", "suit", "value", "top", "right", "bottom", "left", "active"),
)

MERCENARIUM_HYMNS = CatalogSpec(
    slug="mercenarium-hymns",
    model=MercenariumHymn,
    key_field="code",
    fields=("code", "number", "name", "effect", "text", "active"),
    row_validator=_check_mercenarium_hymn,
    hints={"effect": _('a JSON object with a primitive, e.g. {"primitive": "draw", "count": 2}')},
)

def _check_dungeon_card(row: Row) -> list[str]:
    """The engine's own check of a card (every stat it reads, of the right kind and within bounds)."""
    return dungeon_card_problems({"code": row.get("code", ""), "kind": row.get("kind"), "name": row.get("name", ""),
                                  "stats": row.get("stats"), "text": row.get("text", "")})


DUNGEON_CARDS = CatalogSpec(
    slug="dungeon-cards",
    model=DungeonCard,
    key_field="code",
    fields=("code", "kind", "name", "stats", "text", "active"),
    row_validator=_check_dungeon_card,
    hints={"stats": _('a JSON object, e.g. {"type": "melee", "health": 2, "melee": 2, "copies": 18}')},
)

ADVENTURE_FIELDS = ("code", "name", "text", "monster_table", "ambush_top", "ambush_bottom", "champion",
                    "starting_deck", "resource", "area_features")


def _check_dungeon_adventure(row: Row) -> list[str]:
    """The engine's check of an adventure's shape; its cards are checked against the catalog when a table opens."""
    adventure = {name: row.get(name) for name in ADVENTURE_FIELDS if row.get(name) is not None}
    adventure.setdefault("text", "")
    adventure.setdefault("champion", "")
    return dungeon_adventure_problems(adventure)


DUNGEON_ADVENTURES = CatalogSpec(
    slug="dungeon-adventures",
    model=DungeonAdventure,
    key_field="code",
    fields=(*ADVENTURE_FIELDS, "active"),
    row_validator=_check_dungeon_adventure,
    hints={"monster_table": _('a JSON object per game type, e.g. {"competitive-4": {"goblin": 10}, ...}'),
           "starting_deck": _('a JSON list of [code, how many], e.g. [["basic-melee", 6]]')},
)

CATALOGS: dict[str, CatalogSpec] = {
    spec.slug: spec
    for spec in (GRIDARIS_CARDS, GRIDARIS_SCENARIOS, MERCENARIUM_CARDS, MERCENARIUM_HYMNS, DUNGEON_CARDS,
                 DUNGEON_ADVENTURES)
}
