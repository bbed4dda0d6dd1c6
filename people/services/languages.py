"""The language an account reads Muster in (issue 41): chosen among the languages offered
(``muster.languages.offered``), or the browser's again (an empty choice); and the languages staff add, to
translate in the browser (rosetta)."""

from __future__ import annotations

import polib
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


def language_add(*, code: str) -> str:
    """Staff add a language (issue 41): its catalogs written with every phrase untranslated, offered at once
    (each phrase in English until it is translated in the browser). Returns the code."""
    try:
        languages.add(code)
    except ValueError:
        raise PeopleError(_("That language is offered already, or Django does not know it.")) from None
    return code


def language_progress() -> list[dict]:
    """Each language offered but English: its code, its own name and how much of it is translated (every
    catalog of it, the browser's strings included)."""
    rows = []
    for code, name in languages.offered()[1:]:
        phrases = done = 0
        for catalog in languages.catalogs_of(code):
            entries = [entry for entry in polib.pofile(str(catalog)) if not entry.obsolete]
            phrases += len(entries)
            done += sum(1 for entry in entries if entry.translated())
        rows.append(
            {
                "code": code,
                "name": name,
                "phrases": phrases,
                "done": done,
                "percent": round(100 * done / phrases) if phrases else 100,
            }
        )
    return rows
