"""A translation staff save in rosetta that would fail where its phrase is said (a value its phrase does not give,
an unnamed "%s", a lone "%") is saved fuzzy: not compiled, so the phrase reads in English instead of stopping
every page that says it (people/receivers.py, ``muster.languages.unsayable``; issue 41)."""

from __future__ import annotations

import polib
import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from muster import languages

from tests.catalogs import rosetta_field, write_catalog

pytestmark = pytest.mark.django_db
ABANDONED = "%(title)s was abandoned."
COUNTED = "%(count)s units"


@pytest.fixture
def french(tmp_path, locale_dir, monkeypatch, client, world):
    """French added by staff from a shipped catalog of two phrases that name values."""
    folder = tmp_path / "shipped"
    write_catalog(folder, "de", {ABANDONED: "%(title)s wurde aufgegeben.", COUNTED: "%(count)s Einheiten"})
    monkeypatch.setattr(languages, "SHIPPED", folder)
    client.force_login(world.staff)
    assert client.post(reverse("people:language_new"), {"language": "fr"}).status_code == 302
    return locale_dir / "fr" / "LC_MESSAGES"


def save(client, folder, translations: dict[str, str]):
    catalog = polib.pofile(str(folder / "django.po"))
    fields = {rosetta_field(entry): translations[entry.msgid] for entry in catalog if entry.msgid in translations}
    form = reverse("rosetta-form", kwargs={"po_filter": "project", "lang_id": "fr", "idx": 0})
    assert client.post(form, fields).status_code == 302
    languages._catalogs.checked = 0.0  # as a second later
    return polib.pofile(str(folder / "django.po")), polib.mofile(str(folder / "django.mo"))


@pytest.mark.parametrize("typo", ["%(titre)s a été abandonnée.", "%s a été abandonnée.", "100 % abandonnée"])
def test_a_translation_that_would_fail_is_saved_fuzzy_and_the_phrase_reads_in_english(client, french, typo):
    po, mo = save(client, french, {ABANDONED: typo, COUNTED: "%(count)s unités"})
    entries = {entry.msgid: entry for entry in po}
    assert entries[ABANDONED].msgstr == typo and "fuzzy" in entries[ABANDONED].flags  # kept for staff to fix
    assert "fuzzy" not in entries[COUNTED].flags
    assert {entry.msgid for entry in mo} == {COUNTED}  # the fuzzy one is not compiled
    with translation.override("fr"):
        assert gettext(ABANDONED) % {"title": "Duel"} == "Duel was abandoned."
        assert gettext(COUNTED) % {"count": 3} == "3 unités"


def test_a_right_translation_is_compiled_and_said(client, french):
    po, mo = save(client, french, {ABANDONED: "%(title)s a été abandonnée.", COUNTED: "%(count)s unités"})
    assert not any("fuzzy" in entry.flags for entry in po)
    with translation.override("fr"):
        assert gettext(ABANDONED) % {"title": "Duel"} == "Duel a été abandonnée."


@pytest.mark.parametrize(("msgid", "msgstr", "flags", "unsayable"), [
    (ABANDONED, "%(title)s a été abandonnée.", [], False),
    (ABANDONED, "Abandonnée.", [], False),  # a value left out is no failure
    (ABANDONED, "%(titre)s a été abandonnée.", [], True),
    (ABANDONED, "%(title)d", [], True),  # a number's place for a name
    (ABANDONED, "%(title)s a été abandonnée à 100 %", [], True),  # "% a": the values themselves, said
    (ABANDONED, "%(title)s a été abandonnée à 100 %%", [], False),
    (COUNTED, "%(count)d unités", [], True),  # the phrase's "%(count)s" may be given a word: "d" may fail
    ("%(count)d units", "%(count)d unités", [], False),
    ("No value here", "100 % sûr", [], False),  # never formatted
    ("No value here", "100 % sûr", ["python-format"], True),
    ("All in (100%%)", "Tout (100 %%)", ["python-format"], False),
    ("%s of %s", "%s sur %s", ["python-format"], False),  # values given in order: as many as the phrase's
    ("%s of %s", "%s", ["python-format"], True),
])
def test_unsayable(msgid, msgstr, flags, unsayable):
    assert languages.unsayable(polib.POEntry(msgid=msgid, msgstr=msgstr, flags=flags)) is unsayable


def test_a_plural_form_is_checked_too():
    entry = polib.POEntry(msgid="%(count)s unit", msgid_plural=COUNTED,
                          msgstr_plural={0: "%(count)s unité", 1: "%(nombre)s unités"})
    assert languages.unsayable(entry) is True
    entry.msgstr_plural[1] = "%(count)s unités"
    assert languages.unsayable(entry) is False
