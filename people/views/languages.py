"""One's own language (/account/language/, issue 41): kept with the account and on this device at once;
every device the account logs in from takes it at its next login (``people.receivers.language_at_login``).
And the languages staff offer (/languages/): how far each is translated, a new one added, each translated in
the browser (rosetta, at /admin/translations/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from muster import languages
from muster.answers import answer, flash

from ..forms.languages import LanguageAddForm, LanguageForm
from ..services.languages import account_language_set, language_add, language_progress


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


def _staff_only(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise Http404("No such page.")


@require_GET
@login_required
def languages_page(request: HttpRequest, form: LanguageAddForm | None = None) -> HttpResponse:
    _staff_only(request)
    context = {"rows": language_progress(), "form": form or LanguageAddForm()}
    return render(request, "people/languages.html", context)


@require_POST
@login_required
def language_new(request: HttpRequest) -> HttpResponse:
    _staff_only(request)
    form = LanguageAddForm(request.POST)
    if not form.is_valid():
        return render(request, "people/languages.html", {"rows": language_progress(), "form": form}, status=400)
    return answer(
        lambda: language_add(code=form.cleaned_data["language"]),
        done=lambda code: flash(
            request,
            messages.SUCCESS,
            _("%(language)s is offered now: every phrase reads in English until it is translated.")
            % {"language": dict(languages.offered()).get(code, code)},
            "people:languages",
        ),
        refused=lambda refusal: flash(request, messages.ERROR, str(refusal), "people:languages"),
    )
