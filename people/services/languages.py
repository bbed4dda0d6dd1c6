"""The language an account reads Muster in (issue 41): chosen among the languages offered
(``muster.languages.offered``), or the browser's again (an empty choice)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from muster import languages

from ..models import AccountLanguage
from . import PeopleError


def account_language(user) -> str:
    """The account's choice, "" for none (the browser's language)."""
    return AccountLanguage.objects.filter(user=user).values_list("language", flat=True).first() or ""


@transaction.atomic
def account_language_set(*, user, language: str) -> str:
    """Keep ``language`` as the account's (``""``: none, follow the browser). Returns the language the
    account now reads (its choice, or the site's default when it chose none)."""
    if not language:
        AccountLanguage.objects.filter(user=user).delete()
        return ""
    if language not in languages.offered_codes():
        raise PeopleError(_("Muster does not speak that language yet: choose one of the list."))
    AccountLanguage.objects.update_or_create(user=user, defaults={"language": language})
    return language
