"""People's records: the GM's invite links to a campaign, who joined by which, and the claims an archive's
import leaves (a member's place, waiting on a one-use invite for whoever the GM hands it to).

Accounts are Django's ``User``: the name others see is ``User.first_name`` (``Membership.display_name``
falls back to the full name, then the user name; a character name, when the GM gives one, wins).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from armies.models import Commander
from campaign.bounds import between, check_between
from campaign.models import Account, Campaign, Membership
from tabletop.models import Seat

from .names import MAX_KEY

MAX_INVITE_USES = 100  # one invite for a whole evening's newcomers, not an open door for ever
MAX_GM_INVITE_USES = 1  # a GM invite makes a co-GM: each gets their own link, never a crowd one
MAX_INVITE_DAYS = 90
DEFAULT_INVITE_DAYS = 7
TOKEN_LENGTH = 32  # secrets.token_urlsafe(24): 192 random bits


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """A link (and its QR code) that lets a newcomer sign up or log in and join ``campaign`` in one step.

    It opens until ``expires_at``, for ``max_uses`` different people, unless the GM revokes it. With a
    ``commander`` the newcomer runs that commander from then on (it becomes their PC); such an invite
    is for one person. A re-issued invite points at the one it replaced (``reissued_from``).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    role = models.CharField(max_length=10, choices=Membership.Role.choices, default=Membership.Role.PLAYER)
    commander = models.ForeignKey(
        Commander, null=True, blank=True, on_delete=models.PROTECT, related_name="invites",
        help_text=_("The commander the newcomer will run; empty for a seat without one."),
    )
    max_uses = models.PositiveSmallIntegerField(default=1, validators=between(1, MAX_INVITE_USES))
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    reissued_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reissues"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "created_at"])]
        constraints = [
            check_between("max_uses", 1, MAX_INVITE_USES, name="invite_max_uses_bounded"),
            models.CheckConstraint(condition=Q(role__in=Membership.Role.values), name="invite_role_known"),
            # a commander goes to one person, and a GM runs NPCs rather than being handed one
            models.CheckConstraint(
                condition=Q(commander__isnull=True) | Q(max_uses=1, role=Membership.Role.PLAYER),
                name="invite_commander_for_one_player",
            ),
        ]

    def __str__(self) -> str:
        return f"Invite to {self.campaign} ({self.get_role_display()})"


class InviteUse(models.Model):
    """One person who joined by an invite. Kept when the member leaves (``user``/``membership`` become
    empty, ``name`` stays), so a used invite stays used."""

    invite = models.ForeignKey(Invite, on_delete=models.CASCADE, related_name="uses")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="invite_uses"
    )
    membership = models.ForeignKey(
        Membership, null=True, blank=True, on_delete=models.SET_NULL, related_name="invite_uses"
    )
    name = models.CharField(max_length=150, help_text=_("Who joined, as they were named then."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["invite", "created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["invite", "user"], name="one_use_per_person")]

    def __str__(self) -> str:
        return f"{self.name} by {self.invite}"


class Claim(models.Model):
    """A member's place in a campaign imported from an archive (archive/context.py ``make_claims``), waiting
    on its one-use ``invite``: whoever uses that invite (their consent: the import makes nobody a member)
    becomes the member the archive held: this role (the invite's), character name and join time, and every
    ``ClaimItem`` (their seats, accounts and commanders). ``username`` and ``display_name`` are the archive's,
    so the GM hands each link to the right person; no account is matched by them. A re-issued invite takes
    the claim with it."""

    invite = models.OneToOneField(Invite, on_delete=models.CASCADE, related_name="claim")
    username = models.CharField(max_length=150, help_text=_("The member's user name in the archive."))
    display_name = models.CharField(max_length=300, blank=True)
    character_name = models.CharField(max_length=120, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True, help_text=_("When they joined, as archived."))

    def __str__(self) -> str:
        return f"Claim of {self.username} ({self.invite})"


class ClaimItem(models.Model):
    """One thing a claim gives back: a seat (its member set, and the name it went by: ``seat_name``, empty
    for the member's own), an account (its owner set) or a commander (who runs it). Exactly one of the three;
    the item goes with what it names."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="items")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    seat_name = models.CharField(
        max_length=60, blank=True, help_text=_("The seat's own name at its table, as archived.")
    )
    account = models.ForeignKey(Account, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    commander = models.ForeignKey(Commander, null=True, blank=True, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(seat__isnull=False, account__isnull=True, commander__isnull=True)
                           | Q(seat__isnull=True, account__isnull=False, commander__isnull=True)
                           | Q(seat__isnull=True, account__isnull=True, commander__isnull=False)),
                name="claim_item_names_one_thing",
            ),
        ]

    def __str__(self) -> str:
        return f"Item {self.pk} of {self.claim}"


class NameKey(models.Model):
    """The look-alike key of an account's user name (people/names.py ``name_key``), unique: "аdmin" or
    "admin." cannot join beside "admin", even when both sign up at the same moment. ``username`` is the
    name the key was made from; every save of an account that changes its name brings its key along
    (people/receivers.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="name_key"
    )
    username = models.CharField(max_length=150)
    key = models.CharField(max_length=MAX_KEY, unique=True)

    def __str__(self) -> str:
        return f"{self.username} ({self.key})"


class OpenSignup(models.Model):
    """An account made by open sign-up (no invite), by a keyed hash of the address it came from, so
    the sign-up quota counts per address (campaign/quotas.py) without keeping anybody's address."""

    address_key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["address_key", "created_at"])]

    def __str__(self) -> str:
        return f"Sign-up at {self.created_at:%Y-%m-%d %H:%M}"


class OwnerLink(models.Model):
    """``make run``'s one-time link for the person at the serving machine (people/services/owner.py): it
    makes one account of their own, once. Only the SHA-256 of its token is kept (192 random bits: no salt
    or slow hash needed), so the database alone opens nothing; each run replaces the one before."""

    token_hash = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Owner's link of {self.created_at:%Y-%m-%d %H:%M}" + (" (used)" if self.used_at else "")


class AccountLanguage(models.Model):
    """The language an account reads Muster in (issue 41), chosen on its account page: kept on each device
    it logs in from (the language cookie, muster/languages.py). No row: the browser's language."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+")
    language = models.CharField(max_length=15)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
