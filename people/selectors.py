"""People reads: an invite by its token and what it would do, a campaign's invites with who joined by
each (and, for a claim invite, whose place it gives back and what it holds), and the commanders an invite
may hand to a newcomer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Exists, F, OuterRef, Prefetch, QuerySet, Subquery
from django.utils import timezone

from armies.models import Commander
from campaign.models import Campaign, Membership

from .models import Claim, ClaimItem, Invite, InviteUse

TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")

FORGED = "This invite link is not one of ours: check it with your GM."
REVOKED = "This invite was withdrawn by the GM: ask them for a new one."
EXPIRED = "This invite has expired: ask your GM for a new one."
USED_UP = "This invite has been used as many times as it allows: ask your GM for a new one."


def invite_by_token(token: str, *, for_update: bool = False) -> Invite | None:
    """The invite ``token`` names (with its campaign and commander), or None; a malformed token is not looked up."""
    if not isinstance(token, str) or not TOKEN_PATTERN.match(token):
        return None
    invites = Invite.objects.select_related("campaign", "commander", "claim")
    if for_update:
        invites = invites.select_for_update(of=("self",))
    return invites.filter(token=token).first()


def claim_of(invite: Invite) -> Claim | None:
    """The member's place ``invite`` gives back, or None for an ordinary invite."""
    try:
        return invite.claim
    except Claim.DoesNotExist:
        return None


def uses_count(invite: Invite) -> int:
    return InviteUse.objects.filter(invite=invite).count()


def invite_refusal(invite: Invite | None, *, used: int, now: datetime | None = None) -> str | None:
    """Why this invite opens for nobody new (a sentence), or None when it still opens."""
    now = now or timezone.now()
    if invite is None:
        return FORGED
    if invite.revoked_at is not None:
        return REVOKED
    if invite.expires_at <= now:
        return EXPIRED
    if used >= invite.max_uses:
        return USED_UP
    return None


@dataclass(frozen=True)
class InviteLine:
    """One invite on the GM's page: its state in words and who joined by it."""

    invite: Invite
    used: int
    state: str  # "open", "used up", "expired", "revoked"
    claim: Claim | None = None
    holds: ClaimCounts | None = None  # what the claim gives back

    @property
    def is_open(self) -> bool:
        return self.state == "open"


def _state(invite: Invite, used: int, now: datetime) -> str:
    if invite.revoked_at is not None:
        return "revoked"
    if invite.expires_at <= now:
        return "expired"
    if used >= invite.max_uses:
        return "used up"
    return "open"


@dataclass(frozen=True)
class ClaimCounts:
    """What a claim holds, as the invites page says it: "2 commanders, 1 purse, 3 seats"."""

    commanders: int
    purses: int  # accounts that are no commander's (a commander's goes with it)
    seats: int

    def __str__(self) -> str:
        words = [counted(self.commanders, "commander"), counted(self.purses, "purse"), counted(self.seats, "seat")]
        return ", ".join(word for word in words if word) or "nothing to give back"


def counted(number: int, what: str) -> str:
    """"3 seats", "1 purse", or "" for none."""
    return "" if not number else f"{number} {what}" + ("" if number == 1 else "s")


def _claim_items() -> QuerySet[ClaimItem]:
    """Claim items, each knowing whether its account is a commander's purse (counted with the commander)."""
    return ClaimItem.objects.annotate(
        commanders_purse=Exists(Commander.objects.filter(account_id=OuterRef("account_id")))
    ).order_by()


def claim_holds(claim: Claim) -> ClaimCounts:
    """What ``claim`` gives back, counted (one query): the join page says it."""
    return claim_counts(list(_claim_items().filter(claim=claim)))


def claim_counts(items: list[ClaimItem]) -> ClaimCounts:
    """Counts of a claim's items (read by ``_claim_items``)."""
    return ClaimCounts(
        commanders=sum(1 for i in items if i.commander_id),
        purses=sum(1 for i in items if i.account_id and not i.commanders_purse),
        seats=sum(1 for i in items if i.seat_id),
    )


def campaign_invites(campaign: Campaign | int) -> list[InviteLine]:
    """Every invite of the campaign, newest first, with who joined by each and what a claim holds: a fixed
    number of queries."""
    now = timezone.now()
    invites = (
        Invite.objects.filter(campaign=campaign)
        .select_related("campaign", "commander", "created_by", "claim")
        .annotate(used=Count("uses"))
        .prefetch_related(Prefetch("uses", queryset=InviteUse.objects.select_related("membership__user")),
                          Prefetch("claim__items", queryset=_claim_items()))
        .order_by("-created_at", "-id")
    )
    lines = []
    for invite in invites:
        claim = claim_of(invite)
        holds = claim_counts(list(claim.items.all())) if claim is not None else None
        lines.append(InviteLine(invite=invite, used=invite.used, state=_state(invite, invite.used, now),
                                claim=claim, holds=holds))
    return lines


def open_invites(campaign: Campaign | int) -> list[InviteLine]:
    return [line for line in campaign_invites(campaign) if line.is_open]


def commanders_for_invites(campaign: Campaign | int) -> QuerySet[Commander]:
    """Commanders an invite may hand to a newcomer: in service and run by a GM (a PC without a
    player first, then the NPCs), never one a player runs."""
    return (
        Commander.objects.filter(campaign=campaign, retired_day__isnull=True, membership__role=Membership.Role.GM)
        .order_by("-kind", "name")  # "pc" before "npc"
    )


def open_invite_commanders(campaign: Campaign | int) -> QuerySet:
    """The commanders named by an invite of the campaign that still opens (a subquery)."""
    return (
        Invite.objects.filter(campaign=campaign, revoked_at__isnull=True, expires_at__gt=timezone.now(),
                              commander__isnull=False)
        .annotate(used=Count("uses")).filter(used__lt=F("max_uses")).values("commander")
    )


def open_claim_commanders(campaign: Campaign | int) -> QuerySet:
    """The commanders an open claim invite of the campaign gives back (a subquery): they wait for their player."""
    return (
        ClaimItem.objects.filter(claim__invite__in=Invite.objects.filter(
            campaign=campaign, revoked_at__isnull=True, expires_at__gt=timezone.now(), uses__isnull=True,
        ), commander__isnull=False).values("commander")
    )


def waiting_claims(campaign: Campaign | int) -> QuerySet[Claim]:
    """The campaign's claims whose place still waits: the invite neither used nor revoked. An expired one
    waits too: the expiry is the link's, not the place's (the GM re-issues it, place and all); a revoked
    one was the GM's no. An archive exports each as the member it stands for (archive/sections/people.py)."""
    return Claim.objects.filter(invite__campaign=campaign, invite__revoked_at__isnull=True,
                                invite__uses__isnull=True)


# What a claim's use would give back of each thing now (people/services/claims.py ``claim_take``): a seat
# nobody holds, an account nobody owns, a commander a GM runs; what the GM handed on meanwhile stays.
_STILL_WAITING = {"seat": {"seat__membership__isnull": True}, "account": {"account__owner__isnull": True},
                  "commander": {"commander__membership__role": Membership.Role.GM}}


def waiting_claim_of(campaign: Campaign | int, thing: str, value: str = "claim_id") -> Subquery:
    """An annotation for rows of ``thing`` ("seat", "account" or "commander"): the ``value`` ("claim_id", or a
    seat's "seat_name", its name as archived) of the waiting claim of the campaign that would give the row back
    if used now, else None; of two claims naming one thing, the older. A subquery: the rows' query stays one."""
    items = ClaimItem.objects.filter(claim__in=waiting_claims(campaign), **{thing: OuterRef("pk")},
                                     **_STILL_WAITING[thing])
    return Subquery(items.order_by("claim_id").values(value)[:1])


def commanders_without_player(campaign: Campaign | int) -> QuerySet[Commander]:
    """PCs a GM holds (none came yet, or one was handed to the GM as a PC) that have no open invite and
    no open claim: the printable sheet's cards unless the GM picks others."""
    return commanders_for_invites(campaign).filter(kind=Commander.Kind.PC).exclude(
        pk__in=open_invite_commanders(campaign)
    ).exclude(pk__in=open_claim_commanders(campaign))


def invite_commander_refusal(campaign: Campaign, commander: Commander) -> str | None:
    """Why ``commander`` cannot be promised to a newcomer of ``campaign`` (a sentence), or None."""
    if commander.campaign_id != campaign.pk:
        return f"{commander.name} is not a commander of {campaign.name}."
    if commander.retired_day is not None:
        return f"{commander.name} was retired on day {commander.retired_day}."
    if not commander.membership.is_gm:
        return f"{commander.name} is already run by {commander.membership.display_name}."
    return None


def member_of(user, campaign: Campaign | int) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(user=user, campaign=campaign).select_related("campaign").first()



def members_elsewhere(*, gm, user_ids) -> QuerySet:
    """The ids of the users among ``user_ids`` (ids or a subquery) who are members of some campaign
    that ``gm`` does not run as a GM: a reset link from ``gm`` would open that campaign to them too.
    One query whatever the number of users."""
    runs = Membership.objects.filter(user=gm, role=Membership.Role.GM).values("campaign_id")
    return (
        Membership.objects.filter(user_id__in=user_ids)
        .exclude(campaign_id__in=runs)
        .values_list("user_id", flat=True)
        .distinct()
    )


def plays_elsewhere_sentence(name: str) -> str:
    """Why ``gm`` makes no reset link for ``name``: shown on the link page and on the members page."""
    return (
        f"{name} also plays in a campaign you do not run, so only staff (or {name}, on their own account "
        "page) can change their password: ask staff for a reset link."
    )
