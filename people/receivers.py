"""At login, the device takes the account's language (``language_at_login``, issue 41). A translation saved
in rosetta that would fail where its phrase is said is saved fuzzy (``translation_checked``).

Every account keeps the look-alike key of its current user name (people/names.py, ``people.NameKey``),
however it was made or renamed: sign-up, the admin, ``createsuperuser``, the demo loader.

A save that does not touch the user name (a login's ``last_login``) costs nothing; any other save costs
one indexed lookup, and a write only when the name changed. A key another account holds already is
left out (``ignore_conflicts``): staff may make a look-alike in the admin on purpose, and the older
account keeps the key. Sign-up checks that its new account got its key (people/services/signup.py),
which is what refuses a look-alike signing up at the same moment.
"""

from __future__ import annotations

from muster import languages

from .models import NameKey
from .names import name_key
from .services.languages import account_language


def name_key_keep(sender, instance, raw: bool = False, update_fields=None, **kwargs) -> None:
    """``post_save`` of the user model: the account's key follows its user name."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    username = instance.get_username()
    if NameKey.objects.filter(user_id=instance.pk, username=username).exists():
        return
    NameKey.objects.filter(user_id=instance.pk).delete()
    NameKey.objects.bulk_create([NameKey(user_id=instance.pk, username=username, key=name_key(username))],
                                ignore_conflicts=True)


def language_at_login(sender, request, user, **kwargs) -> None:
    """``user_logged_in``: the device takes the account's language from this answer on (issue 41); an
    account that chose none leaves the device's own."""
    chosen = account_language(user) if request is not None else ""
    if chosen:
        request.language_chosen = chosen
        languages.use(request, chosen)


def translation_checked(sender, **kwargs) -> None:
    """rosetta's ``entry_changed`` (``sender``: the phrase's catalog entry, saved right after): a translation
    that would fail where its phrase is said (``languages.unsayable``) is saved fuzzy, so it is not compiled and
    the phrase reads in English; rosetta shows it fuzzy, with its own "Unmatched variables", until it is put
    right. Else a staff member's typo would stop every page that says the phrase."""
    if languages.unsayable(sender) and "fuzzy" not in sender.flags:
        sender.flags.append("fuzzy")
