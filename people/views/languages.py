"""One's own language (/account/language/, issue 41): kept with the account and on this device at once;
every device the account logs in from takes it at its next login (``people.receivers.language_at_login``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from muster import languages
from muster.answers import answer, flash

from ..forms.languages import LanguageForm
from ..services.languages import account_language_set


@require_POST
@login_required
def account_language(request: HttpRequest) -> HttpResponse:
    form = LanguageForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a language of the list."))
        return redirect("people:account")
    return answer(
        lambda: account_language_set(user=request.user, language=form.cleaned_data["language"]),
        done=lambda chosen: _chosen(request, chosen),
        refused=lambda refusal: flash(request, messages.ERROR, str(refusal), "people:account"),
    )


def _chosen(request: HttpRequest, chosen: str) -> HttpResponse:
    """This device reads the choice from this answer on: the cookie (none chosen: the browser's again)."""
    request.language_chosen = chosen or languages.CLEARED
    languages.use(request, chosen or languages.of_request(request))
    return flash(request, messages.SUCCESS, _("Muster now speaks your language here."), "people:account")
