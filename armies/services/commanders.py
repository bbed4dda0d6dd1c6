"""Commanders and their rosters: creating a commander with its treasury, the GM's item counts,
units joining and leaving (every change recorded as a ``UnitEvent`` with its day and cause).

The GM's corrections (editing, retiring a commander, dismissing or releasing a unit) are in
``commander_edits``. A retired commander is out of play: no unit joins its army (ruling K3).
Rulings E1-E3 and K1-K5 are in docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from campaign import bounds
from campaign.activity import Line, activity_record, change, in_parts
from campaign.ledger import ledger_post
from campaign.models import Activity, Campaign, LedgerEntry, Membership
from campaign.services import account_create
from campaign.submissions import applied_once

from ..models import COMMANDER_ROLES, ArmyUnit, Commander, Path, UnitCard, UnitEvent
from . import ArmyError

LEAVING = {
    ArmyUnit.Status.KILLED: UnitEvent.Kind.KILLED,
    ArmyUnit.Status.DESERTED: UnitEvent.Kind.DESERTED,
    ArmyUnit.Status.DISMISSED: UnitEvent.Kind.DISMISSED,
    ArmyUnit.Status.RELEASED: UnitEvent.Kind.RELEASED,
}


def gm_membership(campaign: Campaign, user) -> Membership | None:
    """The user's GM membership of the campaign, or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(campaign=campaign, user=user, role=Membership.Role.GM).first()


def require_gm(campaign: Campaign, user, doing: str) -> None:
    if gm_membership(campaign, user) is None:
        # Translators: doing is an action in the infinitive, translated on its own ("create commanders").
        raise PermissionDenied(gettext("Only the GM can %(doing)s.") % {"doing": doing})


def require_commander_or_gm(commander: Commander, user, doing: str) -> None:
    """The commander's own player, or the campaign's GM (ruling E2)."""
    if user is not None and commander.membership.user_id == user.pk and commander.kind == Commander.Kind.PC:
        return
    if gm_membership(commander.campaign, user) is None:
        # Translators: doing is an action in the infinitive, translated on its own ("create commanders").
        raise PermissionDenied(gettext("You can %(doing)s only for your own commanders.") % {"doing": doing})


def require_bounded(label: str, value: int, low: int, high: int) -> int:
    """A typed number within its bounds (campaign/bounds.py), else ``ArmyError`` with a sentence."""
    try:
        return bounds.require_between(label, value, low, high)
    except bounds.OutOfBounds as refusal:
        raise ArmyError(str(refusal)) from None


def require_in_service(commander: Commander, doing: str) -> None:
    """A retired commander is out of play (ruling K3): refuse with a sentence."""
    if commander.retired_day is not None:
        # Translators: doing is an action in the infinitive, translated on its own ("take new units").
        raise ArmyError(
            gettext("%(commander)s was retired on day %(retired_day)s and cannot %(doing)s.")
            % {"commander": commander.name, "retired_day": commander.retired_day, "doing": doing}
        )


KINDS = {  # the log's words for a commander's kind (the model's labels, said in the reader's language)
    "pc": gettext_noop("Player character"),
    "npc": gettext_noop("Non-player character"),
}
ITEMS_SAID = {  # the items as the activity log names them
    "weapons": gettext_noop("weapons"),
    "shields": gettext_noop("shields"),
    "alchemy": gettext_noop("alchemy"),
    "build_points": gettext_noop("build points"),
}


ITEM_LABELS = {
    "weapons": gettext_lazy("Weapons"),
    "shields": gettext_lazy("Shields"),
    "alchemy": gettext_lazy("Alchemy"),
    "build_points": gettext_lazy("Build points"),
}
ITEM_BOUNDS = {
    "weapons": bounds.MAX_ITEM_CARDS,
    "shields": bounds.MAX_ITEM_CARDS,
    "alchemy": bounds.MAX_ITEM_CARDS,
    "build_points": bounds.MAX_BUILD_POINTS,
}


# --- commanders ---------------------------------------------------------------------------------


@applied_once("commander_create")
@transaction.atomic
def commander_create(
    *,
    campaign: Campaign,
    membership: Membership,
    name: str,
    kind: str,
    progression: int,
    role: str,
    path: str,
    favors: int = 0,
    influence_halves: int = 0,
    opening_balance: int = 0,
    created_by,
) -> Commander:
    """A commander with its own treasury account (and an opening entry when it starts with money).

    A PC belongs to a player and its account is theirs to see; an NPC belongs to the GM and its
    account has no owner (the GM's own accounts). Only the GM creates commanders (ruling E1).
    """
    require_gm(campaign, created_by, gettext("create commanders"))
    name = name.strip()
    if not name:
        raise ArmyError(gettext("A commander needs a name."))
    if kind not in Commander.Kind.values:
        raise ArmyError(gettext("A commander is a PC or an NPC, not %(kind)r.") % {"kind": kind})
    allowed_roles = [key for key, _label in COMMANDER_ROLES]
    if role not in allowed_roles:
        raise ArmyError(
            gettext("A commander's role must be aggressor, guardian, healer or savant, not %(role)r.") % {"role": role}
        )
    if path not in Path.values:
        raise ArmyError(
            gettext("A commander's path must be steel, magic, faith, nature or mind, not %(path)r.") % {"path": path}
        )
    for label, value, high in (
        (gettext("Progression"), progression, bounds.MAX_PROGRESSION),
        (gettext("Favors"), favors, bounds.MAX_FAVORS),
        (gettext("Influence (in halves)"), influence_halves, bounds.MAX_INFLUENCE_HALVES),
        (gettext("The opening balance"), opening_balance, bounds.MAX_COINS),
    ):
        if isinstance(value, int) and value < 0:
            raise ArmyError(gettext("%(label)s cannot be negative (got %(value)s).") % {"label": label, "value": value})
        require_bounded(label, value, 0, high)
    if membership.campaign_id != campaign.pk:
        raise ArmyError(
            gettext("%(membership)s is not a member of %(campaign)s.")
            % {"membership": membership.display_name, "campaign": campaign.name}
        )
    if kind == Commander.Kind.NPC and not membership.is_gm:
        raise ArmyError(
            gettext("An NPC commander belongs to the GM, not to %(membership)s.")
            % {"membership": membership.display_name}
        )
    if kind == Commander.Kind.PC and membership.is_gm:
        raise ArmyError(gettext("A PC commander belongs to a player; the GM's commanders are NPCs."))
    if Commander.objects.filter(campaign=campaign, name__iexact=name).exists():
        raise ArmyError(
            gettext("%(campaign)s already has a commander called %(name)s.") % {"campaign": campaign.name, "name": name}
        )

    owner = membership if kind == Commander.Kind.PC else None
    account = account_create(campaign=campaign, name=name, owner=owner)
    commander = Commander.objects.create(
        campaign=campaign,
        membership=membership,
        account=account,
        name=name,
        kind=kind,
        progression=progression,
        favors=favors,
        influence_halves=influence_halves,
        role=role,
        path=path,
    )
    if opening_balance:
        ledger_post(
            account=account,
            amount=opening_balance,
            kind=LedgerEntry.Kind.OPENING,
            reason=f"Opening balance of {name}",
            day=campaign.current_day,
            cause_type="commander",
            cause_id=commander.pk,
            created_by=created_by,
        )
    activity_record(
        campaign=campaign,
        actor=created_by,
        kind=Activity.Kind.COMMANDER_NEW,
        summary=Line(
            gettext_noop("Created %(name)s (%(kind)s of %(member)s) with %(coins)s coins.")
            if opening_balance
            else gettext_noop("Created %(name)s (%(kind)s of %(member)s)."),
            name=name,
            kind=Line(KINDS[commander.kind]),
            member=membership.display_name,
            **({"coins": opening_balance} if opening_balance else {}),
        ),
        target=commander,
        details={
            "after": {
                "name": name,
                "kind": kind,
                "membership": membership.display_name,
                "role": role,
                "path": path,
                "progression": progression,
                "favors": favors,
                "influence_halves": influence_halves,
                "opening_balance": opening_balance,
            }
        },
    )
    return commander


@applied_once("commander_items")
@transaction.atomic
def commander_update_items(
    *,
    commander: Commander,
    gm,
    weapons: int | None = None,
    shields: int | None = None,
    alchemy: int | None = None,
    build_points: int | None = None,
) -> Commander:
    """The GM sets what a commander holds for training; ``None`` leaves a count as it is."""
    require_gm(commander.campaign, gm, gettext("change a commander's items"))
    values = {"weapons": weapons, "shields": shields, "alchemy": alchemy, "build_points": build_points}
    changes = {name: value for name, value in values.items() if value is not None}
    for name, value in changes.items():
        label = str(ITEM_LABELS[name])
        if isinstance(value, int) and value < 0:
            raise ArmyError(gettext("%(label)s cannot be negative (got %(value)s).") % {"label": label, "value": value})
        require_bounded(label, value, 0, ITEM_BOUNDS[name])
    if not changes:
        return commander
    locked = commander_lock(commander)
    before = {name: getattr(locked, name) for name in changes}
    changed = {name: value for name, value in changes.items() if before[name] != value}
    if changed:
        Commander.objects.filter(pk=commander.pk).update(**changed)
        words = in_parts(change(ITEMS_SAID[name], before[name], value) for name, value in changed.items())
        activity_record(
            campaign=locked.campaign,
            actor=gm,
            kind=Activity.Kind.COMMANDER_EDIT,
            summary=Line(gettext_noop("%(name)s's items: %(changes)s."), name=locked.name, changes=words),
            target=locked,
            details={"before": {name: before[name] for name in changed}, "after": changed},
        )
    for name, value in changes.items():
        setattr(commander, name, value)
    return commander


# --- the roster ---------------------------------------------------------------------------------


@transaction.atomic
def unit_add(
    *,
    commander: Commander,
    card: UnitCard,
    day: int,
    cause: str,
    cause_type: str = "",
    cause_id: int | None = None,
) -> ArmyUnit:
    """A unit joins the commander's army on ``day``; its history starts with a JOINED event."""
    if not cause.strip():
        raise ArmyError(gettext("Say why the unit joins (e.g. 'Recruited from offer #3')."))
    if day < 1:
        raise ArmyError(gettext("Days start at 1, not %(day)s.") % {"day": day})
    require_in_service(commander, gettext("take new units"))
    unit = ArmyUnit.objects.create(commander=commander, card=card, joined_day=day)
    UnitEvent.objects.create(
        unit=unit, day=day, kind=UnitEvent.Kind.JOINED, cause=cause.strip(), cause_type=cause_type, cause_id=cause_id
    )
    return unit


@transaction.atomic
def unit_set_status(
    *,
    unit: ArmyUnit,
    status: str,
    day: int,
    cause: str,
    cause_type: str = "",
    cause_id: int | None = None,
) -> ArmyUnit:
    """An active unit leaves the army (killed, deserted or dismissed) on ``day``."""
    [changed] = units_leave(units=[unit], status=status, day=day, cause=cause, cause_type=cause_type, cause_id=cause_id)
    unit.status, unit.left_day = changed.status, changed.left_day
    return unit


@transaction.atomic
def units_leave(
    *,
    units: Sequence[ArmyUnit],
    status: str,
    day: int,
    cause: str,
    cause_type: str = "",
    cause_id: int | None = None,
) -> list[ArmyUnit]:
    """Several active units leave at once, in a fixed number of queries (battles, desertions).

    The rows are locked first, so a unit killed and dismissed at the same moment leaves once.
    """
    if status not in LEAVING:
        raise ArmyError(gettext("A unit leaves as killed, deserted or dismissed, not %(status)r.") % {"status": status})
    if not cause.strip():
        raise ArmyError(gettext("Say why the unit leaves."))
    ids = [unit.pk for unit in units]
    locked = list(
        ArmyUnit.objects.select_related("card", "commander")
        .select_for_update(of=("self",))
        .filter(pk__in=ids)
        .order_by("pk")
    )
    for unit in locked:
        if unit.status != ArmyUnit.Status.ACTIVE:
            raise ArmyError(
                gettext("%(card)s already left %(commander)s's army on day %(left_day)s (%(status)s).")
                % {
                    "card": unit.card.name,
                    "commander": unit.commander.name,
                    "left_day": unit.left_day,
                    "status": unit.get_status_display().lower(),
                }
            )
        if day < unit.joined_day:
            raise ArmyError(
                gettext("%(card)s joined on day %(joined_day)s and cannot leave on day %(day)s.")
                % {"card": unit.card.name, "joined_day": unit.joined_day, "day": day}
            )
        unit.status, unit.left_day = status, day
    ArmyUnit.objects.bulk_update(locked, ["status", "left_day"])
    UnitEvent.objects.bulk_create(
        UnitEvent(
            unit=unit, day=day, kind=LEAVING[status], cause=cause.strip(), cause_type=cause_type, cause_id=cause_id
        )
        for unit in locked
    )
    return locked


def unit_dismiss(*, unit: ArmyUnit, day: int, dismissed_by, reason: str = "") -> ArmyUnit:
    """The commander's player (or the GM) sends a unit home: it stops costing upkeep from now on.

    The GM's dismissal with a reason and an activity line is ``commander_edits.unit_remove``.
    """
    commander = Commander.objects.select_related("campaign", "membership").get(pk=unit.commander_id)
    require_commander_or_gm(commander, dismissed_by, gettext("dismiss units"))
    who = "the GM" if gm_membership(commander.campaign, dismissed_by) else commander.membership.display_name
    cause = f"Dismissed by {who}: {reason.strip()}" if reason.strip() else f"Dismissed by {who}"
    return unit_set_status(
        unit=unit, status=ArmyUnit.Status.DISMISSED, day=day, cause=cause[:240], cause_type="dismissal"
    )


def commander_lock(commander: Commander) -> Commander:
    """The commander row, locked for the rest of the transaction (training, item counts)."""
    return (
        Commander.objects.select_related("campaign", "membership").select_for_update(of=("self",)).get(pk=commander.pk)
    )
