"""A language added and translated in the browser (issue 41): staff add French on /languages/, open it in
rosetta, translate one phrase and save; a French browser then reads that phrase on a page, and the phrases
nobody translated yet in English, with no restart and no build."""

from __future__ import annotations

import pytest
from django.urls import reverse

from muster import languages

from tests.browser import TABLET, chromium, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHRASE = "Add a language"  # the heading of /languages/ itself
FRENCH = "Ajouter une langue"


def test_staff_add_french_translate_a_phrase_and_a_french_browser_reads_it(live_server, world, tmp_path, settings):
    settings.LOCALE_PATHS = [tmp_path]  # this test's catalogs alone; German ships in locale/ (SHIPPED)
    languages._catalogs.checked = 0.0
    languages._forget_translations()
    try:
        with chromium() as browser:
            staff = log_in(browser, live_server, "staff", TABLET)
            staff.goto(live_server.url + reverse("people:languages"))
            staff.select_option("select[name=language]", "fr")
            staff.get_by_role("button", name="Add the language").click()
            staff.wait_for_selector("td[lang=fr]")
            assert "fr" in languages.offered_codes()

            staff.get_by_role("link", name="Translate français").click()
            staff.locator("tr", has_text="fr/LC_MESSAGES/django.po").locator("a").first.click()  # rosetta's list
            staff.fill("#searchbar", PHRASE)
            staff.locator("input[name=s]").click()
            row = staff.locator("tr", has=staff.locator("td.original", has_text=PHRASE)).first
            row.locator("textarea").fill(FRENCH)
            staff.locator("input[name=_next]").click()
            staff.wait_for_load_state()

            languages._catalogs.checked = 0.0  # as a second later: every process looks again
            french = log_in(browser, live_server, "staff", {**TABLET, "locale": "fr-FR"})  # a French browser
            french.goto(live_server.url + reverse("people:languages"))
            assert french.locator("html").get_attribute("lang") == "fr"
            assert french.get_by_role("heading", name=FRENCH).count() == 1
            assert french.get_by_role("heading", name=PHRASE).count() == 0
            assert french.get_by_role("button", name="Add the language").count() == 1  # not translated: English
    finally:
        languages._forget_translations()
    assert (tmp_path / "fr" / "LC_MESSAGES" / "django.mo").exists()
