"""Sign-up: a new account, made through an invite (and joined in the same transaction) or, where the
instance allows it (``open_signup_allowed``: settings.SIGNUP == "open", or no account at all yet), on
its own.

The first account of an empty instance (ruling AC1) needs no invite whatever MUSTER_SIGNUP says, or
nobody could get in without ``createsuperuser``; it is a plain account like any other (with the
default MUSTER_CAMPAIGN_CREATORS=everyone it starts a campaign and becomes its GM).

The name others see is ``User.first_name``; the password passes AUTH_PASSWORD_VALIDATORS; nobody
becomes staff or superuser this way. A refused invite rolls the new account back with it: nothing is
written.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from campaign.submissions import applied_once

from . import PeopleError
from .invites import Joined, invite_accept

User = get_user_model()
MAX_DISPLAY_NAME = 150  # User.first_name
MAX_PASSWORD = 256  # hashing a megabyte on every post is a way to stall the server
INVITE_ONLY = "Sign-up is by invite only here: ask your GM for an invite link or QR code."
TAKEN = "That user name is taken: choose another (or log in if it is yours)."


@dataclass(frozen=True)
class SignedUp:
    user: object
    joined: Joined | None


def _clean_username(username: str) -> str:
    username = User.normalize_username((username or "").strip())
    if not username:
        raise PeopleError("Choose a user name.")
    if len(username) > 150:
        raise PeopleError("A user name has at most 150 characters.")
    try:
        User.username_validator(username)
    except ValidationError:
        raise PeopleError("A user name has letters, digits and @ . + - _ only (no spaces).") from None
    return username


def _clean_display_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise PeopleError("Give the name others will see.")
    if len(name) > MAX_DISPLAY_NAME or "\x00" in name:
        raise PeopleError(f"The name others see has at most {MAX_DISPLAY_NAME} characters.")
    return name


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
def signup(*, username: str, display_name: str, password: str, invite_token: str | None = None) -> SignedUp:
    """A new account (never staff), and with ``invite_token`` its membership of the invite's campaign."""
    if invite_token is None and not open_signup_allowed():
        raise PeopleError(INVITE_ONLY)
    username = _clean_username(username)
    display_name = _clean_display_name(display_name)
    if not isinstance(password, str) or not password or len(password) > MAX_PASSWORD or "\x00" in password:
        raise PeopleError(f"Choose a password of at most {MAX_PASSWORD} characters.")
    if User.objects.filter(username__iexact=username).exists():
        raise PeopleError(TAKEN)
    user = User(username=username, first_name=display_name, is_staff=False, is_superuser=False, is_active=True)
    try:
        password_validation.validate_password(password, user)
    except ValidationError as refusal:
        raise PeopleError(" ".join(refusal.messages)) from None
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # the same name signed up a moment ago from another phone
        raise PeopleError(TAKEN) from None
    joined = invite_accept(token=invite_token, user=user) if invite_token is not None else None
    return SignedUp(user=user, joined=joined)
