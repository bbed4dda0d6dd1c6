"""What a terminal prints follows the server's language, settings.LANGUAGE_CODE (issue 41): ``make run``'s
banner and logins, and the commands a GM runs. A terminal has no request, so neither a browser's language nor
one left active by something else decides it. A catalog of this test's own stands in for the German one."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.utils import translation

from .catalogs import catalog_in_use
from .venue_server import load_serve_script

GERMAN = {
    "DEBUG is off. Ctrl-C stops the server.": "DEBUG ist aus. Strg-C hält den Server an.",
    "%(campaigns)s unfinished imports removed, %(jobs)s upload jobs ended.": (
        "%(campaigns)s unfertige Importe entfernt, %(jobs)s Upload-Aufträge beendet."
    ),
}


@pytest.fixture
def german_server(request, tmp_path, settings):
    """A server whose language is German, with a catalog for ``GERMAN`` alone."""
    catalog_in_use(request, tmp_path, "de", GERMAN)
    settings.LANGUAGE_CODE = "de"
    with translation.override("en-gb"):  # what a request left active must not decide
        yield


def test_the_banner_is_in_the_servers_language(german_server):
    serve = load_serve_script()
    venue = serve.venue_from_environment({"MUSTER_HOST": "192.168.1.20", "MUSTER_BIND": "127.0.0.2"})
    banner = serve.banner(venue)
    assert "DEBUG ist aus. Strg-C hält den Server an." in banner
    assert "DEBUG is off" not in banner


@pytest.mark.django_db
def test_a_command_a_gm_runs_answers_in_the_servers_language(german_server):
    out = io.StringIO()
    call_command("campaign_import_sweep", stdout=out)
    assert out.getvalue() == "0 unfertige Importe entfernt, 0 Upload-Aufträge beendet.\n"
