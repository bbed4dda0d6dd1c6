"""The people of a campaign in an archive: its members and its open invites (docs/archive-format.md).

Users travel by user name only, never with a password, an e-mail address or a session, and an import matches
no account here by that name but the importer's own: every other member becomes a claim invite
(``ImportContext.make_claims``: their whole place, people/services/claims.py), which the person uses
themself, so an archive never makes an existing account a member of anything (an outside attack did exactly
that, issue 34). A claim not used yet is exported as the member it stands for (``export_members``, its id
"claim-<n>", archive/context.py ``CLAIM_ID``; format version 2), and its seats, accounts and commanders name
it as they would the member, so an archive of a campaign whose claims wait (the nightly backup's) makes the
same claims again. Secret links (invite tokens) do not travel either: the import makes new ones, and an
imported invite is held to the invite form's bounds (``load_invite``).

Where these kinds load among the others: archive/sections/kinds.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext_noop

from campaign.models import Campaign, Membership
from people.models import MAX_GM_INVITE_USES, MAX_INVITE_DAYS, MAX_INVITE_USES, Invite
from people.selectors.claims import waiting_claims

from .. import records as r
from ..context import ImportContext, Unclaimed, claim_ident
from ..format import ArchiveRefused
from ..records import CHUNK, iso, username
from . import Section, register

# Orders (archive/sections/kinds.py shows every kind's place among them)
MEMBER, INVITE = 30, 160

# Choices as sets, made once: an enum's ``values`` builds a new list at every call (18 % of the write pass
# of 200,000 activity records, bench/archive.py --attack lock).
MEMBER_ROLES = frozenset(Membership.Role.values)


# ------------------------------------------------------------------------------------------------ members


def export_members(campaign: Campaign) -> Iterator[dict]:
    """The members, then each claim whose place still waits (``waiting_claims``: not used, not revoked) as the
    member it stands for, so an import makes that claim again (docs/archive-format.md, version 2)."""
    members = Membership.objects.filter(campaign=campaign).select_related("user").order_by("pk")
    for member in members.iterator(chunk_size=CHUNK):
        yield {
            "id": member.pk,
            "username": member.user.get_username(),
            "display_name": member.display_name,
            "character_name": member.character_name,
            "role": member.role,
            "joined_at": iso(member.joined_at),
        }
    claims = waiting_claims(campaign).select_related("invite").order_by("pk")
    for claim in claims.iterator(chunk_size=CHUNK):
        yield {
            "id": claim_ident(claim.pk),
            "username": claim.username,
            "display_name": claim.display_name,
            "character_name": claim.character_name,
            "role": claim.invite.role,
            "joined_at": iso(claim.joined_at or claim.invite.created_at),
        }


def load_member(record: dict, ctx: ImportContext) -> None:
    old_id = ctx.member_ident(record)
    username = r.text(record, "username", 150, blank=False)
    display_name = r.text(record, "display_name", 300)
    character_name = r.text(record, "character_name", 120)
    role = r.choice(record, "role", MEMBER_ROLES)
    importer = ctx.is_importer(username)  # refuses a name that is no user name (a path, say)
    if not isinstance(old_id, str):  # a waiting claim may share its name with a member (or another claim):
        # it matches no account, so its name is only the GM's label for whom to hand the link
        if username in ctx.member_names:
            raise ArchiveRefused(gettext_noop("The archive holds the member %(name)s twice."), name=repr(username))
        ctx.member_names.add(username)
    if not importer or ctx.importer_was_member:  # the importer holds one place: a member's before a claim's
        # anyone else, with an account here or not: an invite to claim their place, never a membership
        ctx.record_id("member", old_id, None)
        ctx.unclaimed[old_id] = Unclaimed(username, display_name, role, character_name,
                                          r.moment(record, "joined_at"))
        return
    # the importer is the new campaign's GM already
    Membership.objects.filter(pk=ctx.importer_membership.pk).update(
        character_name=character_name, joined_at=r.moment(record, "joined_at"))
    ctx.record_id("member", old_id, ctx.importer_membership.pk)
    ctx.importer_was_member = True


# ------------------------------------------------------------------------------------------------ invites


def open_invites(campaign: Campaign):
    """Invites still open, but claims: a waiting claim travels as its member (``export_members``), and the
    import makes its invite again; a plain one here would be a second invite holding nothing."""
    return (Invite.objects.filter(campaign=campaign, revoked_at__isnull=True, expires_at__gt=timezone.now(),
                                  claim__isnull=True)
            .annotate(used=Count("uses")).filter(used__lt=F("max_uses")))


def export_invites(campaign: Campaign) -> Iterator[dict]:
    for invite in open_invites(campaign).select_related("created_by").order_by("pk").iterator(chunk_size=CHUNK):
        yield {
            "id": invite.pk,
            "role": invite.role,
            "commander_id": invite.commander_id,
            "uses_left": invite.max_uses - invite.used,
            "expires_at": iso(invite.expires_at),
            "created_by": username(invite.created_by),
            "created_at": iso(invite.created_at),
        }


# An imported invite's link is new (no token travels), so its terms matter from the import on, and are held
# to what a GM makes on the invite form now (people/forms/invites.py, people/services/invites.py): 1..MAX_INVITE_USES
# uses, one with a commander (a player's), a GM invite for one person (MAX_GM_INVITE_USES: it makes a co-GM),
# open at most MAX_INVITE_DAYS from now. A later expiry or a GM invite's extra uses are brought back within
# (clamped: an archive whose clock ran ahead, or one made before GM invites were for one person, still
# imports); what no form could ever make (uses past the form's maximum, a commander for several) is a
# changed archive: refused.


def load_invite(record: dict, ctx: ImportContext) -> None:
    old_id = r.ident(record)
    what = r.named(gettext_noop("invite %(id)s"), id=old_id)
    commander_id = ctx.id_for("commander", r.ident(record, "commander_id", null=True), what=what)
    role = r.choice(record, "role", MEMBER_ROLES)
    uses = r.integer(record, "uses_left", 1, MAX_INVITE_USES)
    if commander_id is not None and (uses != 1 or role != Membership.Role.PLAYER):
        raise ArchiveRefused(gettext_noop("The archive's invite %(id)s hands a commander to more than one player."),
                             id=repr(old_id))
    if role == Membership.Role.GM:
        uses = min(uses, MAX_GM_INVITE_USES)
    latest = timezone.now() + timedelta(days=MAX_INVITE_DAYS)
    ctx.add(
        Invite(campaign=ctx.campaign, role=role, commander_id=commander_id, max_uses=uses,
               expires_at=min(r.moment(record, "expires_at"), latest),
               created_by=ctx.member_user(record.get("created_by"))),
        kind="invite", old_id=old_id, times={"created_at": r.moment(record, "created_at")},
    )


register(Section("member", MEMBER, export_members, load_member, names=("membership",)))
register(Section("invite", INVITE, export_invites, load_invite, names=("invite",)))
