"""Staff offer a new language and translate it in the browser (issue 41): /languages/ adds it with every
phrase untranslated, rosetta's form saves a translation, and the next page in that language shows it, with
no restart; an untranslated phrase reads in English. Only staff see either page."""

from __future__ import annotations

import polib
import pytest
from django.urls import reverse

from muster import languages

from tests.catalogs import rosetta_field, write_catalog

pytestmark = pytest.mark.django_db
HEADING = "Add a language"  # a phrase of /languages/ itself


@pytest.fixture
def shipped(tmp_path, locale_dir, monkeypatch):
    """The shipped catalogs: German, with the two phrases this test reads."""
    folder = tmp_path / "shipped"
    write_catalog(folder, "de", {HEADING: "Eine Sprache hinzufügen", "Languages": "Sprachen"})
    monkeypatch.setattr(languages, "SHIPPED", folder)
    return locale_dir


def test_staff_add_a_language_translate_a_phrase_in_the_browser_and_it_is_served(client, world, shipped):
    client.force_login(world.staff)
    assert "fr" in dict(languages.addable())
    added = client.post(reverse("people:language_new"), {"language": "fr"})
    assert added.status_code == 302
    assert "fr" in languages.offered_codes() and "fr" not in dict(languages.addable())
    catalog = polib.pofile(str(shipped / "fr" / "LC_MESSAGES" / "django.po"))
    assert {entry.msgid for entry in catalog} == {HEADING, "Languages"}
    assert catalog.metadata["Plural-Forms"].startswith("nplurals=2; plural=(n > 1)")  # French's, from Django
    before = client.get(reverse("people:languages"), HTTP_ACCEPT_LANGUAGE="fr")
    assert before.status_code == 200 and before["Content-Language"] == "fr"
    assert HEADING in before.content.decode()  # untranslated: English, never a blank

    form = reverse("rosetta-form", kwargs={"po_filter": "project", "lang_id": "fr", "idx": 0})
    assert client.get(form).status_code == 200
    heading = next(entry for entry in catalog if entry.msgid == HEADING)
    saved = client.post(form, {rosetta_field(heading): "Ajouter une langue"})
    assert saved.status_code == 302

    languages._catalogs.checked = 0.0  # as a second later
    after = client.get(reverse("people:languages"), HTTP_ACCEPT_LANGUAGE="fr")
    assert after.status_code == 200
    page = after.content.decode()
    assert "Ajouter une langue" in page and HEADING not in page
    assert "Languages" in page  # still untranslated: English


def test_a_language_offered_already_or_unknown_is_refused(client, world, shipped):
    client.force_login(world.staff)
    client.post(reverse("people:language_new"), {"language": "fr"})
    again = client.post(reverse("people:language_new"), {"language": "fr"})
    unknown = client.post(reverse("people:language_new"), {"language": "xx"})
    assert (again.status_code, unknown.status_code) == (400, 400)
    assert languages.offered_codes() == ("en-gb", "fr")


@pytest.mark.parametrize("who", ["ann", "gm", "nobody"])
def test_only_staff_see_the_languages_and_translate(client, world, shipped, who):
    if who != "nobody":
        client.force_login(getattr(world, who).user)
    pages = client.get(reverse("people:languages")), client.post(reverse("people:language_new"), {"language": "fr"})
    rosetta = client.get(reverse("rosetta-file-list", kwargs={"po_filter": "project"}))
    assert [response.status_code for response in pages] == ([302, 302] if who == "nobody" else [404, 404])
    assert rosetta.status_code in (302, 403)
    assert "fr" not in languages.offered_codes()
