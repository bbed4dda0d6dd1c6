"""One-time password reset links made by a GM (for a member of their campaign) or by staff (for anyone),
for a venue without a mail server: the link and its QR code are shown on the maker's screen.

No row is stored. A link carries the user's id and a token from ``ResetLinkTokens``, Django's
``PasswordResetTokenGenerator`` with its own salt and a short life (``PASSWORD_RESET_LINK_MINUTES``,
30 by default). The token is an HMAC over the user's password hash and last login, so it dies as soon
as the password changes (the link is one-time: its own use changes the password) or the member logs in
another way; ``reset_password_set`` re-checks it in the locked user row, so two posts of one link cannot
both set a password. Its salt differs from Django's e-mail reset tokens, so a GM's link cannot pass for
an e-mailed one (which lives ``PASSWORD_RESET_TIMEOUT``, days) or the other way round.

Who may make one: the GM of a campaign for a member of it whose every membership is in campaigns
that GM runs; not for themselves (their account page), a staff user, a fellow GM (GMs are peers), a
switched-off account, or a member of any campaign the maker does not run as GM (issue 34: the link
would hand the GM that member's seat, hand and commanders there, and log the member out). Such a
member changes their own password on their account page, or staff make the link. Staff for anyone
but a superuser, unless superuser themselves.
A GM's link gets a line in the campaign's activity log, never the link itself.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from campaign.activity import Line, activity_record
from campaign.models import Activity, Membership

from ..selectors.members import common_reset_refusal, reset_link_refusal
from . import PeopleError
from .accounts import account_password_change

logger = logging.getLogger(__name__)

USED_OR_FORGED = gettext_noop(
    "This reset link does not work: it was used already, or it is not a link Muster made. "
    "Ask your GM for a new one."
)  # said with gettext where it is refused


class ResetLinkRefused(PeopleError):
    """A reset link that is used, expired or forged: nothing changes, the page says this sentence."""


def link_minutes() -> int:
    return settings.PASSWORD_RESET_LINK_MINUTES


class ResetLinkTokens(PasswordResetTokenGenerator):
    """Django's reset tokens with their own salt and a life of ``link_minutes()``; ``refusal`` tells
    an expired link (a real one, too old) from a used or forged one."""

    key_salt = "people.services.resets.ResetLinkTokens"

    def refusal(self, user, token: str) -> str | None:
        """None when ``token`` is a live link for ``user``; else the sentence to show."""
        try:
            stamp, _hash = token.split("-")
            timestamp = base36_to_int(stamp)
        except ValueError:
            return _(USED_OR_FORGED)
        if not any(
            constant_time_compare(self._make_token_with_timestamp(user, timestamp, secret), token)
            for secret in [self.secret, *self.secret_fallbacks]
        ):
            return _(USED_OR_FORGED)
        if self._num_seconds(self._now()) - timestamp > link_minutes() * 60:
            minutes = link_minutes()
            return ngettext(
                "This reset link has expired (a link works for %(minutes)s minute). Ask your GM for a new one.",
                "This reset link has expired (a link works for %(minutes)s minutes). Ask your GM for a new one.",
                minutes,
            ) % {"minutes": minutes}
        return None

    def check_token(self, user, token) -> bool:
        return bool(user is not None and token and self.refusal(user, token) is None)


reset_link_tokens = ResetLinkTokens()


@dataclass(frozen=True)
class ResetLink:
    """A made link: whose, the path (``people:reset``) and when it stops working."""

    username: str
    name: str
    path: str
    expires_at: datetime
    minutes: int


def _made_for(user, name: str) -> ResetLink:
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    minutes = link_minutes()
    return ResetLink(
        username=user.get_username(),
        name=name,
        path=reverse("people:reset", args=[uidb64, reset_link_tokens.make_token(user)]),
        expires_at=timezone.now() + timedelta(minutes=minutes),
        minutes=minutes,
    )


def _refuse_common(maker, user, who: str) -> None:
    refusal = common_reset_refusal(maker, user, who)
    if refusal:
        raise PeopleError(refusal)


@transaction.atomic
def reset_link_for_member(*, gm, membership: Membership) -> ResetLink:
    """A one-time reset link for ``membership``'s user, made by ``gm`` (a GM of that campaign), with a
    line in the activity log."""
    refusal = reset_link_refusal(gm=gm, membership=membership)
    if refusal:
        raise PeopleError(refusal)
    campaign, user, who = membership.campaign, membership.user, membership.display_name
    link = _made_for(user, who)
    activity_record(
        campaign=campaign,
        actor=gm,
        kind=Activity.Kind.RESET_LINK,
        summary=Line(
            gettext_noop("Made a one-time password reset link for %(who)s (%(username)s), valid %(minutes)s minutes"),
            who=who,
            username=link.username,
            minutes=link.minutes,
        ),
        target=membership,
        details={"user_id": user.pk, "username": link.username, "minutes": link.minutes},
    )
    return link


def reset_link_by_staff(*, staff, username: str) -> ResetLink:
    """A one-time reset link for the account ``username``, made by a staff user (no campaign: a log line)."""
    if not (staff.is_active and staff.is_staff):
        raise PeopleError(_("Only staff can make a reset link for any account."))
    username = (username or "").strip()
    user = get_user_model()._default_manager.filter(**{get_user_model().USERNAME_FIELD: username}).first()
    if user is None:
        raise PeopleError(_("No account has that user name."))
    _refuse_common(staff, user, user.get_username())
    if user.is_superuser and not staff.is_superuser:
        raise PeopleError(
            _("%(name)s is a superuser: only a superuser can make a reset link for them.")
            % {"name": user.get_username()}
        )
    link = _made_for(user, user.get_full_name() or user.get_username())
    logger.info("staff %s made a password reset link for %s", staff.get_username(), link.username)
    return link


def _user_from(uidb64: str, *, lock: bool = False):
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        return None
    users = get_user_model()._default_manager.filter(pk=pk, is_active=True)
    if lock:
        users = users.select_for_update()
    try:
        return users.first()
    except (ValueError, OverflowError):  # an id past the column's range
        return None


def reset_link_user(*, uidb64: str, token: str):
    """The account a live link is for; ``ResetLinkRefused`` with a sentence when it is used, expired or forged."""
    user = _user_from(uidb64)
    if user is None:
        raise ResetLinkRefused(_(USED_OR_FORGED))
    refusal = reset_link_tokens.refusal(user, token)
    if refusal:
        raise ResetLinkRefused(refusal)
    return user


@transaction.atomic
def reset_password_set(*, uidb64: str, token: str, new_password: str):
    """Set the password of the link's account, once: the link is checked again in the locked row, and
    the new password hash kills it. ``ResetLinkRefused`` for a dead link; ``PeopleError`` for a password
    the validators refuse (the link stays usable)."""
    user = _user_from(uidb64, lock=True)
    if user is None:
        raise ResetLinkRefused(_(USED_OR_FORGED))
    refusal = reset_link_tokens.refusal(user, token)
    if refusal:
        raise ResetLinkRefused(refusal)
    return account_password_change(user=user, new_password=new_password)
