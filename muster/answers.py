"""The one place a refusal or an "already done" becomes a page's answer: every view that writes calls ``answer``.

A service refuses by raising a ``Refusal`` (muster/refusals.py), whose message is its sentence and whose
``status`` is 400, 409 for a ``Stale`` page, 429 for a quota; a repeated one-time token raises
``AlreadyDone`` (campaign/submissions.py; the class sits beside ``Refusal``) carrying what the first post
made. The view hands the service call to ``answer`` with what each outcome looks like on its page::

    return answer(
        lambda: offer_withdraw(offer=offer, gm=request.user, **form.cleaned_data),
        form=form,                                  # not valid: refused with its sentence, nothing called
        done=lambda offer: flash(request, messages.SUCCESS, "Withdrawn.", "armies:offer_edit", ...),
        already=lambda repeat: flash(request, messages.INFO, "Already done: ...", ...),
        refused=lambda refusal: flash(request, messages.ERROR, str(refusal), ...),
    )

A page that shows the sentence in place (the page again, or htmx's region) renders it with
``status_of(refusal)``. Only a ``Refusal`` is answered this way, and what a view names in ``refusing``:
the engines' ``IllegalAction`` (the engines import only the standard library, so their refusals cannot
derive from ``Refusal``), Django's ``PermissionDenied`` where a page has always said it as a sentence.
Anything else a service raises, a plain ``ValueError`` or ``TypeError`` too, is a bug: it answers 500
and is logged, never shown as a flash message. Where a module that knows no ``Refusal`` says a sentence
with a plain ``ValueError`` (an engine's setup refusing a config), the one service that calls it says it as
a ``Refusal`` (tabletop/services/tables.py ``SetupRefused``). Zulip's ``JsonableError`` and its middleware
are the model: one class, one place where it becomes a response.

``flash`` (a message, then a page) and ``on_the_form`` (the form again with the sentence on top) are the
answers most pages give.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from .forms import SentenceErrors
from .refusals import AlreadyDone, Refusal

Answer = Callable[[Any], HttpResponse]


def answer(
    change: Callable[[], Any],
    *,
    done: Answer,
    refused: Answer,
    already: Answer | None = None,
    form=None,
    refusing: tuple[type[Exception], ...] = (),
) -> HttpResponse:
    """Run ``change()`` (the service call) and answer with ``done(result)``, ``already(repeat)`` for a
    repeated one-time token, or ``refused(refusal)`` for a refusal. A ``form`` that does not validate is
    refused with its sentence before the service is called. Without ``already`` a repeat is not expected
    (the service takes no token) and goes up as any other error."""
    if form is not None and not form.is_valid():
        return refused(Refusal(form_sentence(form)))
    try:
        result = change()
    except AlreadyDone as repeat:
        if already is None:
            raise
        return already(repeat)
    except (Refusal, *refusing) as refusal:
        return refused(refusal)
    return done(result)


def status_of(refusal: Exception) -> int:
    """The status a refusal is answered with: its own, else 400 (an engine's ``IllegalAction``)."""
    return refusal.status if isinstance(refusal, Refusal) else 400


def said(refusal: Exception) -> str:
    """A refusal's sentence in the request's language. A ``Refusal`` is a sentence already (a service says it
    when it raises); an engine's ``IllegalAction`` carries its English template and values and says them in a
    language it is given (``say``: the engines import no Django, tabletop/engines/words.py)."""
    say = getattr(refusal, "say", None)
    return say(gettext) if callable(say) else str(refusal)


def form_sentence(form) -> str:
    """A form's errors as one sentence."""
    if isinstance(form, SentenceErrors):
        return form.error_sentence()
    sentence = " ".join(str(error) for errors in form.errors.values() for error in errors)
    return sentence or _("Please check the form.")


def flash(request: HttpRequest, level: int, sentence: str, *to, **kwargs) -> HttpResponse:
    """The answer of most forms: ``sentence`` as a message, then the page ``redirect(*to, **kwargs)`` names."""
    messages.add_message(request, level, sentence)
    return redirect(*to, **kwargs)


def on_the_form(form, page: Callable[[], HttpResponse], field: str | None = None) -> Answer:
    """The ``refused`` of a form shown again: the refusal's sentence on top of the form (under ``field`` where
    the sentence is about that one field), then ``page()``."""

    def refused(refusal: Exception) -> HttpResponse:
        form.add_error(field, said(refusal))
        return page()

    return refused
