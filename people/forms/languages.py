"""The account's language (issue 41): the languages offered now, each in its own name."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from muster import languages


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [("", _("The browser's language")), *languages.offered()]


class LanguageAddForm(forms.Form):
    """A language Django knows that Muster does not offer yet."""

    language = forms.ChoiceField(label=_("Language to add"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = languages.addable()
