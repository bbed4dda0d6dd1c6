"""The owner's link's page (people/services/owner.py): the person at the serving machine makes their own
account, staff if they tick the box, and lands logged in on the home page.

A used, expired or forged link is refused with a sentence (410 or 404) and counts as a failed login for
the address (people/throttle.py), as every secret link does; a locked-out address is told so (429). A
taken or look-alike user name does not count here, unlike on open sign-up: only the holder of a valid
192-bit link reaches that answer, so it tells a guesser nothing, and the owner's own slips must not lock
them out.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from muster.answers import answer, flash

from ..forms.owner import OwnerAccountForm
from ..services.owner import OWNER_LINK_HOURS, OwnerLinkRefused, owner_account_create, owner_link_open
from ..throttle import count_failure, refuse_if_locked
from .signup import MODEL_BACKEND, welcome


def _page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    return render(request, "people/owner.html", {"hours": OWNER_LINK_HOURS, **context}, status=status)


def _refused(request: HttpRequest, refusal: OwnerLinkRefused) -> HttpResponse:
    count_failure(request)
    return _page(request, {"refusal": str(refusal)}, status=refusal.status)


@require_http_methods(["GET", "POST"])
def owner_account(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the form, while the link is good; POST: the account, then logged in on the home page."""
    locked = refuse_if_locked(request)
    if locked:
        return _page(request, {"refusal": locked}, status=429)
    form = OwnerAccountForm(request.POST if request.method == "POST" else None)
    if not form.is_valid():
        return _form_page(request, form, token)
    data = form.cleaned_data

    def refused(refusal) -> HttpResponse:
        if isinstance(refusal, OwnerLinkRefused):
            return _refused(request, refusal)
        form.add_error(None, str(refusal))
        return _form_page(request, form, token)

    return answer(
        lambda: owner_account_create(
            token=token, username=data["username"], display_name=data["display_name"],
            password=data["password1"], staff=data["staff"], submission=data["submission"],
        ),
        done=lambda user: _logged_in(request, user),
        already=lambda _repeat: flash(
            request, messages.INFO, _("Already done: your account was made by the first tap. Log in with it."), "login"
        ),
        refused=refused,
    )


def _logged_in(request: HttpRequest, user) -> HttpResponse:
    login(request, user, backend=MODEL_BACKEND)
    messages.success(request, welcome(user))
    return redirect("campaign:home")


def _form_page(request: HttpRequest, form: OwnerAccountForm, token: str) -> HttpResponse:
    """The form while the link is good, else the link's refusal."""
    try:
        owner_link_open(token=token)
    except OwnerLinkRefused as refusal:
        return _refused(request, refusal)
    return _page(request, {"form": form, "token": token})
