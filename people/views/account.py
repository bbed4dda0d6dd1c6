"""One's own account (/account/): the name others see and the password. Any logged-in user, for
themselves only; a wrong current password counts as a failed login for this address (people/throttle.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from ..forms.accounts import AccountPasswordForm, DisplayNameForm
from ..services import PeopleError
from ..services.accounts import account_password_change, account_rename
from ..throttle import count_failure, refuse_if_locked


def _page(
    request: HttpRequest, *, name_form=None, password_form=None, locked: str = "", status: int = 200
) -> HttpResponse:
    user = request.user
    context = {
        "name_form": name_form or DisplayNameForm(initial={"display_name": user.get_full_name()}),
        "password_form": password_form or AccountPasswordForm(user),
        "locked": locked,
    }
    return render(request, "people/account.html", context, status=status)


@require_GET
@login_required
def account(request: HttpRequest) -> HttpResponse:
    return _page(request)


@require_POST
@login_required
def account_name(request: HttpRequest) -> HttpResponse:
    form = DisplayNameForm(request.POST)
    if form.is_valid():
        try:
            account_rename(user=request.user, display_name=form.cleaned_data["display_name"])
        except PeopleError as refusal:
            form.add_error("display_name", str(refusal))
        else:
            messages.success(request, f"Others now see you as {request.user.first_name}.")
            return redirect("people:account")
    return _page(request, name_form=form)


@require_POST
@login_required
def account_password(request: HttpRequest) -> HttpResponse:
    """The current password, then the new one twice. The session that changed it stays logged in;
    every other session of the account ends (its stored password hash no longer matches)."""
    locked = refuse_if_locked(request)
    if locked:
        return _page(request, locked=locked, status=429)
    form = AccountPasswordForm(request.user, request.POST)
    if form.is_valid():
        try:
            user = account_password_change(user=request.user, new_password=form.cleaned_data["new_password1"])
        except PeopleError as refusal:
            form.add_error("new_password1", str(refusal))
        else:
            update_session_auth_hash(request, user)
            messages.success(request, "Your password is changed; your other devices are logged out.")
            return redirect("people:account")
    elif "old_password" in form.errors:
        count_failure(request)
    return _page(request, password_form=form)
