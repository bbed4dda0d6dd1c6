"""The owner's link's form (``services/owner.py``): the laptop's owner makes their own account with it."""

from __future__ import annotations

from django import forms

from .signup import SignupForm


class OwnerAccountForm(SignupForm):
    """The owner's link's form (people/services/owner.py): a sign-up, and whether the account is staff."""

    staff = forms.BooleanField(
        required=False, label="Also staff: I look after the card catalogs",
        help_text="Staff edit the card catalogs in the Django admin (/admin/), which also shows every account.",
    )
