"""The GM puts a commander right without the admin: edit it, retire it (and return it to service),
and dismiss or release one of its units with a reason.

Each service is one transaction that locks the commander first, refuses with a sentence,
and appends one line to the campaign's activity log (``campaign.activity``) in that same
transaction. Rulings K1-K5 (docs/rulings.md):

- K1: an edit form carries a fingerprint of the values it was made from; if any of them
  changed meanwhile the edit is refused and the fresh form shown, never silently merged.
- K2: a commander in a battle that has not ended keeps its player and kind (the table's
  seats are bound to the player); every other edit applies from its next battle (the table
  holds a snapshot of the commander).
- K3: a retired commander is kept with its history, roster and ledger but is out of play:
  no new battle, no recruiting, training or granted units. It still owes the upkeep of the
  units it used before it retired at the next day end (the settlement reads ``UnitUse``).
- K4: the GM's dismissal or release names its reason in the unit's history and points at
  the activity line (``cause_type`` "gm", ``cause_id`` the ``Activity`` id).
"""

from __future__ import annotations

import hashlib
import json

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext, gettext_noop

from campaign import bounds
from campaign.activity import Line, activity_record, change, in_parts
from campaign.models import Activity, Membership
from campaign.submissions import applied_once
from muster.refusals import Stale

from ..models import COMMANDER_ROLES, ArmyUnit, Battle, Commander, Path
from . import ArmyError
from .battle_tables import card_id
from .commanders import KINDS, commander_lock, require_bounded, require_gm, units_leave

EDITABLE = ("name", "membership", "kind", "role", "path", "progression", "favors", "influence_halves")
LABELS = {  # each field as the activity log names it
    "name": gettext_noop("name"),
    "membership": gettext_noop("player"),
    "kind": gettext_noop("PC or NPC"),
    "role": gettext_noop("class"),
    "path": gettext_noop("path"),
    "progression": gettext_noop("progression"),
    "favors": gettext_noop("Favors"),
    "influence_halves": gettext_noop("Influence"),
}

REMOVALS = {"dismissed": ArmyUnit.Status.DISMISSED, "released": ArmyUnit.Status.RELEASED}


class StaleEdit(ArmyError, Stale):
    """The form was made from values that changed meanwhile (ruling K1)."""


def commander_values(commander: Commander) -> dict:
    """The values the edit form shows, as stored (the player as a membership id)."""
    return {
        "name": commander.name,
        "membership": commander.membership_id,
        "kind": commander.kind,
        "role": commander.role,
        "path": commander.path,
        "progression": commander.progression,
        "favors": commander.favors,
        "influence_halves": commander.influence_halves,
    }


def commander_fingerprint(commander: Commander) -> str:
    """A short digest of the editable values: the edit form carries it (ruling K1)."""
    text = json.dumps(commander_values(commander), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def unfinished_battles(commander: Commander) -> list[Battle]:
    """The commander's battles that have neither ended nor been abandoned, with their tables."""
    return list(
        Battle.objects.filter(Q(attacker=commander) | Q(defender=commander))
        .filter(ended_at__isnull=True, abandoned_at__isnull=True)
        .select_related("table")
        .order_by("pk")
    )


def battle_holding(unit: ArmyUnit, battles: list[Battle]) -> Battle | None:
    """The unfinished battle the unit was brought to (a battle without a table holds the whole army)."""
    for battle in battles:
        if battle.table is None:
            return battle
        seat = 0 if battle.attacker_id == unit.commander_id else 1
        if any(card["id"] == card_id(unit.pk) for card in battle.table.config["units"][seat]):
            return battle
    return None


def _describe(field: str, value, names: dict[int, str]) -> str | Line:
    if field == "membership":
        return names[value] if value in names else Line(gettext_noop("member #%(id)s"), id=value)
    if field == "influence_halves":
        return f"{value / 2:g}"
    if field == "kind":
        return Line(KINDS[value])
    if field == "role":
        return dict(COMMANDER_ROLES)[value]
    if field == "path":
        return Path(value).label
    return str(value)


def _validated(commander: Commander, fields: dict) -> dict:
    """The requested values, checked with the bounds and rules of ``commander_create``."""
    wanted = {name: value for name, value in fields.items() if value is not None}
    if "name" in wanted:
        wanted["name"] = wanted["name"].strip()
        if not wanted["name"]:
            raise ArmyError(gettext("A commander needs a name."))
        if len(wanted["name"]) > 120:
            raise ArmyError(gettext("A commander's name has at most 120 characters."))
    if "kind" in wanted and wanted["kind"] not in Commander.Kind.values:
        raise ArmyError(gettext("A commander is a PC or an NPC, not %(wanted)r.") % {"wanted": wanted["kind"]})
    if "role" in wanted and wanted["role"] not in dict(COMMANDER_ROLES):
        raise ArmyError(
            gettext("A commander's class must be aggressor, guardian, healer or savant, not %(wanted)r.")
            % {"wanted": wanted["role"]}
        )
    if "path" in wanted and wanted["path"] not in Path.values:
        raise ArmyError(
            gettext("A commander's path must be steel, magic, faith, nature or mind, not %(wanted)r.")
            % {"wanted": wanted["path"]}
        )
    for name, label, high in (
        ("progression", gettext("Progression"), bounds.MAX_PROGRESSION),
        ("favors", gettext("Favors"), bounds.MAX_FAVORS),
        ("influence_halves", gettext("Influence (in halves)"), bounds.MAX_INFLUENCE_HALVES),
    ):
        if name in wanted:
            if isinstance(wanted[name], int) and wanted[name] < 0:
                raise ArmyError(
                    gettext("%(label)s cannot be negative (got %(wanted)s).") % {"label": label, "wanted": wanted[name]}
                )
            require_bounded(label, wanted[name], 0, high)
    if "membership" in wanted:
        membership = wanted["membership"]
        if isinstance(membership, int):
            membership = Membership.objects.filter(pk=membership).first()
        if membership is None or membership.campaign_id != commander.campaign_id:
            raise ArmyError(
                gettext("That player is not a member of %(campaign)s.") % {"campaign": commander.campaign.name}
            )
        wanted["membership"] = membership
    return wanted


@applied_once("commander_edit")
@transaction.atomic
def commander_edit(
    *,
    commander: Commander,
    gm,
    based_on: str | None = None,
    name: str | None = None,
    membership: Membership | int | None = None,
    kind: str | None = None,
    role: str | None = None,
    path: str | None = None,
    progression: int | None = None,
    favors: int | None = None,
    influence_halves: int | None = None,
) -> Commander:
    """The GM changes any of the commander's editable values (``None`` leaves one as it is).

    ``based_on`` is the fingerprint the form was made from (ruling K1). Changing the player
    moves the treasury's owner too (who may see it); a rename renames the treasury.
    """
    locked = commander_lock(commander)
    require_gm(locked.campaign, gm, gettext("edit commanders"))
    if based_on is not None and based_on != commander_fingerprint(locked):
        raise StaleEdit(
            gettext(
                "%(name)s was changed meanwhile (by someone else or another tab): "
                "here is the fresh form; nothing was saved, make your change again."
            )
            % {"name": locked.name}
        )
    wanted = _validated(
        locked,
        {
            "name": name,
            "membership": membership,
            "kind": kind,
            "role": role,
            "path": path,
            "progression": progression,
            "favors": favors,
            "influence_halves": influence_halves,
        },
    )
    new_membership = wanted.pop("membership", locked.membership)
    after = {**commander_values(locked), **wanted, "membership": new_membership.pk}
    before = commander_values(locked)
    changed = [field for field in EDITABLE if after[field] != before[field]]
    if not changed:
        raise ArmyError(gettext("Nothing to change: the form holds the values the commander has already."))

    if after["kind"] == Commander.Kind.NPC and not new_membership.is_gm:
        raise ArmyError(
            gettext("An NPC commander belongs to the GM, not to %(new_membership)s.")
            % {"new_membership": new_membership.display_name}
        )
    if after["kind"] == Commander.Kind.PC and new_membership.is_gm:
        raise ArmyError(gettext("A PC commander belongs to a player; the GM's commanders are NPCs."))
    if "name" in changed:
        taken = Commander.objects.filter(campaign_id=locked.campaign_id, name__iexact=after["name"])
        if taken.exclude(pk=locked.pk).exists():
            raise ArmyError(
                gettext("%(campaign)s already has a commander called %(after)s.")
                % {"campaign": locked.campaign.name, "after": after["name"]}
            )
    if {"membership", "kind"} & set(changed):
        battle = next(iter(unfinished_battles(locked)), None)
        if battle is not None:
            raise ArmyError(
                gettext(
                    "%(name)s is in battle #%(battle_id)s, which has not ended: its seat belongs to %(membership)s "
                    "until then. Change the player or PC/NPC afterwards."
                )
                % {"name": locked.name, "battle_id": battle.pk, "membership": locked.membership.display_name}
            )

    Commander.objects.filter(pk=locked.pk).update(
        **{("membership_id" if field == "membership" else field): after[field] for field in changed}
    )
    owner = new_membership if after["kind"] == Commander.Kind.PC else None
    account = locked.account
    if account.owner_id != getattr(owner, "pk", None) or account.name != after["name"]:
        type(account).objects.filter(pk=account.pk).update(owner=owner, name=after["name"])

    names = {locked.membership_id: locked.membership.display_name, new_membership.pk: new_membership.display_name}
    words = in_parts(
        change(LABELS[field], _describe(field, before[field], names), _describe(field, after[field], names))
        for field in changed
    )
    activity_record(
        campaign=locked.campaign,
        actor=gm,
        kind=Activity.Kind.COMMANDER_EDIT,
        summary=Line(gettext_noop("Edited %(name)s: %(changes)s."), name=before["name"], changes=words),
        target=locked,
        details={"before": {f: before[f] for f in changed}, "after": {f: after[f] for f in changed}},
    )
    locked.refresh_from_db()
    return locked


@applied_once("commander_retire")
@transaction.atomic
def commander_retire(*, commander: Commander, gm, reason: str) -> Commander:
    """The GM retires the commander today: kept with its history, out of play (ruling K3)."""
    locked = commander_lock(commander)
    require_gm(locked.campaign, gm, gettext("retire commanders"))
    reason = (reason or "").strip()
    if not reason:
        raise ArmyError(gettext("Say why the commander retires."))
    if locked.retired_day is not None:
        raise ArmyError(
            gettext("%(name)s was retired on day %(retired_day)s already.")
            % {"name": locked.name, "retired_day": locked.retired_day}
        )
    battle = next(iter(unfinished_battles(locked)), None)
    if battle is not None:
        raise ArmyError(
            gettext("%(name)s is in battle #%(battle_id)s, which has not ended: finish or abandon it first.")
            % {"name": locked.name, "battle_id": battle.pk}
        )
    day = locked.campaign.current_day
    Commander.objects.filter(pk=locked.pk).update(retired_day=day)
    activity_record(
        campaign=locked.campaign,
        actor=gm,
        kind=Activity.Kind.COMMANDER_RETIRE,
        summary=Line(
            gettext_noop("Retired %(name)s on day %(day)s: %(reason)s"), name=locked.name, day=day, reason=reason
        ),
        target=locked,
        details={"retired_day": day, "reason": reason},
    )
    locked.retired_day = day
    return locked


@applied_once("commander_return")
@transaction.atomic
def commander_return(*, commander: Commander, gm) -> Commander:
    """The GM brings a retired commander back into play."""
    locked = commander_lock(commander)
    require_gm(locked.campaign, gm, gettext("return commanders to service"))
    if locked.retired_day is None:
        raise ArmyError(gettext("%(name)s is not retired.") % {"name": locked.name})
    retired_day = locked.retired_day
    Commander.objects.filter(pk=locked.pk).update(retired_day=None)
    activity_record(
        campaign=locked.campaign,
        actor=gm,
        kind=Activity.Kind.COMMANDER_RETIRE,
        summary=Line(
            gettext_noop("Returned %(name)s to service (retired since day %(day)s)."), name=locked.name, day=retired_day
        ),
        target=locked,
        details={"returned": True, "retired_day": retired_day},
    )
    locked.retired_day = None
    return locked


@applied_once("unit_remove")
@transaction.atomic
def unit_remove(*, unit: ArmyUnit, gm, how: str, reason: str) -> ArmyUnit:
    """The GM dismisses (sends away) or releases (lets go for a story reason) an active unit (ruling K4)."""
    if how not in REMOVALS:
        raise ArmyError(gettext("A unit is dismissed or released, not %(how)r.") % {"how": how})
    reason = (reason or "").strip()
    if not reason:
        raise ArmyError(gettext("Say why the unit leaves: the player reads it in the roster's history."))
    commander = commander_lock(Commander(pk=unit.commander_id))
    require_gm(commander.campaign, gm, gettext("dismiss or release units"))
    current = ArmyUnit.objects.select_related("card").get(pk=unit.pk)
    name = current.card.name
    if current.status != ArmyUnit.Status.ACTIVE:
        raise ArmyError(
            gettext("%(name)s already left %(commander)s's army on day %(left_day)s (%(status)s).")
            % {
                "name": name,
                "commander": commander.name,
                "left_day": current.left_day,
                "status": current.get_status_display().lower(),
            }
        )
    battle = battle_holding(current, unfinished_battles(commander))
    if battle is not None:
        raise ArmyError(
            gettext("%(name)s are in battle #%(battle_id)s, which has not ended: finish or abandon it first.")
            % {"name": name, "battle_id": battle.pk}
        )
    day = commander.campaign.current_day
    verb = "Dismissed" if how == "dismissed" else "Released"
    said = (
        gettext_noop("Dismissed %(unit)s from %(commander)s's army: %(reason)s")
        if how == "dismissed"
        else gettext_noop("Released %(unit)s from %(commander)s's army: %(reason)s")
    )
    activity = activity_record(
        campaign=commander.campaign,
        actor=gm,
        kind=Activity.Kind.UNIT_REMOVE,
        summary=Line(said, unit=name, commander=commander.name, reason=reason),
        target=current,
        details={"how": how, "reason": reason, "commander": commander.pk, "unit": current.pk},
    )
    [left] = units_leave(
        units=[current],
        status=REMOVALS[how],
        day=day,
        cause=f"{verb} by the GM: {reason}"[:240],
        cause_type="gm",
        cause_id=activity.pk,
    )
    return left
