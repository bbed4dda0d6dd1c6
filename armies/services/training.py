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
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from campaign.activity import Line, activity_record, listed
from campaign.models import Activity
from campaign.submissions import applied_once

from ..models import ArmyUnit, Commander, UnitEvent
from ..rules import BUILD_POINTS_NEEDED, ITEM_CARDS_NEEDED, TRAINING_EVENTS, items_worth
from . import ArmyError
from .battles import refuse_taken_back_day
from .commanders import commander_lock, require_commander_or_gm, require_gm, require_in_service

PAY_WITH = ("items", "build_points")


def _trained_already(unit: ArmyUnit) -> str:
    """The refusal for a trained unit, with how it came to be trained: its latest training event (K5)."""
    event = UnitEvent.objects.filter(unit=unit, kind__in=TRAINING_EVENTS).order_by("-id").first()
    name = unit.card.name
    if event is None:
        return gettext("%(name)s were trained already.") % {"name": name}
    if event.kind == UnitEvent.Kind.CORRECTED:
        return gettext("%(name)s were trained already (set by the GM on day %(day)s).") % {
            "name": name,
            "day": event.day,
        }
    return gettext("%(name)s were trained on day %(day)s already.") % {"name": name, "day": event.day}


# the item cards by name, in refusals (lower case: "you offered 3 shields")
ITEM_WORDS = {
    "weapons": gettext_lazy("weapons"),
    "shields": gettext_lazy("shields"),
    "alchemy": gettext_lazy("alchemy"),
}


ITEMS_PAID = {  # what paid for a training, as the activity log counts it
    "weapons": gettext_noop("%(count)s weapons"),
    "shields": gettext_noop("%(count)s shields"),
    "alchemy": gettext_noop("%(count)s alchemy"),
}


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
        raise ArmyError(
            gettext("Pay for training with 'items' or 'build_points', not %(pay_with)r.") % {"pay_with": pay_with}
        )
    commander = commander_lock(Commander(pk=unit.commander_id))
    require_commander_or_gm(commander, trained_by, gettext("train units"))
    refuse_taken_back_day(commander.campaign_id, day)
    unit = ArmyUnit.objects.select_related("card").select_for_update(of=("self",)).get(pk=unit.pk)
    name = unit.card.name
    if unit.status != ArmyUnit.Status.ACTIVE:
        raise ArmyError(
            gettext("%(name)s left %(commander)s's army on day %(left_day)s and cannot be trained.")
            % {"name": name, "commander": commander.name, "left_day": unit.left_day}
        )
    require_in_service(commander, gettext("train units"))
    if unit.trained:
        raise ArmyError(_trained_already(unit))
    if unit.card.strength is None:
        raise ArmyError(gettext("%(name)s cannot fight, so there is no Strength to train.") % {"name": name})

    if pay_with == "build_points":
        if weapons or shields or alchemy:
            raise ArmyError(gettext("Pay with item cards or with build points, not both."))
        if commander.build_points < BUILD_POINTS_NEEDED:
            raise ArmyError(
                gettext("Training needs %(needed)s build points; %(commander)s has %(build_points)s.")
                % {
                    "needed": BUILD_POINTS_NEEDED,
                    "commander": commander.name,
                    "build_points": commander.build_points,
                }
            )
        spent = {"build_points": F("build_points") - BUILD_POINTS_NEEDED}
        cause = f"Trained with {BUILD_POINTS_NEEDED} build points"
        paid = Line(gettext_noop("%(count)s build points"), count=BUILD_POINTS_NEEDED)
    else:
        for field, count in (("weapons", weapons), ("shields", shields), ("alchemy", alchemy)):
            label = str(ITEM_WORDS[field])
            if count < 0:
                raise ArmyError(
                    gettext("You cannot offer a negative number of %(label)s (%(count)s).")
                    % {"label": label, "count": count}
                )
            held = getattr(commander, field)
            if count > held:
                raise ArmyError(
                    gettext("%(commander)s holds %(held)s %(label)s; you offered %(count)s.")
                    % {"commander": commander.name, "held": held, "label": label, "count": count}
                )
        worth = items_worth(weapons=weapons, shields=shields, alchemy=alchemy)
        if worth < ITEM_CARDS_NEEDED:
            raise ArmyError(
                gettext("Training needs %(needed)s item cards; you offered %(worth)s (alchemy counts as 2).")
                % {"needed": ITEM_CARDS_NEEDED, "worth": worth}
            )
        if worth > ITEM_CARDS_NEEDED:
            raise ArmyError(
                gettext(
                    "Training needs %(needed)s item cards; you offered %(worth)s (alchemy counts as 2). "
                    "Offer exactly %(needed)s so no card is wasted."
                )
                % {"needed": ITEM_CARDS_NEEDED, "worth": worth}
            )
        spent = {
            "weapons": F("weapons") - weapons,
            "shields": F("shields") - shields,
            "alchemy": F("alchemy") - alchemy,
        }
        cause = f"Trained with {_describe_mix(weapons, shields, alchemy)}"
        paying = (("weapons", weapons), ("shields", shields), ("alchemy", alchemy))
        paid = listed(Line(ITEMS_PAID[field], count=count) for field, count in paying if count)

    Commander.objects.filter(pk=commander.pk).update(**spent)
    ArmyUnit.objects.filter(pk=unit.pk).update(trained=True)
    UnitEvent.objects.create(
        unit=unit, day=day, kind=UnitEvent.Kind.TRAINED, cause=cause, cause_type="training", cause_id=None
    )
    activity_record(
        campaign=commander.campaign,
        actor=trained_by,
        kind=Activity.Kind.TRAINING,
        summary=Line(
            gettext_noop("Trained %(unit)s of %(commander)s's army with %(paid)s."),
            unit=name,
            commander=commander.name,
            paid=paid,
        ),
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
        raise ArmyError(gettext("Say why the training is corrected: the player reads it in the roster's history."))
    commander = commander_lock(Commander(pk=unit.commander_id))
    require_gm(commander.campaign, gm, gettext("correct a unit's training"))
    unit = ArmyUnit.objects.select_related("card").select_for_update(of=("self",)).get(pk=unit.pk)
    name = unit.card.name
    if unit.status != ArmyUnit.Status.ACTIVE:
        raise ArmyError(
            gettext("%(name)s left %(commander)s's army on day %(left_day)s: its training stays as it was.")
            % {"name": name, "commander": commander.name, "left_day": unit.left_day}
        )
    if unit.trained == trained:
        raise ArmyError(
            (
                gettext("Nothing to change: %(name)s are trained already.")
                if trained
                else gettext("Nothing to change: %(name)s are not trained already.")
            )
            % {"name": name}
        )
    if trained and unit.card.strength is None:
        raise ArmyError(gettext("%(name)s cannot fight, so there is no Strength to train.") % {"name": name})
    day = commander.campaign.current_day
    now = "trained" if trained else "untrained"
    said = (
        gettext_noop("Set %(unit)s of %(commander)s's army to trained: %(reason)s")
        if trained
        else gettext_noop("Set %(unit)s of %(commander)s's army to untrained: %(reason)s")
    )
    activity = activity_record(
        campaign=commander.campaign,
        actor=gm,
        kind=Activity.Kind.UNIT_TRAINING,
        summary=Line(said, unit=name, commander=commander.name, reason=reason),
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
