"""The reset links' forms: the new password on a reset link's page (checked by the password validators), and
the user name staff make a link for (``services/resets.py``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import SetPasswordForm
from django.utils.translation import gettext_lazy as _


class ResetPasswordForm(SetPasswordForm):
    """The new password twice, on a reset link's page."""


class StaffResetForm(forms.Form):
    username = forms.CharField(
        label=_("User name"),
        max_length=150,
        error_messages={"required": _("Type the user name of the account.")},
    )
