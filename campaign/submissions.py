"""One-time submission tokens: every create or state-changing form is applied once.

Like Stripe's ``Idempotency-Key`` (CONVENTIONS 14b). Each rendered form carries a fresh random
token in a hidden field (``SubmissionField``, or ``{% submission_field %}`` for a bare button).
A service decorated with ``@applied_once("kind")`` takes it as ``submission=``; in ONE transaction
it first records the token (a unique ``Submission`` row), then does its write, then notes what
the write made. A repeated token never writes again: the service raises ``AlreadyDone`` carrying
the first result, and the view says so ("Already done: ...") and shows that result.

Concurrent identical posts serialize on the unique key: on PostgreSQL the second insert waits for
the first transaction, then fails (IntegrityError) once it commits, and the second post reads the
first result; on SQLite write transactions take the database lock when they begin, so the second
post starts after the first has committed. A refused write (a domain error) rolls the token back
with everything else: the same form may be corrected and sent again.

Without ``submission=`` (the demo, other services, tests) the service behaves as before; every
view passes the posted token and answers a missing one with ``SubmissionMissing`` (a sentence).
Rulings O1-O2 in docs/rulings.md.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Callable
from typing import Any

from django import forms
from django.apps import apps
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muster.refusals import AlreadyDone, Refusal

from .models import Submission

FIELD = "submission"
TOKEN_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
# Lazy: said in the language of the request that shows it (and compared there, tabletop/forms/tables.py).
MISSING = gettext_lazy(
    "This form is out of date or incomplete (it carries no one-time token): reload the page and send it again."
)


class SubmissionMissing(Refusal):
    """A post without a usable one-time token: nothing was done."""

    def __init__(self, message: str = MISSING) -> None:
        super().__init__(message)


def new_token() -> str:
    return secrets.token_urlsafe(18)


def token_from(data) -> str:
    """The posted token, checked; raises ``SubmissionMissing``."""
    token = (data.get(FIELD) or "").strip() if hasattr(data, "get") else ""
    if not TOKEN_PATTERN.match(token):
        raise SubmissionMissing()
    return token


class SubmissionField(forms.CharField):
    """A hidden field holding a fresh token each time an unbound form is rendered."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("widget", forms.HiddenInput)
        kwargs.setdefault("initial", new_token)
        kwargs.setdefault("error_messages", {"required": MISSING})
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not TOKEN_PATTERN.match(value):
            raise forms.ValidationError(MISSING)
        return value


class OnceForm(forms.Form):
    """Base for every create / state-changing form: adds the hidden one-time token.

    A missing or damaged token is reported as a form-wide error, since its field is hidden.
    """

    submission = SubmissionField()

    def _post_clean(self) -> None:
        super()._post_clean()
        if FIELD in self._errors:
            self._errors.setdefault(NON_FIELD_ERRORS, self.error_class(error_class="nonfield"))
            self._errors[NON_FIELD_ERRORS].extend(self._errors.pop(FIELD))


def _label(instance: models.Model) -> str:
    return instance._meta.label_lower


def _first_result(record: Submission) -> models.Model | None:
    if not record.result_type or record.result_id is None:
        return None
    model = apps.get_model(record.result_type)
    return model._default_manager.filter(pk=record.result_id).first()


def _claim(token: str, kind: str) -> None:
    """Insert the token's row, or raise ``AlreadyDone`` / ``SubmissionMissing`` if it was used."""
    try:
        with transaction.atomic():
            Submission.objects.create(key=token, kind=kind)
            return
    except IntegrityError:
        pass
    record = Submission.objects.filter(key=token).first()
    if record is None:  # the first holder rolled back between our insert and this read: ask for a retry
        raise SubmissionMissing(_("This form was being sent at the same moment; reload the page and check."))
    if record.kind != kind:
        raise SubmissionMissing(_("This form's one-time token was already used for something else: reload the page."))
    raise AlreadyDone(kind, _first_result(record))


def run_once(*, token: str, kind: str, write: Callable[[], Any]) -> Any:
    """Record ``token`` and run ``write`` in one transaction; a repeated token raises ``AlreadyDone``."""
    if not TOKEN_PATTERN.match(token or ""):
        raise SubmissionMissing()
    with transaction.atomic():
        _claim(token, kind)
        result = write()
        if isinstance(result, models.Model) and result.pk is not None:
            Submission.objects.filter(key=token).update(result_type=_label(result), result_id=result.pk)
        return result


def applied_once(kind: str):
    """Decorate a service so that it takes ``submission=<token>`` and applies each token once."""

    def decorate(service):
        @functools.wraps(service)
        def wrapper(*args, submission: str | None = None, **kwargs):
            if submission is None:
                return service(*args, **kwargs)
            return run_once(token=submission, kind=kind, write=lambda: service(*args, **kwargs))

        return wrapper

    return decorate
