"""One's own account (/account/): the name others see, the password and the language (its form posts to
views/languages.py). Any logged-in user, for
themselves only; a wrong current password counts as a failed login for this address (people/throttle.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from muster.answers import answer, flash, on_the_form

from ..forms.accounts import AccountPasswordForm, DisplayNameForm
from ..forms.languages import LanguageForm
from ..services.accounts import account_password_change, account_rename
from ..services.languages import account_language
from ..throttle import count_failure, refuse_if_locked


def _page(
    request: HttpRequest, *, name_form=None, password_form=None, locked: str = "", status: int = 200
) -> HttpResponse:
    user = request.user
    context = {
        "name_form": name_form or DisplayNameForm(initial={"display_name": user.get_full_name()}),
        "password_form": password_form or AccountPasswordForm(user),
        "language_form": LanguageForm(initial={"language": account_language(user)}),
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
    if not form.is_valid():
        return _page(request, name_form=form)
    return answer(
        lambda: account_rename(user=request.user, display_name=form.cleaned_data["display_name"]),
        done=lambda user: flash(
            request, messages.SUCCESS, _("Others now see you as %(name)s.") % {"name": user.first_name},
            "people:account",
        ),
        refused=on_the_form(form, lambda: _page(request, name_form=form), field="display_name"),
    )


@require_POST
@login_required
def account_password(request: HttpRequest) -> HttpResponse:
    """The current password, then the new one twice. The session that changed it stays logged in;
    every other session of the account ends (its stored password hash no longer matches)."""
    locked = refuse_if_locked(request)
    if locked:
        return _page(request, locked=locked, status=429)
    form = AccountPasswordForm(request.user, request.POST)
    if not form.is_valid():
        if "old_password" in form.errors:
            count_failure(request)
        return _page(request, password_form=form)
    return answer(
        lambda: account_password_change(user=request.user, new_password=form.cleaned_data["new_password1"]),
        done=lambda user: _password_changed(request, user),
        refused=on_the_form(form, lambda: _page(request, password_form=form), field="new_password1"),
    )


def _password_changed(request: HttpRequest, user) -> HttpResponse:
    """The session that changed the password stays logged in (its stored hash is updated)."""
    update_session_auth_hash(request, user)
    return flash(
        request, messages.SUCCESS, _("Your password is changed; your other devices are logged out."), "people:account"
    )
