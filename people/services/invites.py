"""Invites: the GM makes, revokes and re-issues invite links; a newcomer joins a campaign by one.

Each function is one transaction. ``invite_accept`` locks the invite's row (``select_for_update``; on
SQLite every write transaction takes the database lock when it begins), counts its uses and only then
writes, so two phones on a one-use invite at the same instant give one member and one sentence.
A person already in the campaign joins nothing and uses nothing up; with a commander, that commander
becomes the newcomer's PC (its treasury theirs to see) in the same transaction. A claim invite (an
imported member's place, people/services/claims.py) gives back that whole place in the same transaction,
and refuses someone already in the campaign with a sentence; a re-issued one carries its claim over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from armies.models import Commander
from armies.services.commanders import KINDS
from campaign import bounds
from campaign.activity import Line, activity_record
from campaign.models import Account, Activity, Campaign, Membership
from campaign.submissions import applied_once

from .. import selectors
from ..models import DEFAULT_INVITE_DAYS, MAX_GM_INVITE_USES, MAX_INVITE_DAYS, MAX_INVITE_USES, Claim, Invite, InviteUse
from . import PeopleError, role_logged
from .claims import already_member, claim_label, claim_take, taken_words

MAX_SHEET_SEATS = 50  # extra seats on one printed sheet


def _require_gm(campaign: Campaign, user, refusal: str) -> None:
    """``PermissionDenied`` with ``refusal`` (a sentence) unless ``user`` is a GM of ``campaign``."""
    if not getattr(user, "is_authenticated", False) or not Membership.objects.filter(
        campaign=campaign, user=user, role=Membership.Role.GM
    ).exists():
        raise PermissionDenied(refusal)


def _bounded(label: str, value, low: int, high: int) -> int:
    try:
        return bounds.require_between(label, value, low, high)
    except bounds.OutOfBounds as refusal:
        raise PeopleError(str(refusal)) from None


def _terms(invite: Invite) -> Line:
    """"a player to run Vey, usable once until 09 Dec 18:00 CET": an invite in the activity log's words."""
    words = Line(gettext_noop("a GM") if invite.role == Membership.Role.GM else gettext_noop("a player"))
    claim = selectors.claim_of(invite)
    if claim is not None:
        words = Line(gettext_noop("%(invite)s to take back %(claim)s's place"), invite=words, claim=claim_label(claim))
    if invite.commander_id:
        words = Line(gettext_noop("%(invite)s to run %(commander)s"), invite=words, commander=invite.commander.name)
    uses = (
        Line(gettext_noop("once"))
        if invite.max_uses == 1
        else Line(gettext_noop("%(count)s times"), count=invite.max_uses)
    )
    # the log's line is written once and read anywhere: in the campaign's zone, named (issue 35)
    until = timezone.localtime(invite.expires_at, invite.campaign.zone)
    return Line(
        gettext_noop("%(invite)s, usable %(uses)s until %(until)s"),
        invite=words,
        uses=uses,
        until=f"{until:%d %b %H:%M %Z}",
    )


def _make(*, campaign: Campaign, created_by, role: str, commander: Commander | None, max_uses: int,
          expires_at, reissued_from: Invite | None = None) -> Invite:
    invite = Invite.objects.create(
        campaign=campaign, role=role, commander=commander, max_uses=max_uses, expires_at=expires_at,
        created_by=created_by, reissued_from=reissued_from,
    )
    activity_record(
        campaign=campaign, actor=created_by, kind=Activity.Kind.INVITE_NEW,
        summary=Line(
            gettext_noop("Re-issued an invite for %(terms)s.")
            if reissued_from
            else gettext_noop("Made an invite for %(terms)s."),
            terms=_terms(invite),
        ),
        target=invite,
        details={"role": role, "commander": commander.name if commander else None, "max_uses": max_uses,
                 "expires_at": expires_at.isoformat(), "reissued_from": reissued_from.pk if reissued_from else None},
    )
    return invite


GM_INVITE_FOR_ONE = gettext_noop("A GM invite is for one person: make each co-GM a link of their own.")


def _check_terms(campaign: Campaign, role: str, commander: Commander | None, max_uses, days) -> None:
    if role not in Membership.Role.values:
        raise PeopleError(_("An invite makes a player or a GM, not %(role)s.") % {"role": repr(role)})
    _bounded(_("Uses"), max_uses, 1, MAX_INVITE_USES)
    _bounded(_("Days"), days, 1, MAX_INVITE_DAYS)
    if role == Membership.Role.GM and max_uses > MAX_GM_INVITE_USES:
        raise PeopleError(_(GM_INVITE_FOR_ONE))
    if commander is not None:
        refusal = selectors.invite_commander_refusal(campaign, commander)
        if refusal:
            raise PeopleError(refusal)
        if role != Membership.Role.PLAYER:
            raise PeopleError(_("An invite with a commander makes a player: the GM runs NPCs without one."))
        if max_uses != 1:
            raise PeopleError(
                _("%(commander)s can go to one person only: an invite with a commander is used once.")
                % {"commander": commander.name}
            )


@applied_once("invite_create")
@transaction.atomic
def invite_create(
    *,
    campaign: Campaign,
    created_by,
    role: str = Membership.Role.PLAYER,
    commander: Commander | None = None,
    max_uses: int = 1,
    days: int = DEFAULT_INVITE_DAYS,
) -> Invite:
    """A new invite link to ``campaign`` for ``max_uses`` people, open for ``days`` days."""
    _require_gm(campaign, created_by, _("Only the GM can make invites."))
    if commander is not None:
        commander = Commander.objects.select_for_update(of=("self",)).select_related("membership__user").get(
            pk=commander.pk
        )
    _check_terms(campaign, role, commander, max_uses, days)
    return _make(campaign=campaign, created_by=created_by, role=role, commander=commander, max_uses=max_uses,
                 expires_at=timezone.now() + timedelta(days=days))


def _lock(invite: Invite) -> Invite:
    return (Invite.objects.select_for_update(of=("self",)).select_related("campaign", "commander", "claim")
            .get(pk=invite.pk))


@applied_once("invite_revoke")
@transaction.atomic
def invite_revoke(*, invite: Invite, gm) -> Invite:
    """The invite opens for nobody from now on; who joined by it stays."""
    _require_gm(invite.campaign, gm, _("Only the GM can revoke invites."))
    invite = _lock(invite)
    if invite.revoked_at is not None:
        raise PeopleError(_("This invite was already revoked."))
    invite.revoked_at = timezone.now()
    invite.save(update_fields=["revoked_at"])
    activity_record(
        campaign=invite.campaign, actor=gm, kind=Activity.Kind.INVITE_REVOKE,
        summary=Line(gettext_noop("Revoked an invite for %(terms)s."), terms=_terms(invite)), target=invite,
    )
    return invite


@applied_once("invite_reissue")
@transaction.atomic
def invite_reissue(*, invite: Invite, gm) -> Invite:
    """A new token with the same terms (role, commander, uses, as many days as the old one had), the old
    one revoked: for a link that went round too far or a lost card."""
    _require_gm(invite.campaign, gm, _("Only the GM can re-issue invites."))
    invite = _lock(invite)
    commander = invite.commander
    if commander is not None:
        commander = Commander.objects.select_for_update(of=("self",)).select_related("membership__user").get(
            pk=commander.pk
        )
        refusal = selectors.invite_commander_refusal(invite.campaign, commander)
        if refusal:
            raise PeopleError(_("%(refusal)s Make an invite without a commander instead.") % {"refusal": refusal})
    now = timezone.now()
    if invite.revoked_at is None:
        invite.revoked_at = now
        invite.save(update_fields=["revoked_at"])
        activity_record(
            campaign=invite.campaign, actor=gm, kind=Activity.Kind.INVITE_REVOKE,
            summary=Line(gettext_noop("Revoked an invite for %(terms)s (re-issued)."), terms=_terms(invite)),
            target=invite,
        )
    lifetime = max(invite.expires_at - invite.created_at, timedelta(hours=1))
    made = _make(campaign=invite.campaign, created_by=gm, role=invite.role, commander=commander,
                 max_uses=invite.max_uses, expires_at=now + lifetime, reissued_from=invite)
    Claim.objects.filter(invite=invite).update(invite=made)  # the place waits on the new link now
    return made


@applied_once("invite_sheet")
@transaction.atomic
def invites_for_sheet(
    *, campaign: Campaign, gm, seats: int = 0, days: int = DEFAULT_INVITE_DAYS,
    commanders: list[Commander] | None = None,
) -> list[Invite]:
    """For a printed sheet: an invite for each of ``commanders`` (the GM's choice among those a GM runs;
    by default every PC without a player that has no open invite yet), and ``seats`` one-use player
    invites without a commander. A member's removal makes their commanders the GM's NPCs, so the GM
    picks which of those are seats for newcomers and which stay the GM's."""
    _require_gm(campaign, gm, _("Only the GM can make invites."))
    _bounded(_("Seats"), seats, 0, MAX_SHEET_SEATS)
    _bounded(_("Days"), days, 1, MAX_INVITE_DAYS)
    expires_at = timezone.now() + timedelta(days=days)
    if commanders is None:
        commanders = list(selectors.commanders_without_player(campaign).select_for_update(of=("self",)))
    else:
        commanders = list(
            Commander.objects.select_for_update(of=("self",)).select_related("membership__user")
            .filter(pk__in=[commander.pk for commander in commanders]).order_by("name")
        )
        for commander in commanders:
            refusal = selectors.invite_commander_refusal(campaign, commander)
            if refusal:
                raise PeopleError(refusal)
    made = [
        _make(campaign=campaign, created_by=gm, role=Membership.Role.PLAYER, commander=commander, max_uses=1,
              expires_at=expires_at)
        for commander in commanders
    ]
    made += [
        _make(campaign=campaign, created_by=gm, role=Membership.Role.PLAYER, commander=None, max_uses=1,
              expires_at=expires_at)
        for _ in range(seats)
    ]
    if not made:
        raise PeopleError(_("Nothing to print: tick a commander without an open invite, or ask for some seats."))
    return made


@dataclass(frozen=True)
class Joined:
    """What opening an invite did: the membership (new or the one already there), the commander now
    theirs, and whether anything was written."""

    membership: Membership
    commander: Commander | None
    joined: bool


@transaction.atomic
def invite_accept(*, token: str, user) -> Joined:
    """``user`` joins the invite's campaign (and takes its commander), or nothing is written and
    ``PeopleError`` says why. Already a member: nothing happens and no use is taken."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(_("Log in or sign up to join."))
    invite = selectors.invite_by_token(token, for_update=True)
    if invite is None:
        raise PeopleError(_(selectors.FORGED))
    campaign = invite.campaign
    claim = selectors.claim_of(invite)
    existing = selectors.member_of(user, campaign)
    if existing is not None and claim is not None:
        raise already_member(claim, campaign)
    if existing is not None:
        mine = invite.commander if invite.commander_id and invite.commander.membership_id == existing.pk else None
        return Joined(membership=existing, commander=mine, joined=False)
    refusal = selectors.invite_refusal(invite, used=selectors.uses_count(invite))
    if refusal:
        raise PeopleError(refusal)
    commander = None
    if invite.commander_id:
        commander = Commander.objects.select_for_update(of=("self",)).select_related("membership__user").get(
            pk=invite.commander_id
        )
        refusal = selectors.invite_commander_refusal(campaign, commander)
        if refusal:
            raise PeopleError(_("%(refusal)s Ask your GM for another invite.") % {"refusal": refusal})
    membership = Membership.objects.create(user=user, campaign=campaign, role=invite.role)
    if claim is not None:
        return _claimed(invite, claim, membership, user)
    name = membership.display_name
    InviteUse.objects.create(invite=invite, user=user, membership=membership, name=name[:150])
    if commander is not None:
        was = Line(KINDS[commander.kind])  # the log's words
        commander.membership = membership
        commander.kind = Commander.Kind.PC
        commander.save(update_fields=["membership", "kind"])
        Account.objects.filter(pk=commander.account_id).update(owner=membership)
    activity_record(
        campaign=campaign, actor=user, kind=Activity.Kind.MEMBER_JOIN,
        summary=Line(
            gettext_noop("%(name)s joined as %(role)s by an invite and now runs %(commander)s (was the GM's %(was)s).")
            if commander
            else gettext_noop("%(name)s joined as %(role)s by an invite."),
            name=name,
            role=role_logged(membership.role),
            **({"commander": commander.name, "was": was} if commander else {}),
        ),
        target=membership,
        details={"invite": invite.pk, "role": invite.role, "commander": commander.name if commander else None},
    )
    return Joined(membership=membership, commander=commander, joined=True)


def _claimed(invite: Invite, claim: Claim, membership: Membership, user) -> Joined:
    """The rest of ``invite_accept`` for a claim invite: the archived member's whole place is theirs."""
    taken = claim_take(claim=claim, membership=membership)
    name = membership.display_name
    InviteUse.objects.create(invite=invite, user=user, membership=membership, name=name[:150])
    activity_record(
        campaign=membership.campaign, actor=user, kind=Activity.Kind.MEMBER_JOIN,
        summary=Line(
            gettext_noop("%(name)s joined as %(role)s by the claim of %(claim)s's place, and took back %(taken)s."),
            name=name,
            role=role_logged(membership.role),
            claim=claim_label(claim),
            taken=taken_words(taken),
        ),
        target=membership,
        details={"invite": invite.pk, "role": invite.role, "claim": claim.username,
                 "commanders": [c.name for c in taken.commanders], "accounts": taken.accounts,
                 "seats": taken.seats},
    )
    only = taken.commanders[0] if len(taken.commanders) == 1 else None  # lands on it, as an invite's commander
    return Joined(membership=membership, commander=only, joined=True)
