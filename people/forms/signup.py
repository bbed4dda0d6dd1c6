"""The sign-up form (through an invite, or open where the instance allows): a user name that is not a
look-alike of another (``names.py``), the name others see, and the password twice.

It carries a one-time token (``OnceForm``) and caps every text as the service does (``services/signup.py``).
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.submissions import OnceForm

from ..names import name_problem
from ..services.signup import MAX_DISPLAY_NAME, MAX_PASSWORD

User = get_user_model()


class SignupForm(OnceForm):
    username = forms.CharField(
        max_length=150, label=gettext_lazy("User name"),
        help_text=gettext_lazy("To log in with: letters, digits and @ . + - _"),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}),
    )
    display_name = forms.CharField(
        max_length=MAX_DISPLAY_NAME, label=gettext_lazy("The name others see"),
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    password1 = forms.CharField(
        max_length=MAX_PASSWORD, strip=False, label=gettext_lazy("Password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        max_length=MAX_PASSWORD, strip=False, label=gettext_lazy("The password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        username = User.normalize_username(self.cleaned_data["username"].strip())
        try:
            User.username_validator(username)
        except forms.ValidationError:
            raise forms.ValidationError(_("Letters, digits and @ . + - _ only (no spaces).")) from None
        problem = name_problem(username)
        if problem:
            raise forms.ValidationError(problem)
        return username

    def clean(self):
        cleaned = super().clean()
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        return cleaned
