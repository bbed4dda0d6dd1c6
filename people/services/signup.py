"""Sign-up: a new account, made through an invite (and joined in the same transaction) or, where the
instance allows it (``open_signup_allowed``: settings.SIGNUP == "open", or no account at all yet), on
its own.

The first account of an empty instance (ruling AC1) needs no invite whatever MUSTER_SIGNUP says, or
nobody could get in without ``createsuperuser``; it is a plain account like any other (with the
default MUSTER_CAMPAIGN_CREATORS=everyone it starts a campaign and becomes its GM).

A user name that is taken, looks like a taken one ("аdmin" with a Cyrillic а, "admin." beside
"admin": people/names.py, a unique look-alike key per account), or mixes Latin with Cyrillic or Greek
is refused with a sentence.

The name others see is ``User.first_name``; the password passes AUTH_PASSWORD_VALIDATORS; nobody
becomes staff or superuser this way. A refused invite rolls the new account back with it: nothing is
written.

``account_create`` is the account-making step alone (these rules, no invite, no quota): sign-up runs it,
and so do the owner's link ``make run`` prints (people/services/owner.py) and ``manage.py
account_create``, the two trusted ways that may also make the account staff.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from campaign.quotas import DAY, HOUR, quota_check
from campaign.submissions import applied_once

from ..models import NameKey, OpenSignup
from ..names import look_alike_sentence, name_key, name_problem
from . import PeopleError
from .invites import Joined, invite_accept

User = get_user_model()
MAX_DISPLAY_NAME = 150  # User.first_name
MAX_PASSWORD = 256  # hashing a megabyte on every post is a way to stall the server
# In English, marked: said with gettext where they refuse.
INVITE_ONLY = gettext_noop("Sign-up is by invite only here: ask your GM for an invite link or QR code.")
TAKEN = gettext_noop("That user name is taken: choose another (or log in if it is yours).")


class NameRefused(PeopleError):
    """A user name that is taken or looks like a taken one: telling a guesser that an account exists,
    it counts as a failed login (people/views/signup.py)."""


@dataclass(frozen=True)
class SignedUp:
    user: object
    joined: Joined | None


def _clean_username(username: str) -> str:
    username = User.normalize_username((username or "").strip())
    if not username:
        raise PeopleError(_("Choose a user name."))
    if len(username) > 150:
        raise PeopleError(_("A user name has at most 150 characters."))
    try:
        User.username_validator(username)
    except ValidationError:
        raise PeopleError(_("A user name has letters, digits and @ . + - _ only (no spaces).")) from None
    problem = name_problem(username)
    if problem:
        raise PeopleError(problem)
    return username


def _refuse_taken_or_alike(username: str) -> None:
    """``NameRefused`` when ``username`` is taken (whatever its case) or looks like a taken one."""
    if User.objects.filter(username__iexact=username).exists():
        raise NameRefused(_(TAKEN))
    alike = NameKey.objects.filter(key=name_key(username)).values_list("user__username", flat=True).first()
    if alike is not None:
        raise NameRefused(look_alike_sentence(alike))


def _clean_display_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise PeopleError(_("Give the name others will see."))
    if len(name) > MAX_DISPLAY_NAME or "\x00" in name:
        raise PeopleError(_("The name others see has at most %(max)s characters.") % {"max": MAX_DISPLAY_NAME})
    return name


def _new_accounts(count: int) -> str:
    return ngettext("%(count)d new account from one address", "%(count)d new accounts from one address", count) % {
        "count": count
    }


def _signup_quota_check(address_key: str) -> None:
    """``QuotaExceeded`` when this address made settings.SIGNUPS_PER_HOUR accounts by open sign-up in the
    last hour, or SIGNUPS_PER_DAY in the last day. An invite's sign-ups do not count: the GM bounded
    them (its number of uses), and a table of players signing up at a venue shares one address."""
    made_here = OpenSignup.objects.filter(address_key=address_key)
    limits = [(HOUR, settings.SIGNUPS_PER_HOUR), (DAY, settings.SIGNUPS_PER_DAY)]
    quota_check(_new_accounts, made_here, limits)


def no_account_yet() -> bool:
    """Whether this instance has no account at all (a fresh database)."""
    return not User.objects.exists()


def open_signup_allowed() -> bool:
    """Whether ``/signup/`` makes an account without an invite: an open instance, or one with no
    account at all (its first, ruling AC1). The service checks it in its transaction; the pages ask
    it to offer the form and the link."""
    return settings.SIGNUP == "open" or no_account_yet()


@applied_once("signup")
@transaction.atomic
def signup(
    *, username: str, display_name: str, password: str, invite_token: str | None = None, address_key: str = ""
) -> SignedUp:
    """A new account (never staff), and with ``invite_token`` its membership of the invite's campaign.
    Without one, the sign-up counts against the quota of ``address_key`` (the address's keyed hash)."""
    if invite_token is None and not open_signup_allowed():
        raise PeopleError(_(INVITE_ONLY))
    if invite_token is None:
        _signup_quota_check(address_key)
    user = account_create(username=username, display_name=display_name, password=password)
    if invite_token is None:
        OpenSignup.objects.create(address_key=address_key)
    joined = invite_accept(token=invite_token, user=user) if invite_token is not None else None
    return SignedUp(user=user, joined=joined)


@transaction.atomic
def account_create(*, username: str, display_name: str, password: str, staff: bool = False):
    """A new active account through sign-up's rules (the user name clean, not taken and no look-alike of
    a taken one; the display name; the password validators), refused with a sentence. ``staff`` makes it
    staff and superuser, as ``createsuperuser`` and the demo's ``admin``: the Django admin shows a staff
    account without permissions nothing. Only the trusted callers (the owner's link, the command line)
    ever pass it."""
    username = _clean_username(username)
    display_name = _clean_display_name(display_name)
    if not isinstance(password, str) or not password or len(password) > MAX_PASSWORD or "\x00" in password:
        raise PeopleError(_("Choose a password of at most %(max)s characters.") % {"max": MAX_PASSWORD})
    _refuse_taken_or_alike(username)
    user = User(username=username, first_name=display_name, is_staff=staff, is_superuser=staff, is_active=True)
    try:
        password_validation.validate_password(password, user)
    except ValidationError as refusal:
        raise PeopleError(" ".join(refusal.messages)) from None
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()  # its look-alike key comes with it (people/receivers.py), unless another account has it
            if not NameKey.objects.filter(user=user).exists():
                raise IntegrityError("a look-alike name signed up a moment ago")
    except IntegrityError:  # the same name, or a look-alike, signed up a moment ago from another phone
        _refuse_taken_or_alike(username)
        raise NameRefused(_(TAKEN)) from None
    return user
