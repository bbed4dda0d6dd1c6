"""One-time password reset links: the GM makes one for a member of their campaign, staff for anyone;
the link's page sets a new password once. A used, expired or forged link is refused with a sentence
and counted as a failed login for this address (people/throttle.py); a locked-out address is told so."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetConfirmView
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaign.models import Membership
from campaign.permissions import campaign_gm
from muster.answers import answer, flash, on_the_form
from muster.http import venue_url

from ..forms.resets import ResetPasswordForm, StaffResetForm
from ..services.resets import (
    ResetLink,
    ResetLinkRefused,
    reset_link_by_staff,
    reset_link_for_member,
    reset_link_refusal,
    reset_link_user,
    reset_password_set,
)
from ..throttle import count_failure, refuse_if_locked

# The account was found by its link, not by a password: log it in with the model backend directly
# (axes' backend, first in the list, only ever refuses).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _link_page(request: HttpRequest, link: ResetLink, **context) -> HttpResponse:
    url = venue_url(request, link.path)
    context.update(link=link, url=url, qr=segno.make(url, error="m").svg_data_uri(scale=4))
    return render(request, "people/reset_link.html", context)


def _refused(request: HttpRequest, sentence: str, status: int) -> HttpResponse:
    return render(request, "people/reset.html", {"refusal": sentence}, status=status)


def _link_refused(request: HttpRequest, refusal: ResetLinkRefused) -> HttpResponse:
    """A used, expired or forged link: its sentence, counted as a failed login for this address."""
    count_failure(request)
    return _refused(request, str(refusal), 400)


@require_http_methods(["GET", "POST"])
def reset(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """The page a reset link opens: a new password twice, then logged in as that account."""
    locked = refuse_if_locked(request)
    if locked:
        return _refused(request, locked, 429)
    try:  # a read before any write: the link's own page refuses it (tests/test_house.py REFUSAL_CLAUSES)
        user = reset_link_user(uidb64=uidb64, token=token)
    except ResetLinkRefused as refusal:
        return _link_refused(request, refusal)
    form = ResetPasswordForm(user, request.POST if request.method == "POST" else None)

    def page() -> HttpResponse:
        return render(request, "people/reset.html", {"form": form, "account": user})

    if not form.is_valid():
        return page()

    def refused(refusal: Exception) -> HttpResponse:
        if isinstance(refusal, ResetLinkRefused):  # used by another tab meanwhile, or expired while typing
            return _link_refused(request, refusal)
        return on_the_form(form, page, field="new_password1")(refusal)

    return answer(
        lambda: reset_password_set(uidb64=uidb64, token=token, new_password=form.cleaned_data["new_password1"]),
        done=lambda changed: _logged_in(request, changed),
        refused=refused,
    )


def _logged_in(request: HttpRequest, user) -> HttpResponse:
    login(request, user, backend=MODEL_BACKEND)
    return flash(request, messages.SUCCESS, _("Your new password is set, and you are logged in."), "campaign:home")


@require_http_methods(["GET", "POST"])
@campaign_gm
def member_reset(request: HttpRequest, membership_id: int) -> HttpResponse:
    """GET: what a reset link does, and the button (or why this GM makes none for this member); POST:
    the link and its QR code (GM only)."""
    members = Membership.objects.select_related("user", "campaign").filter(campaign=request.campaign)
    membership = members.filter(pk=membership_id).first()
    if membership is None:
        raise Http404("No such member.")
    context = {"campaign": request.campaign, "member": membership}
    if request.method == "POST":
        return answer(
            lambda: reset_link_for_member(gm=request.user, membership=membership),
            done=lambda link: _link_page(request, link, **context),
            refused=lambda refusal: render(
                request, "people/reset_member.html", {**context, "refusal": str(refusal)}, status=400
            ),
        )
    context["refusal"] = reset_link_refusal(gm=request.user, membership=membership)
    return render(request, "people/reset_member.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def staff_reset(request: HttpRequest) -> HttpResponse:
    """Staff make a reset link for any account by its user name; others get 404."""
    if not request.user.is_staff:
        raise Http404("No such page.")
    form = StaffResetForm(request.POST if request.method == "POST" else None)

    def page() -> HttpResponse:
        return render(request, "people/reset_staff.html", {"form": form})

    if not form.is_valid():
        return page()
    return answer(
        lambda: reset_link_by_staff(staff=request.user, username=form.cleaned_data["username"]),
        done=lambda link: _link_page(request, link),
        refused=on_the_form(form, page, field="username"),
    )


class MailedResetConfirm(PasswordResetConfirmView):
    """Django's own reset link, mailed where email is set up, sharing the throttle of the GM's links: a
    dead or forged one counts as a failed login for this address, and a locked-out address is told so."""

    def dispatch(self, request, *args, **kwargs):
        locked = refuse_if_locked(request)
        if locked:
            return _refused(request, locked, 429)
        response = super().dispatch(request, *args, **kwargs)
        if not self.validlink:
            count_failure(request)
        return response
