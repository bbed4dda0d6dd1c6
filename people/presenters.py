"""What the invite pages show: an invite's link and QR code on the venue address, and where a
newcomer lands after joining."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muster.http import venue_url

from .models import Invite
from .selectors.claims import claim_of

if TYPE_CHECKING:  # only named: the page's answer to a join is built from what the service returned
    from .services.invites import Joined


@dataclass(frozen=True)
class InviteCard:
    invite: Invite
    url: str
    qr: str  # an SVG data URI

    @property
    def title(self) -> str:
        claim = claim_of(self.invite)
        if claim is not None:
            return _("The place of %(name)s (%(username)s)") % {
                "name": claim.display_name or claim.username,
                "username": claim.username,
            }
        if self.invite.commander_id:
            return _("Play %(commander)s") % {"commander": self.invite.commander.name}
        return _("Join as GM") if self.invite.role == "gm" else _("Join as a player")


def invite_for(invite: Invite) -> str:
    """Whom an invite that is no claim is for, as its line on the invites page notes it (issue 35): the
    role it gives, how many people, and the commander it hands on."""
    if invite.commander_id:
        return _("For the new player who will run %(commander)s as their PC.") % {"commander": invite.commander.name}
    if invite.role == "gm":
        return ngettext(
            "For one new GM, whoever opens the link.",
            "For up to %(n)d new GMs, whoever opens the link.",
            invite.max_uses,
        ) % {"n": invite.max_uses}
    return ngettext(
        "For one new player, whoever opens the link.",
        "For up to %(n)d new players, whoever opens the link.",
        invite.max_uses,
    ) % {"n": invite.max_uses}


def invite_card(request: HttpRequest, invite: Invite) -> InviteCard:
    url = venue_url(request, reverse("people:join", args=[invite.token]))
    return InviteCard(invite=invite, url=url, qr=segno.make(url, error="m").svg_data_uri(scale=4))


def invite_cards(request: HttpRequest, invites: list[Invite]) -> list[InviteCard]:
    # commanders first, by name, then the seats: the order the GM reads them at the door
    ordered = sorted(invites, key=lambda i: (i.commander_id is None, i.commander.name if i.commander_id else "", i.pk))
    return [invite_card(request, invite) for invite in ordered]


def landing(joined: Joined) -> HttpResponse:
    """One's own commander's page when the invite gave one, else the campaign's page."""
    slug = joined.membership.campaign.slug
    if joined.commander is not None:
        return redirect("armies:commander", slug, joined.commander.pk)
    return redirect("campaign:detail", slug)
