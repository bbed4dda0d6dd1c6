"""The GM's members: change a member's role, remove a member, hand a commander to another member.

Each service is one transaction, applied once per form token (``applied_once``), and pinned: the form
carries a digest of what its page showed (``member_digest``, ``runner_digest``), and a changed member or
commander is refused with a sentence (``StaleMember``), never silently applied (CONVENTIONS 14b).

Every service first locks the campaign's GM memberships, with the memberships it is about, in id order
(``_lock_members``): two GMs demoting or removing each other at the same moment take turns, and the
second sees the first's change, so a campaign always keeps at least one GM. Commanders are locked after
the memberships, in every service here, so two of them never wait on each other.

Rulings MB1-MB5 (docs/rulings.md):

- MB1: a campaign always keeps a GM: demoting or removing the last one is refused.
- MB2: a member's role decides what they run (E1): a player runs PCs, a GM NPCs; a role change is
  refused while the member runs commanders of the other kind (hand them on first), and a commander
  handed to a member becomes that member's kind (a PC of a player, an NPC of a GM).
- MB3: removing a member keeps their commanders and ledger: the commanders become NPCs of the GM who
  removed them (to hand on); refused while they hold a seat at an open table that counts, or a
  commander of theirs is in a battle that has not ended.
- MB4: their seats at finished, abandoned and what-if tables become named guest seats (their name as
  it was, a new token nobody holds); the membership row goes.
- MB5: a commander in a battle that has not ended is not handed on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from armies.models import Battle, Commander
from armies.services.commander_edits import unfinished_battles
from armies.services.commanders import commander_lock
from campaign.activity import Line, activity_record
from campaign.models import Account, Activity, Membership
from campaign.submissions import applied_once
from muster.refusals import Stale
from tabletop.models import Seat, Table, new_token
from tabletop.viewers import links_renewed

from ..selectors.members import member_digest, names_listed, names_said, role_kind_refusal, runner_digest
from . import PeopleError, role_logged

GM = Membership.Role.GM
PLAYER = Membership.Role.PLAYER
SEAT_NAME_LENGTH = Seat._meta.get_field("guest_name").max_length


class StaleMember(PeopleError, Stale):
    """The page the form came from showed a member or commander that changed since: nothing was written."""


@dataclass
class Removal:
    """What removing a member did (the service's answer; not stored)."""

    name: str
    role: str
    commanders: list[str] = field(default_factory=list)
    seats_kept: int = 0


def _lock_members(campaign_id: int, *pks: int) -> dict[int, Membership]:
    """The campaign's GM memberships and ``pks``, locked in id order for the rest of the transaction.

    On PostgreSQL a second transaction waits here, then reads the rows as the first committed them
    (a GM demoted meanwhile is no longer among the GMs): the last-GM check below is never stale.
    """
    rows = (
        Membership.objects.select_related("user", "campaign")
        .select_for_update(of=("self",))
        .filter(campaign_id=campaign_id)
        .filter(Q(role=GM) | Q(pk__in=pks))
        .order_by("pk")
    )
    return {row.pk: row for row in rows}


def _acting_gm(locked: dict[int, Membership], gm, refusal: str) -> Membership:
    acting = next((m for m in locked.values() if m.user_id == getattr(gm, "pk", None) and m.role == GM), None)
    if acting is None:
        raise PermissionDenied(refusal)
    return acting


def _member(locked: dict[int, Membership], pk: int) -> Membership:
    member = locked.get(pk)
    if member is None:
        raise PeopleError(_("That member is no longer in the campaign: reload the members page."))
    return member


def _require_fresh(member: Membership, based_on: str | None) -> None:
    if based_on is not None and based_on != member_digest(member):
        if member.role == GM:
            sentence = _(
                "%(name)s was changed meanwhile (they are now game master): nothing was done. Here is the members "
                "page as it is now."
            )
        else:
            sentence = _(
                "%(name)s was changed meanwhile (they are now player): nothing was done. Here is the members page "
                "as it is now."
            )
        raise StaleMember(sentence % {"name": member.display_name})


def _other_gms(locked: dict[int, Membership], member: Membership) -> list[Membership]:
    return [m for m in locked.values() if m.role == GM and m.pk != member.pk]


def _last_gm_refusal(member: Membership, removed: bool) -> PeopleError:
    if removed:
        sentence = _(
            "%(name)s is the campaign's only GM: a campaign always keeps at least one GM, so they cannot be "
            "removed. Make another member GM first."
        )
    else:
        sentence = _(
            "%(name)s is the campaign's only GM: a campaign always keeps at least one GM, so they cannot be made "
            "a player. Make another member GM first."
        )
    return PeopleError(sentence % {"name": member.display_name})


@applied_once("member_role")
@transaction.atomic
def member_role_change(*, membership: Membership, role: str, gm, based_on: str | None = None) -> Membership:
    """The GM makes ``membership`` a GM or a player (rulings MB1, MB2)."""
    if role not in Membership.Role.values:
        raise PeopleError(_("A member is a GM or a player, not %(role)s.") % {"role": repr(str(role)[:40])})
    locked = _lock_members(membership.campaign_id, membership.pk)
    _acting_gm(locked, gm, _("Only the GM can change a member's role."))
    member = _member(locked, membership.pk)
    _require_fresh(member, based_on)
    if member.role == role:
        if role == GM:
            raise PeopleError(_("%(name)s is game master already: nothing to change.") % {"name": member.display_name})
        raise PeopleError(_("%(name)s is player already: nothing to change.") % {"name": member.display_name})
    if role == PLAYER and not _other_gms(locked, member):
        raise _last_gm_refusal(member, removed=False)
    runs = Commander.objects.filter(membership=member).order_by("name", "pk").values_list("name", "kind")
    refusal = role_kind_refusal(member, role, runs)
    if refusal:
        raise PeopleError(refusal)
    before = member.role
    Membership.objects.filter(pk=member.pk).update(role=role)
    member.role = role
    activity_record(
        campaign=member.campaign,
        actor=gm,
        kind=Activity.Kind.MEMBER_ROLE,
        summary=Line(
            gettext_noop("Made %(name)s a GM (was %(role)s).")
            if role == GM
            else gettext_noop("Made %(name)s a player (was %(role)s)."),
            name=member.display_name,
            role=role_logged(before),
        ),
        target_type="membership",
        target_id=member.pk,
        details={"member": member.pk, "before": before, "after": role},
    )
    return member


def _open_tables(member: Membership) -> list[str]:
    """The titles of the open tables that count where ``member`` holds a seat."""
    tables = (
        Table.objects.counted()
        .filter(status=Table.Status.ACTIVE, seats__membership=member)
        .distinct()
        .order_by("created_at", "pk")
    )
    return list(tables.values_list("title", flat=True))


def _commanders_in_battle(commanders: list[Commander]) -> list[Battle]:
    ids = [c.pk for c in commanders]
    battles = Battle.objects.filter(Q(attacker_id__in=ids) | Q(defender_id__in=ids))
    return list(battles.filter(ended_at__isnull=True, abandoned_at__isnull=True).order_by("pk"))


@applied_once("member_remove")
@transaction.atomic
def member_remove(*, membership: Membership, gm, based_on: str | None = None) -> Removal:
    """The GM removes ``membership`` from the campaign (rulings MB1, MB3, MB4)."""
    locked = _lock_members(membership.campaign_id, membership.pk)
    acting = _acting_gm(locked, gm, _("Only the GM can remove members."))
    member = _member(locked, membership.pk)
    name = member.display_name
    if member.role == GM and not _other_gms(locked, member):
        raise _last_gm_refusal(member, removed=True)
    if member.pk == acting.pk:
        raise PeopleError(_("You cannot remove yourself: your commanders would have nobody to go to. Ask another GM."))
    _require_fresh(member, based_on)
    tables = _open_tables(member)
    if tables:
        raise PeopleError(
            ngettext(
                "%(name)s holds a seat at %(tables)s, still being played: finish or abandon it first, then remove "
                "%(name)s.",
                "%(name)s holds a seat at %(tables)s, still being played: finish or abandon them first, then remove "
                "%(name)s.",
                len(tables),
            )
            % {"name": name, "tables": names_said(tables)}
        )
    commanders = list(
        Commander.objects.select_related("account").select_for_update(of=("self",))
        .filter(membership=member).order_by("name", "pk")
    )
    battles = _commanders_in_battle(commanders)
    if battles:
        in_battles = names_said(_("battle #%(number)s") % {"number": b.pk} for b in battles)
        raise PeopleError(
            ngettext(
                "%(name)s's commanders are in %(battles)s, which has not ended: finish or abandon first, then "
                "remove %(name)s.",
                "%(name)s's commanders are in %(battles)s, which have not ended: finish or abandon first, then "
                "remove %(name)s.",
                len(battles),
            )
            % {"name": name, "battles": in_battles}
        )

    # MB3: the commanders, their rosters and ledgers stay; the GM who removed them runs them as NPCs
    Commander.objects.filter(pk__in=[c.pk for c in commanders]).update(membership=acting, kind=Commander.Kind.NPC)
    Account.objects.filter(campaign_id=member.campaign_id, owner=member).update(owner=None)
    # MB4: seats at tables that are over (or what-ifs) keep their name; a new token nobody holds
    seats = list(Seat.objects.filter(membership=member).only("pk", "guest_name", "table_id"))
    for seat in seats:
        seat.guest_name = (seat.guest_name or name)[:SEAT_NAME_LENGTH]
        seat.membership = None
        seat.token = new_token()
    Seat.objects.bulk_update(seats, ["guest_name", "membership", "token"], batch_size=500)
    links_renewed(seat.table_id for seat in seats)  # the old links' open pages are closed (ruling LV5)

    moved = [c.name for c in commanders]
    if not moved:
        said = gettext_noop("Removed %(name)s (%(role)s) from the campaign.")
    elif len(moved) == 1:
        said = gettext_noop(
            "Removed %(name)s (%(role)s) from the campaign; %(commanders)s now run by %(runner)s as an NPC, to hand on."
        )
    else:
        said = gettext_noop(
            "Removed %(name)s (%(role)s) from the campaign; %(commanders)s now run by %(runner)s as NPCs, to hand on."
        )
    summary = Line(
        said, name=name, role=role_logged(member.role), commanders=names_listed(moved), runner=acting.display_name
    )
    activity_record(
        campaign=member.campaign,
        actor=gm,
        kind=Activity.Kind.MEMBER_REMOVE,
        summary=summary,
        target_type="membership",
        target_id=member.pk,
        details={
            "member": member.pk,
            "user": member.user_id,
            "name": name,
            "role": member.role,
            "commanders": [c.pk for c in commanders],
            "to": acting.pk,
            "seats_kept_as_guests": len(seats),
        },
    )
    try:
        member.delete()
    except ProtectedError as error:  # something added later that still points at the member
        kinds = sorted({obj._meta.verbose_name_plural for obj in error.protected_objects})
        raise PeopleError(
            _("%(name)s cannot be removed yet: their %(kinds)s still point at them.")
            % {"name": name, "kinds": names_said(str(kind) for kind in kinds)}
        ) from error
    return Removal(name=name, role=member.role, commanders=moved, seats_kept=len(seats))


@applied_once("commander_hand")
@transaction.atomic
def commander_hand(*, commander: Commander, to: Membership | int, gm, based_on: str | None = None) -> Commander:
    """The GM hands ``commander`` to the member ``to``: it becomes theirs, a PC of a player or an NPC of a
    GM, with its roster and ledger (rulings MB2, MB5)."""
    to_pk = getattr(to, "pk", to)
    if not isinstance(to_pk, int) or isinstance(to_pk, bool):
        raise PeopleError(_("Choose a member of the campaign to hand the commander to."))
    shown_runner = Commander.objects.filter(pk=commander.pk).values_list("membership_id", flat=True).first()
    locked = _lock_members(commander.campaign_id, to_pk, *([shown_runner] if shown_runner else []))
    _acting_gm(locked, gm, _("Only the GM can hand commanders to another member."))
    current = commander_lock(commander)
    if based_on is not None and based_on != runner_digest(current):
        raise StaleMember(
            _(
                "%(commander)s was handed on or changed meanwhile (now run by %(member)s): nothing was done. Here is "
                "the members page as it is now."
            )
            % {"commander": current.name, "member": current.membership.display_name}
        )
    receiver = locked.get(to_pk)
    if receiver is None:
        raise PeopleError(
            _("That member is not in %(campaign)s (any more): choose another.") % {"campaign": current.campaign.name}
        )
    if receiver.pk == current.membership_id:
        raise PeopleError(
            _("%(member)s runs %(commander)s already: nothing to change.")
            % {"member": receiver.display_name, "commander": current.name}
        )
    battle = next(iter(unfinished_battles(current)), None)
    if battle is not None:
        raise PeopleError(
            _(
                "%(commander)s is in battle #%(battle)s, which has not ended: its seat belongs to %(member)s until "
                "then. Hand it on afterwards."
            )
            % {"commander": current.name, "battle": battle.pk, "member": current.membership.display_name}
        )
    giver = current.membership
    kind = Commander.Kind.NPC if receiver.role == GM else Commander.Kind.PC
    Commander.objects.filter(pk=current.pk).update(membership=receiver, kind=kind)
    Account.objects.filter(pk=current.account_id).update(owner=receiver if kind == Commander.Kind.PC else None)
    activity_record(
        campaign=current.campaign,
        actor=gm,
        kind=Activity.Kind.COMMANDER_HAND,
        summary=Line(
            gettext_noop("Handed %(commander)s from %(giver)s to %(receiver)s (an NPC now).")
            if kind == Commander.Kind.NPC
            else gettext_noop("Handed %(commander)s from %(giver)s to %(receiver)s (a PC now)."),
            commander=current.name,
            giver=giver.display_name,
            receiver=receiver.display_name,
        ),
        target=current,
        details={
            "before": {"membership": giver.pk, "kind": current.kind},
            "after": {"membership": receiver.pk, "kind": kind},
        },
    )
    current.refresh_from_db()
    return current
