"""Pages other than the login page that a guesser could use share the login's throttling (django-axes).

Sign-up (a user name taken or not tells whether an account exists) and the one-time reset pages count
their refused posts as failed logins: ``count_failure`` records one through axes' own handler, so
``AXES_FAILURE_LIMIT`` failures from one address lock that address out of the login page too, and
``refuse_if_locked`` gives the sentence to show (with a 429) while axes says the address is locked out.

A failure is counted against the address and, when ``username`` names a real account the post was
about (a reset link's user), against that user name as well. Without one it goes to a per-address
stand-in name: a sign-up for "gm" must not lock the GM out, and a stand-in shared by every address
(None) would let five failures anywhere lock every address out of sign-up. The stand-in is an HMAC
of the address, so nobody can post login failures under another address's stand-in.

A successful login clears only that user's own failures from that address (``OwnFailuresHandler``,
settings.AXES_HANDLER). axes' own reset on success deletes every attempt matching any of
AXES_LOCKOUT_PARAMETERS, the address included: with ["username", "ip_address"] a guesser who logged in
to their own account after every four wrong passwords for someone else wiped those four each time,
was never locked out, and guessed on for ever (issue 34). Clearing the user's failures from every
address would be no better: the victim's own login would then lift the lock of the guesser's address.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_ip_address, get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpRequest
from django.utils.crypto import salted_hmac
from django.utils.translation import ngettext

from muster.request_log import without_secrets


def address_key(request: HttpRequest) -> str:
    """The request's address as a keyed hash: counts per address without storing it (the sign-up quota)."""
    return salted_hmac("people.throttle", get_client_ip_address(request) or "").hexdigest()[:24]


def _address_name(request: HttpRequest) -> str:
    """A user name no account has and nobody can type for another address: stands for the address alone."""
    return "~address-" + address_key(request)


def _credentials(request: HttpRequest, username: str | None) -> dict:
    return {settings.AXES_USERNAME_FORM_FIELD: username or _address_name(request)}


def locked_sentence() -> str:
    minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    return ngettext(
        "Too many failed attempts from this address; try again in %(minutes)d minute.",
        "Too many failed attempts from this address; try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def refuse_if_locked(request: HttpRequest, username: str | None = None) -> str | None:
    """The sentence to show when axes says this address (or ``username``, when given) is locked out; else None."""
    if AxesProxyHandler.is_locked(request, _credentials(request, username)):
        return locked_sentence()
    return None


def count_failure(request: HttpRequest, username: str | None = None) -> None:
    """Record one failure for this address (and ``username`` when it names the account concerned) via
    axes' handler, exactly as a failed login is recorded. Sensitive fields of the post are masked by
    settings.AXES_SENSITIVE_PARAMETERS (password1/2, new_password1/2); the path is stored and logged
    without its secret (a reset link's token, an invite's)."""
    AxesProxyHandler.update_request(request)
    # PostgreSQL stores no NUL byte (a forged link "/join/%00/" must not become a 500); axes itself
    # already writes the post's and the query's as "0x00".
    request.axes_path_info = without_secrets(request.axes_path_info or "").replace("\x00", "0x00")
    request.axes_user_agent = (request.axes_user_agent or "").replace("\x00", "0x00")
    AxesProxyHandler.user_login_failed(
        sender=count_failure, credentials=_credentials(request, username), request=request
    )


class OwnFailuresHandler(AxesDatabaseHandler):
    """axes' database handler, except that a successful login (AXES_RESET_ON_SUCCESS) deletes only the
    failures recorded under that user name from that address; everybody else's stay counted."""

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        count, _ = AccessAttempt.objects.filter(
            username=get_client_username(request, credentials), ip_address=request.axes_ip_address
        ).delete()
        return count
