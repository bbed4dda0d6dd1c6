"""Sign-up: through an invite (the account is made and joins the campaign in one step), or on its
own where the instance allows it (``open_signup_allowed``: MUSTER_SIGNUP=open, or an instance with no
account yet, whose first account is made here: ruling AC1).

A refusal that tells a guesser something (that user name is taken; that invite token is forged or
spent) counts as a failed login for this address (people/throttle.py), so a guesser meets the login's
lock-out; a newcomer's typing slips (two passwords that differ, a password too common) do not, or a
phone at the door would be locked out for a quarter of an hour. A locked-out address is told so (429)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign.permissions import may_create_campaigns
from campaign.quotas import QuotaExceeded
from muster.answers import answer, flash

from ..forms.signup import SignupForm
from ..models import Invite
from ..presenters import landing
from ..selectors.invites import EXPIRED, FORGED, REVOKED, USED_UP
from ..services.signup import INVITE_ONLY, NameRefused, open_signup_allowed, signup
from ..throttle import address_key, count_failure, refuse_if_locked
from .invites import join_page, login_url, open_invite

# The new account has just been made with this password: log it in with the model backend directly
# (axes' backend, first in the list, only ever refuses).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"

# What a sign-up refusal tells a guesser, if anything: these count as failed logins (and every
# ``NameRefused``: a user name taken, or looking like a taken one). In English: compared translated.
TELLING = (FORGED, REVOKED, EXPIRED, USED_UP)


def _sign_up(request: HttpRequest, form: SignupForm, invite: Invite | None, *, done, refused) -> HttpResponse:
    """The service called with the form, answered: ``done(result)``; a repeated form says the account was
    made by the first tap and asks to log in; a refusal puts its sentence on the form (and counts a failure
    when it tells a guesser something) and answers ``refused(refusal)``."""
    data = form.cleaned_data

    def refusal_noted(refusal) -> HttpResponse:
        form.add_error(None, str(refusal))
        if isinstance(refusal, NameRefused) or str(refusal) in {_(sentence) for sentence in TELLING}:
            count_failure(request)
        return refused(refusal)

    if invite is None:
        repeated = _("Already done: your account was made by the first tap. Log in with it."), "login"
    else:
        repeated = _("Already done: your account was made by the first tap. Log in to join."), login_url(invite)
    return answer(
        lambda: signup(
            username=data["username"], display_name=data["display_name"], password=data["password1"],
            invite_token=invite and invite.token, submission=data["submission"], address_key=address_key(request),
        ),
        done=done,
        already=lambda _repeat: flash(request, messages.INFO, *repeated),
        refused=refusal_noted,
    )


def _signup_page(request: HttpRequest, form: SignupForm, status: int = 200) -> HttpResponse:
    """The open sign-up form; on an instance without an account it says this is the first one."""
    first = settings.SIGNUP != "open"  # allowed only because nobody has an account yet
    return render(request, "people/signup.html", {"form": form, "first_account": first}, status=status)


def _invite_only(request: HttpRequest) -> HttpResponse:
    return render(request, "people/signup.html", {"refusal": _(INVITE_ONLY)}, status=404)


@require_http_methods(["GET", "POST"])
def signup_open(request: HttpRequest) -> HttpResponse:
    """Open sign-up where ``open_signup_allowed()`` (MUSTER_SIGNUP=open, or the instance's first
    account); elsewhere a sentence (404): accounts come by invite. A post goes to the service, which
    decides again, so a double tap on the first account is "Already done", not a refusal."""
    if request.method == "GET" and not open_signup_allowed():
        return _invite_only(request)
    if request.user.is_authenticated:
        return redirect("campaign:home")
    if request.method == "GET":
        return _signup_page(request, SignupForm())
    locked = refuse_if_locked(request)
    if locked:
        if not open_signup_allowed():
            return _invite_only(request)
        return render(request, "people/signup.html", {"form": SignupForm(), "refusal": locked}, status=429)
    form = SignupForm(request.POST)
    if not form.is_valid():
        return _signup_page(request, form) if open_signup_allowed() else _invite_only(request)

    def refused(refusal) -> HttpResponse:
        if isinstance(refusal, QuotaExceeded):  # too many accounts from this address lately: 429
            return _signup_page(request, form, status=refusal.status)
        return _signup_page(request, form) if open_signup_allowed() else _invite_only(request)

    def signed_up(done) -> HttpResponse:
        login(request, done.user, backend=MODEL_BACKEND)
        messages.success(request, welcome(done.user))
        return redirect("campaign:home")

    return _sign_up(request, form, None, done=signed_up, refused=refused)


def welcome(user) -> str:
    """The first words a new account reads on the home page (here and on the owner's link)."""
    if may_create_campaigns(user):
        return _("Welcome, %(name)s. Start a campaign with New campaign, or ask a GM for an invite to theirs.") % {
            "name": user.first_name
        }
    return _("Welcome, %(name)s. Ask your GM for an invite to their campaign.") % {"name": user.first_name}


@require_POST
def join_signup(request: HttpRequest, token: str) -> HttpResponse:
    """The sign-up form of an invite's page: a new account that joins in the same step, then its
    commander's page (or the campaign's)."""
    opened = open_invite(request, token)
    if isinstance(opened, HttpResponse):
        if opened.status_code in (404, 410):
            count_failure(request)  # a forged or spent token counts, as a wrong password does
        return opened
    invite = opened
    if request.user.is_authenticated:
        return redirect("people:join", invite.token)
    locked = refuse_if_locked(request)
    if locked:
        return join_page(request, invite, status=429, locked=locked)
    form = SignupForm(request.POST)
    if not form.is_valid():
        return join_page(request, invite, form=form)

    def joined(done) -> HttpResponse:
        login(request, done.user, backend=MODEL_BACKEND)
        words = {"campaign": invite.campaign.name, "name": done.user.first_name}
        messages.success(request, _("Welcome to %(campaign)s, %(name)s.") % words)
        return landing(done.joined)

    return _sign_up(request, form, invite, done=joined, refused=lambda _refusal: join_page(request, invite, form=form))
