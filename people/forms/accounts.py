"""Forms of one's own account (the name others see, the password): each says what is wrong in a sentence;
the service checks the same bounds again (``display_name_problem``, the password validators)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import PasswordChangeForm
from django.utils.translation import gettext_lazy as _

from ..services.accounts import DISPLAY_NAME_MAX, display_name_problem


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(
        label=_("The name others see"),
        max_length=DISPLAY_NAME_MAX,
        help_text=_("Shown on the campaign pages where you have no character name, and in the GM's log."),
        error_messages={"required": _("Type the name others should see.")},
    )

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"]
        problem = display_name_problem(name)
        if problem:
            raise forms.ValidationError(problem)
        return name


class AccountPasswordForm(PasswordChangeForm):
    """Django's own: the current password, then the new one twice, checked by the validators."""
