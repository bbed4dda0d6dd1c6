"""People reads about invites: an invite by its token and what it would do, a campaign's invites with who
joined by each (and, for a claim invite, whose place it gives back and what it holds: claims.py), and the
commanders an invite may hand to a newcomer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, F, Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from armies.models import Commander
from campaign.models import Campaign, Membership

from ..models import Claim, Invite, InviteUse
from .claims import ClaimCounts, claim_counts, claim_items, claim_of, open_claim_commanders

TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")

# The refusals in English, marked: ``invite_refusal`` says them in the request's language.
FORGED = gettext_noop("This invite link is not one of ours: check it with your GM.")
REVOKED = gettext_noop("This invite was withdrawn by the GM: ask them for a new one.")
EXPIRED = gettext_noop("This invite has expired: ask your GM for a new one.")
USED_UP = gettext_noop("This invite has been used as many times as it allows: ask your GM for a new one.")


def invite_by_token(token: str, *, for_update: bool = False) -> Invite | None:
    """The invite ``token`` names (with its campaign and commander), or None; a malformed token is not looked up."""
    if not isinstance(token, str) or not TOKEN_PATTERN.match(token):
        return None
    invites = Invite.objects.select_related("campaign", "commander", "claim")
    if for_update:
        invites = invites.select_for_update(of=("self",))
    return invites.filter(token=token).first()


def uses_count(invite: Invite) -> int:
    return InviteUse.objects.filter(invite=invite).count()


def invite_refusal(invite: Invite | None, *, used: int, now: datetime | None = None) -> str | None:
    """Why this invite opens for nobody new (a sentence), or None when it still opens."""
    now = now or timezone.now()
    if invite is None:
        return _(FORGED)
    if invite.revoked_at is not None:
        return _(REVOKED)
    if invite.expires_at <= now:
        return _(EXPIRED)
    if used >= invite.max_uses:
        return _(USED_UP)
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

    @property
    def state_words(self) -> str:
        """The state as the page says it, in the request's language."""
        return {
            "open": pgettext("invite", "open"),
            "used up": pgettext("invite", "used up"),
            "expired": pgettext("invite", "expired"),
            "revoked": pgettext("invite", "revoked"),
        }[self.state]


def _state(invite: Invite, used: int, now: datetime) -> str:
    if invite.revoked_at is not None:
        return "revoked"
    if invite.expires_at <= now:
        return "expired"
    if used >= invite.max_uses:
        return "used up"
    return "open"


def campaign_invites(campaign: Campaign | int) -> list[InviteLine]:
    """Every invite of the campaign, newest first, with who joined by each and what a claim holds: a fixed
    number of queries."""
    now = timezone.now()
    invites = (
        Invite.objects.filter(campaign=campaign)
        .select_related("campaign", "commander", "created_by", "claim")
        .annotate(used=Count("uses"))
        .prefetch_related(Prefetch("uses", queryset=InviteUse.objects.select_related("membership__user")),
                          Prefetch("claim__items", queryset=claim_items()))
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


def commanders_without_player(campaign: Campaign | int) -> QuerySet[Commander]:
    """PCs a GM holds (none came yet, or one was handed to the GM as a PC) that have no open invite and
    no open claim: the printable sheet's cards unless the GM picks others."""
    return commanders_for_invites(campaign).filter(kind=Commander.Kind.PC).exclude(
        pk__in=open_invite_commanders(campaign)
    ).exclude(pk__in=open_claim_commanders(campaign))


def invite_commander_refusal(campaign: Campaign, commander: Commander) -> str | None:
    """Why ``commander`` cannot be promised to a newcomer of ``campaign`` (a sentence), or None."""
    if commander.campaign_id != campaign.pk:
        return _("%(commander)s is not a commander of %(campaign)s.") % {
            "commander": commander.name, "campaign": campaign.name,
        }
    if commander.retired_day is not None:
        return _("%(commander)s was retired on day %(day)s.") % {
            "commander": commander.name, "day": commander.retired_day,
        }
    if not commander.membership.is_gm:
        return _("%(commander)s is already run by %(member)s.") % {
            "commander": commander.name, "member": commander.membership.display_name,
        }
    return None
