"""What every app's forms share: one sentence for a form's errors, and a form pinned to the page it came from.

A write's form carries its one-time token (``OnceForm``, campaign/submissions.py) and, where a change
made meanwhile would be overwritten unseen, a digest of the values its page showed (CONVENTIONS 14b):
the form carries ``values_digest`` of them in a ``ShownDigest`` field, the service recomputes it on the
locked row and refuses a changed one with a ``Stale`` refusal (muster/refusals.py), whose sentence the
page shows with the fresh values. The services import ``values_digest`` from here, so the digest the
page shows and the one the service compares are made by one function.

It lives here, not in an app, so that every app's forms and services can use it without importing
another app's internals; like every helper of ``muster`` it imports no app (tests/test_imports.py), so a
pinned form names its token's base itself: ``class OfferEditForm(PinnedForm, OnceForm)``.
"""

from __future__ import annotations

import hashlib
import json

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext as _


def values_digest(values: dict) -> str:
    """A short digest of the values a form shows: the form carries it, the service compares it (14b)."""
    text = json.dumps(values, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class SentenceErrors:
    """Turn a form's errors into one sentence for a flash message."""

    def error_sentence(self) -> str:
        parts = []
        for field, errors in self.errors.items():
            label = self.fields[field].label if field in self.fields else ""
            # Translators: a form's field and what is wrong with it, in the one sentence of all its errors
            parts.extend(
                _("%(label)s: %(error)s") % {"label": label, "error": error} if label else str(error)
                for error in errors
            )
        return " ".join(parts) or _("Please check the form.")


class _Shown:
    """A hidden field holding what the page showed; a post without it is refused with ``old_page``."""

    def __init__(self, *, old_page: str, **kwargs) -> None:
        kwargs.setdefault("widget", forms.HiddenInput)
        super().__init__(**kwargs)
        self.error_messages = {**self.error_messages, "required": old_page, "invalid": old_page}


class ShownNumber(_Shown, forms.IntegerField):
    """A number the page showed (a price)."""


class ShownDigest(_Shown, forms.CharField):
    """A digest of the values the page showed (``values_digest``)."""


class PinnedForm(SentenceErrors):
    """A form that carries the state its page was made from (CONVENTIONS 14b) in ``Shown*`` fields; put it
    before the form's base (``OnceForm``).

    The service compares it with the locked row and refuses a changed one (a ``Stale`` refusal). A post
    without it comes from a page made before the pin, or by hand: refused with the field's sentence
    asking to reload, as a form-wide error since the field is hidden (only one reload sentence:
    a post whose other hidden field, its one-time token, was refused too says so once, with the token's).
    """

    def _post_clean(self) -> None:
        hidden_refused = any(
            name in self.fields and self.fields[name].widget.is_hidden and not isinstance(self.fields[name], _Shown)
            for name in self._errors
        )
        super()._post_clean()
        errors = self._errors.setdefault(NON_FIELD_ERRORS, self.error_class(error_class="nonfield"))
        for name, field in self.fields.items():
            if isinstance(field, _Shown) and name in self._errors:
                shown_errors = self._errors.pop(name)
                if not hidden_refused:
                    errors.extend(shown_errors)
        if not errors:
            del self._errors[NON_FIELD_ERRORS]
