"""Claims: a member's place in a campaign imported from an archive, given back whole by one invite.

An import makes nobody a member (issue 34): every member the archive names but the importer becomes a
one-use invite carrying a ``Claim`` (their user name, display and character names, join time) and its
``ClaimItem`` rows (every seat they held, every account they owned, every commander they ran), made here
by ``claims_make`` once the import's records are in. Whoever uses that invite (signing up through it, or
an existing account joining: the use of the link is their consent) becomes that member in the invite's
own transaction (``claim_take``, called by ``invite_accept`` with the invite's row locked, so a second use
is refused as any one-use invite's is).

What the GM changed meanwhile stands: a commander handed to a player since, an account given an owner, a
seat taken by a member are not taken back; the rest is. A seat given back gets a new link (a guest link
the GM handed out meanwhile opens nothing now, as when a member is removed: ruling MB4, the other way).
The activity log's lines are left as they are: they keep the names they showed, on nobody's account.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from armies.models import Commander
from campaign.activity import Line, counted, listed
from campaign.models import Account, Campaign, Membership
from tabletop.models import Seat, new_token
from tabletop.viewers import links_renewed

from ..models import DEFAULT_INVITE_DAYS, Claim, ClaimItem, Invite
from . import PeopleError

BATCH = 1000


@dataclass
class ClaimSpec:
    """One archived member's place, by the new campaign's ids (plain data: what the import gathered)."""

    username: str
    display_name: str
    role: str
    character_name: str = ""
    joined_at: datetime | None = None
    seats: list[tuple[int, str]] = field(default_factory=list)  # (seat id, the seat's own name as archived)
    account_ids: list[int] = field(default_factory=list)
    commander_ids: list[int] = field(default_factory=list)


@transaction.atomic
def claims_make(*, campaign: Campaign, created_by, specs: list[ClaimSpec]) -> list[Invite]:
    """A one-use invite with its claim for each of ``specs``, open as long as any new invite: a few queries
    whatever the number of members and things (bulk inserts)."""
    expires_at = timezone.now() + timedelta(days=DEFAULT_INVITE_DAYS)
    invites = Invite.objects.bulk_create([
        Invite(campaign=campaign, role=spec.role, max_uses=1, expires_at=expires_at, created_by=created_by)
        for spec in specs
    ])
    claims = Claim.objects.bulk_create([
        Claim(invite=invite, username=spec.username, display_name=spec.display_name[:300],
              character_name=spec.character_name, joined_at=spec.joined_at)
        for invite, spec in zip(invites, specs, strict=True)
    ])
    items = []
    for claim, spec in zip(claims, specs, strict=True):
        items += [ClaimItem(claim=claim, seat_id=seat_id, seat_name=name) for seat_id, name in spec.seats]
        items += [ClaimItem(claim=claim, account_id=account_id) for account_id in spec.account_ids]
        items += [ClaimItem(claim=claim, commander_id=commander_id) for commander_id in spec.commander_ids]
    ClaimItem.objects.bulk_create(items, batch_size=BATCH)
    return invites


def already_member(claim: Claim, campaign: Campaign) -> PeopleError:
    """The refusal of a claim by someone already in its campaign: one person holds one place."""
    return PeopleError(
        _(
            "This invite gives back %(name)s's place in %(campaign)s, and you are a member of it already: one "
            "person holds one place. Hand the link to the person it is for, or ask your GM."
        )
        % {"name": claim_label(claim), "campaign": campaign.name}
    )


def claim_label(claim: Claim) -> str:
    name = claim.display_name or claim.username
    return name if name == claim.username else f"{name} ({claim.username})"


@dataclass(frozen=True)
class Taken:
    """What a used claim gave back: the commanders now the member's, and how many accounts and seats."""

    commanders: list[Commander]
    accounts: int
    seats: int


def claim_take(*, claim: Claim, membership: Membership) -> Taken:
    """``membership`` (just made, in ``invite_accept``'s transaction) becomes the archived member's place:
    their character name and join time, and every item still waiting for them."""
    campaign_id = membership.campaign_id
    Membership.objects.filter(pk=membership.pk).update(
        character_name=claim.character_name, joined_at=claim.joined_at or membership.joined_at)
    membership.character_name = claim.character_name
    items = list(claim.items.all())
    commanders = list(
        Commander.objects.select_for_update(of=("self",)).select_related("membership")
        .filter(campaign_id=campaign_id, pk__in=[i.commander_id for i in items if i.commander_id]).order_by("pk")
    )
    commanders = [c for c in commanders if c.membership.is_gm]  # handed to a player since: the GM's choice stands
    Commander.objects.filter(pk__in=[c.pk for c in commanders]).update(membership=membership)
    accounts = Account.objects.filter(
        campaign_id=campaign_id, owner__isnull=True, pk__in=[i.account_id for i in items if i.account_id]
    ).update(owner=membership)
    seats = _seats_back(campaign_id, membership, [item for item in items if item.seat_id])
    return Taken(commanders=commanders, accounts=accounts, seats=seats)


def _seats_back(campaign_id: int, membership: Membership, items: list[ClaimItem]) -> int:
    names = {item.seat_id: item.seat_name for item in items}
    seats = list(
        Seat.objects.select_for_update(of=("self",))
        .filter(table__campaign_id=campaign_id, membership__isnull=True, pk__in=names).order_by("pk")
        .only("pk", "table_id")
    )
    for seat in seats:
        seat.membership, seat.guest_name, seat.token = membership, names[seat.pk], new_token()
    Seat.objects.bulk_update(seats, ["membership", "guest_name", "token"], batch_size=500)
    links_renewed(seat.table_id for seat in seats)  # a guest's socket on that link closes (ruling LV5)
    return len(seats)


def taken_words(taken: Taken) -> str | Line:
    """"Sir Aldo, Vey, 1 account and 3 seats" (or "nothing left to take back"), as the activity log says it."""
    parts = [", ".join(c.name for c in taken.commanders)] if taken.commanders else []
    if taken.accounts:
        parts.append(counted(taken.accounts, gettext_noop("1 account"), gettext_noop("%(count)s accounts")))
    if taken.seats:
        parts.append(counted(taken.seats, gettext_noop("1 seat"), gettext_noop("%(count)s seats")))
    return listed(parts) if parts else Line(gettext_noop("nothing left to take back"))
