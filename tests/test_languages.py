"""Which language a person reads, and catalogs saved while the process runs (muster/languages.py, issue 41)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from muster import languages

from tests.catalogs import PHRASE
from tests.catalogs import write_catalog as write


def write_catalog(root, code: str, text: str, mtime: float | None = None):
    return write(root, code, {PHRASE: text}, mtime)


def test_english_alone_is_offered_without_a_catalog(locale_dir):
    assert languages.offered() == [("en-gb", "English")]
    assert languages.choose(accept="fr-FR,fr;q=0.9") == settings.LANGUAGE_CODE


def test_a_language_is_offered_once_its_catalog_is_compiled(locale_dir):
    write_catalog(locale_dir, "fr", "Une phrase")
    assert "fr" in languages.offered_codes()
    assert dict(languages.offered())["fr"] == "français"


@pytest.mark.parametrize(
    ("cookie", "campaign", "accept", "chosen"),
    [
        ("", "", "fr-CA,fr;q=0.9,en;q=0.5", "fr"),  # a regional variant reads the language
        ("", "", "en-US,en;q=0.9", "en-gb"),  # any English is the English there is
        ("", "", "es,it;q=0.5", settings.LANGUAGE_CODE),  # nothing offered: English
        ("", "fr", "en-US", "fr"),  # the campaign's language before the browser's
        ("en-gb", "fr", "fr", "en-gb"),  # the device's own choice before everything
        ("xx", "", "fr", "fr"),  # a cookie naming no offered language chooses nothing
        ("", "", "*", settings.LANGUAGE_CODE),
    ],
)
def test_choose_takes_the_device_then_the_campaign_then_the_browser(locale_dir, cookie, campaign, accept, chosen):
    write_catalog(locale_dir, "fr", "Une phrase")
    assert languages.choose(cookie=cookie, campaign=campaign, accept=accept) == chosen


def test_a_catalog_saved_while_serving_is_read_again(locale_dir):
    """Saved in the browser: the next phrase reads the new file (within RECHECK_S), no restart."""
    write_catalog(locale_dir, "fr", "Première", mtime=1_000_000)
    languages._catalogs.refresh(now=100.0)
    with translation.override("fr"):
        assert gettext(PHRASE) == "Première"
    write_catalog(locale_dir, "fr", "Seconde", mtime=1_000_100)
    languages._catalogs.refresh(now=100.5)  # within a second: not looked at yet
    with translation.override("fr"):
        assert gettext(PHRASE) == "Première"
    languages._catalogs.refresh(now=101.5)
    with translation.override("fr"):
        assert gettext(PHRASE) == "Seconde"


def test_a_socket_reads_its_language_as_its_page_did(locale_dir):
    write_catalog(locale_dir, "fr", "Une phrase")
    scope = {"headers": [(b"cookie", b"sessionid=abc; django_language=fr"), (b"accept-language", b"en-US")]}
    assert languages.of_scope(scope) == "fr"
    assert languages.of_scope({"headers": [(b"accept-language", b"en-US")]}, campaign="fr") == "fr"
    assert languages.of_scope({"headers": [(b"cookie", b"=;;bad\x7f")]}) == settings.LANGUAGE_CODE


@pytest.mark.django_db
def test_every_answer_says_its_language_and_that_it_varies(locale_dir, client):
    write_catalog(locale_dir, "fr", "Une phrase")
    french = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    english = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="es")
    assert (french.status_code, english.status_code) == (200, 200)
    assert (french["Content-Language"], english["Content-Language"]) == ("fr", "en-gb")
    assert '<html lang="fr">' in french.content.decode()
    for response in (french, english):
        assert {"Accept-Language", "Cookie"} <= {v.strip() for v in response["Vary"].split(",")}


@pytest.mark.django_db
def test_the_javascript_catalog_is_the_asking_pages_language(locale_dir, client):
    write_catalog(locale_dir, "fr", "Une phrase")
    write(locale_dir, "fr", {"Sending …": "Envoi …"}, domain="djangojs")
    french = client.get("/jsi18n/?l=fr", HTTP_ACCEPT_LANGUAGE="en")
    english = client.get("/jsi18n/?l=en-gb", HTTP_ACCEPT_LANGUAGE="fr")
    assert (french.status_code, english.status_code) == (200, 200)
    assert "Envoi" in french.content.decode() and "Envoi" not in english.content.decode()
    again = client.get("/jsi18n/?l=fr", HTTP_IF_MODIFIED_SINCE=french["Last-Modified"])
    assert again.status_code == 304


@pytest.mark.django_db
def test_a_request_leaves_its_thread_in_the_sites_language(locale_dir, client):
    write_catalog(locale_dir, "fr", "Une phrase")
    assert client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="fr").status_code == 200
    assert translation.get_language() == settings.LANGUAGE_CODE
    assert gettext(PHRASE) == PHRASE
