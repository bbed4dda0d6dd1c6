"""The owner's link (issue 35): how the person at the serving machine gets an account of their own.

``make run`` serves the venue's Wi-Fi with sign-up by invite only, so a newcomer GM had no account but
the demo's shared ``gm``. On every run scripts/serve.py calls ``owner_link_issue`` and prints the link
on its terminal only, where nobody on the Wi-Fi sees it (the laptop's owner is trusted): its page makes
one account through sign-up's rules (``account_create``: look-alike names, the password validators),
staff only when its box is ticked, logs it in and lands on the home page and its New campaign.

* The token is ``secrets.token_urlsafe(24)``: 192 random bits, never guessed; only its SHA-256 is stored
  (``OwnerLink``), so a copy of the database opens nothing.
* It works once (``used_at``, set in the account's transaction with the link's row locked) and for
  ``OWNER_LINK_HOURS`` (24): a link seen over a shoulder on a game day is dead by the next. Each run
  deletes the links before (a restart is the way to a fresh one); a used link stays, so a second use is
  told it was used rather than that it never existed.
* A used, expired or forged token is refused with a sentence (``OwnerLinkRefused``: 410 or 404); the
  page counts it as a failed login (people/throttle.py) and the request log writes the path as
  ``/owner/***/`` (muster/request_log.py), as every secret link.
* The form carries a one-time token (``applied_once``): a double tap is "Already done", not a refusal.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaign.submissions import applied_once

from ..models import OwnerLink
from . import PeopleError
from .signup import account_create

OWNER_LINK_HOURS = 24
MAX_TOKEN = 64  # a longer "token" is no token of ours: refused before it is hashed
# The refusals in English, marked: ``owner_link_open`` says them in the request's language.
FORGED = gettext_noop(
    "This link is not one this Muster made, or a later make run replaced it: open the newest link on its terminal."
)
USED = gettext_noop(
    "This link has made its account already: it works once. "
    "Log in with that account, or restart make run for a new link."
)
EXPIRED_WORDS = gettext_noop("This link has expired (it lasts %(hours)s hours): restart make run for a new one.")
EXPIRED = EXPIRED_WORDS % {"hours": OWNER_LINK_HOURS}


class OwnerLinkRefused(PeopleError):
    """A forged (404), used or expired (410) owner's link: nothing was written."""

    def __init__(self, sentence: str, status: int) -> None:
        super().__init__(sentence)
        self.status = status


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def owner_link_issue(*, now: datetime | None = None) -> str:
    """A new owner's link, every earlier one deleted; the token (the caller prints it and keeps nothing)."""
    now = now or timezone.now()
    OwnerLink.objects.all().delete()
    token = secrets.token_urlsafe(24)
    OwnerLink.objects.create(token_hash=_digest(token), expires_at=now + timedelta(hours=OWNER_LINK_HOURS))
    return token


def owner_link_path(token: str) -> str:
    """The path of the owner's link ``token`` (scripts/serve.py prints it after each address)."""
    return reverse("people:owner", args=[token])


def owner_link_open(*, token: str, lock: bool = False) -> OwnerLink:
    """The link ``token`` opens, or ``OwnerLinkRefused``; ``lock`` (in a transaction) locks its row."""
    if not token or len(token) > MAX_TOKEN:
        raise OwnerLinkRefused(_(FORGED), 404)
    links = OwnerLink.objects.select_for_update() if lock else OwnerLink.objects
    link = links.filter(token_hash=_digest(token)).first()
    if link is None:
        raise OwnerLinkRefused(_(FORGED), 404)
    if link.used_at is not None:
        raise OwnerLinkRefused(_(USED), 410)
    if link.expires_at <= timezone.now():
        raise OwnerLinkRefused(_(EXPIRED_WORDS) % {"hours": OWNER_LINK_HOURS}, 410)
    return link


@applied_once("owner_account")
@transaction.atomic
def owner_account_create(*, token: str, username: str, display_name: str, password: str, staff: bool):
    """The owner's own account, made through the link ``token`` (which it uses up): staff and superuser
    only when ``staff``. Refuses as ``owner_link_open`` and as sign-up does; a refusal writes nothing."""
    link = owner_link_open(token=token, lock=True)
    user = account_create(username=username, display_name=display_name, password=password, staff=staff)
    link.used_at = timezone.now()
    link.save(update_fields=["used_at"])
    return user
