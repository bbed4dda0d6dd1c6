"""Reads of training: which of a commander's units can be trained now, and how (item cards or build
points; armies/rules.py holds their costs). One query.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from ..models import ArmyUnit, Commander
from ..rules import BUILD_POINTS_NEEDED, ITEM_CARDS_NEEDED, exact_item_mix, items_worth


@dataclass(frozen=True)
class TrainingOption:
    unit: ArmyUnit
    by_items: bool
    by_build_points: bool
    item_mix: dict[str, int] | None  # a mix worth exactly 10 from what the commander holds
    reason: str  # why it cannot be trained now, or how it can

    @property
    def possible(self) -> bool:
        return self.by_items or self.by_build_points


def training_options(commander: Commander) -> list[TrainingOption]:
    """For each untrained active unit that fights: whether and how it can be trained now (one query).

    None for a retired commander: it is out of play (ruling K3).
    """
    if commander.retired_day is not None:
        return []
    worth = items_worth(weapons=commander.weapons, shields=commander.shields, alchemy=commander.alchemy)
    mix = exact_item_mix(weapons=commander.weapons, shields=commander.shields, alchemy=commander.alchemy)
    by_points = commander.build_points >= BUILD_POINTS_NEEDED
    needed = {"items": ITEM_CARDS_NEEDED, "points": BUILD_POINTS_NEEDED}
    if mix and by_points:
        reason = gettext("Can be trained with %(items)s item cards or %(points)s build points.") % needed
    elif mix:
        reason = gettext("Can be trained with %(items)s item cards.") % needed
    elif by_points:
        reason = gettext("Can be trained with %(points)s build points.") % needed
    else:
        reason = gettext(
            "Needs %(items)s item cards (held: %(worth)s, alchemy counts as 2) or %(points)s build points "
            "(held: %(build_points)s)."
        ) % {**needed, "worth": worth, "build_points": commander.build_points}
    units = ArmyUnit.objects.filter(
        commander=commander, status=ArmyUnit.Status.ACTIVE, trained=False, card__strength__isnull=False
    ).select_related("card")
    return [
        TrainingOption(unit=unit, by_items=mix is not None, by_build_points=by_points, item_mix=mix, reason=reason)
        for unit in units
    ]
