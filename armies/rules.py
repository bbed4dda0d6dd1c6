"""The army rules that a page's reads and the services' writes both need: which unit may be brought to a
battle (ruling B4), what training costs (item cards, alchemy counting twice, or build points) and which
events flip a unit's training (``TRAINING_EVENTS``, ruling K5).

Pure rules over a unit's card or a commander's holdings, no query: the selectors show them
(armies/selectors/battles.py, training.py), the services enforce them (armies/services/battle_tables.py,
training.py), and neither imports the other for them.
"""

from __future__ import annotations

from .models import ArmyUnit, Role, UnitEvent

# The events that flip a unit's training (ruling K5): a training, or the GM's correction of it. A unit is
# trained while an odd number of them happened; the roster reads it, the training service names the latest.
TRAINING_EVENTS = (UnitEvent.Kind.TRAINED, UnitEvent.Kind.CORRECTED)

ITEM_CARDS_NEEDED = 10
BUILD_POINTS_NEEDED = 50
ALCHEMY_WORTH = 2


def can_fight(unit: ArmyUnit) -> bool:
    """A unit may be brought to a battle if it has a Strength, or is a Ritual."""
    return unit.card.strength is not None or unit.card.role == Role.RITUAL


def items_worth(*, weapons: int, shields: int, alchemy: int) -> int:
    return weapons + shields + ALCHEMY_WORTH * alchemy


def exact_item_mix(*, weapons: int, shields: int, alchemy: int) -> dict[str, int] | None:
    """A mix worth exactly 10 from what is held (most alchemy first), or None if the holding is short."""
    if items_worth(weapons=weapons, shields=shields, alchemy=alchemy) < ITEM_CARDS_NEEDED:
        return None
    use_alchemy = min(alchemy, ITEM_CARDS_NEEDED // ALCHEMY_WORTH)
    rest = ITEM_CARDS_NEEDED - ALCHEMY_WORTH * use_alchemy
    use_weapons = min(weapons, rest)
    return {"weapons": use_weapons, "shields": rest - use_weapons, "alchemy": use_alchemy}
