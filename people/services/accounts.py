"""One's own account: the name others see, and the password.

The name others see is ``User.first_name`` (``Membership.display_name`` falls back to the user's full
name when the member has no character name, and the activity log names an actor the same way). The
whole name goes in ``first_name`` and ``last_name`` is emptied, so the name shown is exactly the one
typed, not "typed name + an old surname" set once in the admin.

A new password signs out the account's other sessions: Django's session check compares each
session's stored hash of the password with the current one (``SessionAuthenticationMiddleware``
behaviour, built into ``get_user``), so changing it ends every session the view does not renew with
``update_session_auth_hash``.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from . import PeopleError

DISPLAY_NAME_MAX = 150  # auth_user.first_name's column


def display_name_problem(name: str) -> str | None:
    """Why ``name`` (already stripped) cannot be a display name, or None. Shared by the form and the service."""
    if not name:
        return _("Type the name others should see.")
    if len(name) > DISPLAY_NAME_MAX:
        return _("A name is at most %(max)s characters.") % {"max": DISPLAY_NAME_MAX}
    if any(unicodedata.category(char) in {"Cc", "Cf", "Co", "Cs", "Zl", "Zp"} for char in name):
        return _("A name cannot hold control or invisible characters.")
    return None


@transaction.atomic
def account_rename(*, user: AbstractBaseUser, display_name: str) -> AbstractBaseUser:
    """Set the name others see to ``display_name`` (stripped); refuse an empty, long or unprintable one."""
    name = (display_name or "").strip()
    problem = display_name_problem(name)
    if problem:
        raise PeopleError(problem)
    user.first_name, user.last_name = name, ""
    user.save(update_fields=["first_name", "last_name"])
    return user


@transaction.atomic
def account_password_change(*, user: AbstractBaseUser, new_password: str) -> AbstractBaseUser:
    """Give ``user`` the password ``new_password`` if the password validators accept it. The caller
    keeps its own session (``update_session_auth_hash``); every other session of the account ends."""
    try:
        password_validation.validate_password(new_password, user)
    except ValidationError as invalid:
        raise PeopleError(" ".join(invalid.messages)) from invalid
    user.set_password(new_password)
    user.save(update_fields=["password"])
    return user
