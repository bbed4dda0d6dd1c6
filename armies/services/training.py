"""Training: once only, a unit gains +1 Strength for good.

Rule (Between Battles, Training): destroy 10 item cards (weapons, shields, or alchemy,
which counts as 2), or contribute 50 build points instead.

Ruling E7 (docs/rulings.md): the player picks the mix, and it must be worth
*exactly* 10. "At least 10, and removing any one card would take it below 10" comes to the
same thing, and any holding worth 10 or more can make exactly 10 (use up to five alchemy,
then fill with weapons and shields), so no one is ever forced to waste a card.

Ruling E8: training costs no coins (no ledger entry), and a card without Strength (a
Ritual) cannot be trained.

Ruling K5: the GM may correct a unit's training (on or off) with a reason: a CORRECTED
event, no coins or items move (the GM adjusts the treasury or the items separately). Every
TRAINED or CORRECTED event flips the unit's training, so a unit corrected off can be trained
again and one corrected on cannot.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from campaign.activity import activity_record
from campaign.models import Activity
from campaign.submissions import applied_once

from ..models import ArmyUnit, Commander, UnitEvent
from ..rules import BUILD_POINTS_NEEDED, ITEM_CARDS_NEEDED, TRAINING_EVENTS, items_worth
from . import ArmyError
from .battles import refuse_taken_back_day
from .commanders import commander_lock, require_commander_or_gm, require_gm, require_in_service

PAY_WITH = ("items", "build_points")


def _trained_day(unit: ArmyUnit) -> str:
    """How a trained unit came to be trained: its latest training event (K5)."""
    event = UnitEvent.objects.filter(unit=unit, kind__in=TRAINING_EVENTS).order_by("-id").first()
    if event is None:
        return "already"
    if event.kind == UnitEvent.Kind.CORRECTED:
        return f"already (set by the GM on day {event.day})"
    return f"on day {event.day} already"


def _describe_mix(weapons: int, shields: int, alchemy: int) -> str:
    parts = [
        f"{count} {name}" for count, name in ((weapons, "weapons"), (shields, "shields"), (alchemy, "alchemy")) if count
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@applied_once("train")
@transaction.atomic
def unit_train(
    *,
    unit: ArmyUnit,
    day: int,
    pay_with: str,
    weapons: int = 0,
    shields: int = 0,
    alchemy: int = 0,
    trained_by,
) -> ArmyUnit:
    """Train an active, untrained unit, paying with exactly 10 item cards' worth or 50 build points."""
    if pay_with not in PAY_WITH:
        raise ArmyError(f"Pay for training with 'items' or 'build_points', not {pay_with!r}.")
    commander = commander_lock(Commander(pk=unit.commander_id))
    require_commander_or_gm(commander, trained_by, "train units")
    refuse_taken_back_day(commander.campaign_id, day)
    unit = ArmyUnit.objects.select_related("card").select_for_update(of=("self",)).get(pk=unit.pk)
    name = unit.card.name
    if unit.status != ArmyUnit.Status.ACTIVE:
        raise ArmyError(f"{name} left {commander.name}'s army on day {unit.left_day} and cannot be trained.")
    require_in_service(commander, "train units")
    if unit.trained:
        raise ArmyError(f"{name} were trained {_trained_day(unit)}.")
    if unit.card.strength is None:
        raise ArmyError(f"{name} cannot fight, so there is no Strength to train.")

    if pay_with == "build_points":
        if weapons or shields or alchemy:
            raise ArmyError("Pay with item cards or with build points, not both.")
        if commander.build_points < BUILD_POINTS_NEEDED:
            raise ArmyError(
                f"Training needs {BUILD_POINTS_NEEDED} build points; {commander.name} has {commander.build_points}."
            )
        spent = {"build_points": F("build_points") - BUILD_POINTS_NEEDED}
        cause = f"Trained with {BUILD_POINTS_NEEDED} build points"
    else:
        for label, count in (("weapons", weapons), ("shields", shields), ("alchemy", alchemy)):
            if count < 0:
                raise ArmyError(f"You cannot offer a negative number of {label} ({count}).")
            held = getattr(commander, label)
            if count > held:
                raise ArmyError(f"{commander.name} holds {held} {label}; you offered {count}.")
        worth = items_worth(weapons=weapons, shields=shields, alchemy=alchemy)
        if worth < ITEM_CARDS_NEEDED:
            raise ArmyError(
                f"Training needs {ITEM_CARDS_NEEDED} item cards; you offered {worth} (alchemy counts as 2)."
            )
        if worth > ITEM_CARDS_NEEDED:
            raise ArmyError(
                f"Training needs {ITEM_CARDS_NEEDED} item cards; you offered {worth} (alchemy counts as 2). "
                f"Offer exactly {ITEM_CARDS_NEEDED} so no card is wasted."
            )
        spent = {
            "weapons": F("weapons") - weapons,
            "shields": F("shields") - shields,
            "alchemy": F("alchemy") - alchemy,
        }
        cause = f"Trained with {_describe_mix(weapons, shields, alchemy)}"

    Commander.objects.filter(pk=commander.pk).update(**spent)
    ArmyUnit.objects.filter(pk=unit.pk).update(trained=True)
    UnitEvent.objects.create(
        unit=unit, day=day, kind=UnitEvent.Kind.TRAINED, cause=cause, cause_type="training", cause_id=None
    )
    activity_record(
        campaign=commander.campaign,
        actor=trained_by,
        kind=Activity.Kind.TRAINING,
        summary=f"Trained {name} of {commander.name}'s army {cause.removeprefix('Trained ')}.",
        target=commander,
        details={"unit": unit.pk, "pay_with": pay_with},
        day=day,
    )
    unit.trained = True
    return unit


@applied_once("unit_training")
@transaction.atomic
def unit_training_correct(*, unit: ArmyUnit, gm, trained: bool, reason: str) -> ArmyUnit:
    """The GM sets an active unit's training on or off, with a reason; nothing is paid or refunded (K5)."""
    reason = (reason or "").strip()
    if not reason:
        raise ArmyError("Say why the training is corrected: the player reads it in the roster's history.")
    commander = commander_lock(Commander(pk=unit.commander_id))
    require_gm(commander.campaign, gm, "correct a unit's training")
    unit = ArmyUnit.objects.select_related("card").select_for_update(of=("self",)).get(pk=unit.pk)
    name = unit.card.name
    if unit.status != ArmyUnit.Status.ACTIVE:
        raise ArmyError(f"{name} left {commander.name}'s army on day {unit.left_day}: its training stays as it was.")
    if unit.trained == trained:
        raise ArmyError(f"Nothing to change: {name} {'are trained' if trained else 'are not trained'} already.")
    if trained and unit.card.strength is None:
        raise ArmyError(f"{name} cannot fight, so there is no Strength to train.")
    day = commander.campaign.current_day
    now = "trained" if trained else "untrained"
    activity = activity_record(
        campaign=commander.campaign,
        actor=gm,
        kind=Activity.Kind.UNIT_TRAINING,
        summary=f"Set {name} of {commander.name}'s army to {now}: {reason}",
        target=unit,
        details={"before": {"trained": not trained}, "after": {"trained": trained}, "reason": reason},
    )
    ArmyUnit.objects.filter(pk=unit.pk).update(trained=trained)
    UnitEvent.objects.create(
        unit=unit,
        day=day,
        kind=UnitEvent.Kind.CORRECTED,
        cause=f"Training corrected by the GM (now {now}): {reason}"[:240],
        cause_type="gm",
        cause_id=activity.pk,
    )
    unit.trained = trained
    return unit
