"""Battle locks, opening a battle and recording its end.

Rules (Battles; Morale): "Once a Battle has ended, a new one may not begin between the
same armies for 1 hour." "Routed armies flee in all directions and may not be re-engaged
that day." A battle still in progress between the same two armies also blocks a new one.
The GM may open a battle despite these locks by giving a reason, which is stored on the
battle and logged (also in the campaign's activity log). The hour is the campaign's battle
cooldown (``Campaign.battle_cooldown_minutes``, 60 by default; ruling L1). Rulings E9-E12 are in docs/rulings.md.

Battles belong to the current day, before its day end starts (``battle_day_refusal``,
ruling B1 in docs/rulings.md); the live table is ``battle_tables.py``.

Ending a battle marks its killed units (``UnitEvent`` killed, cause "Killed in battle #N")
and records a ``UnitUse`` for every unit used, at most one per unit per day, which is what
the day's upkeep is charged for.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from campaign.activity import Line, activity_record
from campaign.models import Activity, Campaign

from ..models import ArmyUnit, Battle, Commander, DayEnd, UnitUse
from . import ArmyError
from .commanders import gm_membership, require_commander_or_gm, require_in_service, units_leave

logger = logging.getLogger(__name__)


def rematch_after(campaign: Campaign) -> timedelta:
    """How long the same two armies wait between battles: the campaign's battle cooldown (the
    rulebook's 1 hour is its default; 0 means no wait). Ruling L1 in docs/rulings.md."""
    return timedelta(minutes=campaign.battle_cooldown_minutes)


class BattleLocked(ArmyError):
    """Every reason the battle may not start now (``reasons``), one sentence each."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = list(reasons)
        super().__init__(" ".join(self.reasons))


def _clock(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def _between(attacker: Commander, defender: Commander) -> Q:
    return Q(attacker=attacker, defender=defender) | Q(attacker=defender, defender=attacker)


def campaign_day_locked(campaign_id: int) -> int:
    """The campaign's current day, its row locked (the lock ``day_end_start`` takes) until the end
    of the transaction: a day end cannot start between a check and what it allows."""
    return Campaign.objects.select_for_update().values_list("current_day", flat=True).get(pk=campaign_id)


def refuse_taken_back_day(campaign_id: int, day: int) -> None:
    """Lock the campaign row (as a day end and its revert do, first) and refuse a day that was taken back.

    A page made on day 2 may post after the GM took the end of day 1 back: the purchase
    then waited for the revert's lock and must not write day 2 (the campaign is on day 1
    again). Purchases, quest grants and training call it first.
    """
    current = campaign_day_locked(campaign_id)
    if (
        day > current
        and DayEnd.objects.filter(
            campaign_id=campaign_id, day__gte=current, day__lt=day, status=DayEnd.Status.REVERTED
        ).exists()
    ):
        raise ArmyError(
            gettext("Day %(day)s was taken back: the campaign is on day %(current)s again. Reload the page.")
            % {"day": day, "current": current}
        )


def battle_day_refusal(*, campaign_id: int, day: int, current_day: int) -> str | None:
    """Why a battle of ``day`` may not be opened or recorded now, or None (ruling B1).

    Battles belong to the current day, before its day end has started: upkeep is settled
    from the uses recorded by then, and a settlement is final. To act on the answer, take
    ``current_day`` from ``campaign_day_locked`` in the same transaction.
    """
    if day != current_day:
        return gettext(
            "Day %(day)s is over (the campaign is on day %(current_day)s): battles are fought on the current day."
        ) % {"day": day, "current_day": current_day}
    if DayEnd.objects.filter(campaign_id=campaign_id, day=day).exclude(status=DayEnd.Status.REVERTED).exists():
        return gettext("Day %(day)s is being settled: battles can be fought again on day %(next)s.") % {
            "day": day,
            "next": day + 1,
        }
    return None


def battle_open_check(*, attacker: Commander, defender: Commander, now: datetime, day: int) -> list[str]:
    """The reasons a battle between these armies may not start now; empty when it may."""
    reasons: list[str] = []
    pair = Battle.objects.filter(_between(attacker, defender))
    running = pair.filter(ended_at__isnull=True).order_by("started_at").first()
    if running is not None:
        reasons.append(
            gettext("Battle #%(battle_id)s between %(attacker)s and %(defender)s is still in progress.")
            % {"battle_id": running.pk, "attacker": attacker.name, "defender": defender.name}
        )
    last = pair.filter(ended_at__isnull=False).order_by("-ended_at").first()
    cooldown = rematch_after(attacker.campaign)
    if last is not None and now < last.ended_at + cooldown:
        reasons.append(
            gettext("%(attacker)s and %(defender)s fought until %(ended)s and may fight again at %(again)s.")
            % {
                "attacker": attacker.name,
                "defender": defender.name,
                "ended": _clock(last.ended_at),
                "again": _clock(last.ended_at + cooldown),
            }
        )
    routed_today = set(
        Battle.objects.filter(day=day, routed__in=[attacker, defender]).values_list("routed_id", flat=True)
    )
    for commander in (attacker, defender):
        if commander.pk in routed_today:
            reasons.append(
                gettext("%(name)s was routed today and cannot be engaged again until tomorrow.")
                % {"name": commander.name}
            )
    return reasons


@transaction.atomic
def battle_open(*, attacker: Commander, defender: Commander, day: int, override_reason: str = "", opened_by) -> Battle:
    """Open a battle, or raise ``BattleLocked`` with every reason, unless the GM overrides with a reason.

    Both commander rows are locked (in id order, so two opens cannot deadlock) before the
    check, so two battles between the same armies cannot both pass it at the same moment.
    """
    if attacker.pk == defender.pk:
        raise ArmyError(gettext("A commander cannot fight their own army."))
    locked = {
        commander.pk: commander
        for commander in Commander.objects.select_related("campaign", "membership")
        .select_for_update(of=("self",))
        .filter(pk__in=[attacker.pk, defender.pk])
        .order_by("pk")
    }
    attacker, defender = locked[attacker.pk], locked[defender.pk]
    if attacker.campaign_id != defender.campaign_id:
        raise ArmyError(
            gettext("%(attacker)s and %(defender)s are in different campaigns.")
            % {"attacker": attacker.name, "defender": defender.name}
        )
    for commander in (attacker, defender):
        require_in_service(commander, gettext("lead an army into battle"))
    campaign = attacker.campaign
    is_gm = gm_membership(campaign, opened_by) is not None
    if not is_gm:
        require_commander_or_gm(attacker, opened_by, gettext("open battles"))
    override_reason = override_reason.strip()
    if override_reason and not is_gm:
        raise ArmyError(gettext("Only the GM can open a battle despite a lock."))

    now = timezone.now()
    with translation.override(None):  # the log and the activity's details keep the reasons in English
        reasons = battle_open_check(attacker=attacker, defender=defender, now=now, day=day)
    if reasons and not override_reason:
        raise BattleLocked(battle_open_check(attacker=attacker, defender=defender, now=now, day=day))
    battle = Battle.objects.create(
        campaign=campaign,
        attacker=attacker,
        defender=defender,
        day=day,
        override_reason=override_reason if reasons else "",
    )
    if not reasons:
        activity_record(
            campaign=campaign,
            actor=opened_by,
            kind=Activity.Kind.BATTLE_NEW,
            summary=Line(
                gettext_noop("Opened battle #%(battle)s, %(attacker)s against %(defender)s."),
                battle=battle.pk,
                attacker=attacker.name,
                defender=defender.name,
            ),
            target=battle,
            day=day,
        )
    else:
        logger.warning(
            "Battle #%s (%s vs %s) opened by %s despite: %s Reason given: %s",
            battle.pk,
            attacker.name,
            defender.name,
            opened_by,
            " ".join(reasons),
            override_reason,
        )
        activity_record(
            campaign=campaign,
            actor=opened_by,
            kind=Activity.Kind.BATTLE_OPEN,
            summary=Line(
                gettext_noop(
                    "Opened battle #%(battle)s, %(attacker)s against %(defender)s, despite a lock: %(reason)s"
                ),
                battle=battle.pk,
                attacker=attacker.name,
                defender=defender.name,
                reason=override_reason,
            ),
            target=battle,
            details={"locks": reasons, "reason": override_reason},
            day=day,
        )
    return battle


@transaction.atomic
def battle_finish(
    *,
    battle: Battle,
    ended_at: datetime,
    winner: Commander | None,
    routed: Commander | None,
    used_units: Iterable[ArmyUnit],
    killed_units: Iterable[ArmyUnit],
    abandoned: bool = False,
) -> Battle:
    """Record a battle's end: result, killed units and the units used (for the day's upkeep).

    A killed unit counts as used. ``abandoned``: the GM abandoned the battle and kept its result so
    far (ruling T3); the kills say so. ``UnitUse`` rows are created with ``ignore_conflicts``: a
    unit that fought two battles on the same day is charged once.
    """
    battle = Battle.objects.select_for_update(of=("self",)).get(pk=battle.pk)
    if battle.ended_at is not None:
        raise ArmyError(
            gettext("Battle #%(battle_id)s ended at %(clock)s already.")
            % {"battle_id": battle.pk, "clock": _clock(battle.ended_at)}
        )
    if ended_at < battle.started_at:
        raise ArmyError(
            gettext("Battle #%(battle_id)s cannot end before it started (%(clock)s).")
            % {"battle_id": battle.pk, "clock": _clock(battle.started_at)}
        )
    sides = {battle.attacker_id, battle.defender_id}
    if winner is not None and winner.pk not in sides:
        raise ArmyError(
            gettext("The winner must be one of the battle's two commanders, not %(commander)s.")
            % {"commander": winner.name}
        )
    if routed is not None and routed.pk not in sides:
        raise ArmyError(
            gettext("The routed army must be one of the battle's two commanders, not %(commander)s.")
            % {"commander": routed.name}
        )
    used = {unit.pk: unit for unit in used_units}
    killed = {unit.pk: unit for unit in killed_units}
    used.update(killed)
    strangers = [unit for unit in used.values() if unit.commander_id not in sides]
    if strangers:
        raise ArmyError(
            gettext("%(card)s (unit #%(pk)s) did not fight in battle #%(battle_id)s.")
            % {"card": strangers[0].card.name, "pk": strangers[0].pk, "battle_id": battle.pk}
        )

    battle.ended_at, battle.winner, battle.routed = ended_at, winner, routed
    battle.save(update_fields=["ended_at", "winner", "routed"])
    if killed:
        units_leave(
            units=list(killed.values()),
            status=ArmyUnit.Status.KILLED,
            day=battle.day,
            cause=f"Killed in battle #{battle.pk}{' (abandoned)' if abandoned else ''}",
            cause_type="battle",
            cause_id=battle.pk,
        )
    UnitUse.objects.bulk_create(
        [
            UnitUse(unit_id=pk, commander_id=unit.commander_id, day=battle.day, first_battle=battle)
            for pk, unit in sorted(used.items())
        ],
        ignore_conflicts=True,
    )
    return battle
