"""The owner's link's form (``services/owner.py``): the laptop's owner makes their own account with it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .signup import SignupForm


class OwnerAccountForm(SignupForm):
    """The owner's link's form (people/services/owner.py): a sign-up, and whether the account is staff."""

    staff = forms.BooleanField(
        required=False, label=_("Also staff: I look after the card catalogs"),
        help_text=_("Staff edit the card catalogs in the Django admin (/admin/), which also shows every account."),
    )
