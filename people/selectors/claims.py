"""People reads about claims: an imported member's place (issue 34), what a claim holds and gives back,
which claims still wait for their player, and the commanders an open claim invite gives back.

A claim is reached through its invite (``claim_of``); the invites page counts what each holds
(``claim_counts`` over ``claim_items``), and the archive exports a waiting claim as the member it stands for
(``waiting_claims``, ``waiting_claim_of``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from armies.models import Commander
from campaign.models import Campaign, Membership

from ..models import Claim, ClaimItem, Invite


def claim_of(invite: Invite) -> Claim | None:
    """The member's place ``invite`` gives back, or None for an ordinary invite."""
    try:
        return invite.claim
    except Claim.DoesNotExist:
        return None


@dataclass(frozen=True)
class ClaimCounts:
    """What a claim holds, as the invites page says it: "2 commanders, 1 purse, 3 seats"."""

    commanders: int
    purses: int  # accounts that are no commander's (a commander's goes with it)
    seats: int

    def __str__(self) -> str:
        """In the request's language (the page's words; the activity log's are ``counted``'s)."""
        words = [
            self.commanders
            and ngettext("%(n)d commander", "%(n)d commanders", self.commanders) % {"n": self.commanders},
            self.purses and ngettext("%(n)d purse", "%(n)d purses", self.purses) % {"n": self.purses},
            self.seats and ngettext("%(n)d seat", "%(n)d seats", self.seats) % {"n": self.seats},
        ]
        return ", ".join(word for word in words if word) or _("nothing to give back")


def counted(number: int, what: str) -> str:
    """"3 seats", "1 purse", or "" for none."""
    return "" if not number else f"{number} {what}" + ("" if number == 1 else "s")


def claim_items() -> QuerySet[ClaimItem]:
    """Claim items, each knowing whether its account is a commander's purse (counted with the commander)."""
    return ClaimItem.objects.annotate(
        commanders_purse=Exists(Commander.objects.filter(account_id=OuterRef("account_id")))
    ).order_by()


def claim_holds(claim: Claim) -> ClaimCounts:
    """What ``claim`` gives back, counted (one query): the join page says it."""
    return claim_counts(list(claim_items().filter(claim=claim)))


def claim_counts(items: list[ClaimItem]) -> ClaimCounts:
    """Counts of a claim's items (read by ``claim_items``)."""
    return ClaimCounts(
        commanders=sum(1 for i in items if i.commander_id),
        purses=sum(1 for i in items if i.account_id and not i.commanders_purse),
        seats=sum(1 for i in items if i.seat_id),
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
