"""The translation catalogs are current (issue 41): every phrase the code marks is in every language's
catalog with its translation (none missing, none empty, none fuzzy, none left over), each translation keeps
its phrase's placeholders, and the compiled catalogs `make run` serves are the catalogs as written.

The phrases are extracted as `make messages` extracts them (scripts/messages.py, in a copy of the tree:
nothing here is written), so a phrase marked without its translation fails here, with its name."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from muster import languages

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LEFT_OUT = shutil.ignore_patterns(".git", ".venv", "venv", "staticfiles", "backups", "node_modules", ".ruff_cache",
                                  "__pycache__", "*.sqlite3", ".secret_key", ".demo_logins", "incoming")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]")
CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def translated(entry: polib.POEntry) -> bool:
    forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
    return bool(forms) and all(forms) and "fuzzy" not in entry.flags


def key(entry: polib.POEntry) -> tuple:
    return entry.msgctxt, entry.msgid, entry.msgid_plural or ""


def name(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt + ': ' if entry.msgctxt else ''}{entry.msgid!r}"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """The catalogs as `make messages` would write them from the code as it is."""
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        pytest.fail("xgettext and msgmerge are needed (Debian's gettext: `make test` installs it)")
    copy = tmp_path_factory.mktemp("tree") / "muster"
    shutil.copytree(ROOT, copy, ignore=LEFT_OUT)
    subprocess.run([sys.executable, str(copy / "scripts" / "messages.py")], cwd=copy, check=True)
    return copy / "locale"


def test_german_ships():
    assert (LOCALE / "de" / "LC_MESSAGES" / "django.po").exists()
    assert (LOCALE / "de" / "LC_MESSAGES" / "djangojs.po").exists()


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda path: str(path.relative_to(LOCALE)))
def test_every_phrase_marked_is_in_the_catalog_and_nothing_else(catalog, extracted):
    fresh = {key(entry): entry for entry in polib.pofile(str(extracted / catalog.relative_to(LOCALE)))}
    kept = {key(entry): entry for entry in polib.pofile(str(catalog)) if not entry.obsolete}
    missing = sorted(name(fresh[k]) for k in fresh.keys() - kept.keys())
    left_over = sorted(name(kept[k]) for k in kept.keys() - fresh.keys())
    assert (missing, left_over) == ([], []), "run `make messages` and translate what is missing"


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda path: str(path.relative_to(LOCALE)))
def test_every_phrase_is_translated_keeping_its_placeholders(catalog):
    """Translated, not fuzzy; a translation names no value its phrase does not give (a KeyError on the page) and
    has as many unnamed ``%s`` as its phrase. It may name a value twice, or leave one out where the language
    says it otherwise (German "Glück: 37. Perzentil" needs no English ordinal)."""
    entries = [entry for entry in polib.pofile(str(catalog)) if not entry.obsolete]
    assert [name(entry) for entry in entries if not translated(entry)] == []
    wrong = []
    for entry in entries:
        wanted = PLACEHOLDER.findall(entry.msgid_plural or entry.msgid)
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            got = PLACEHOLDER.findall(form)
            unknown = {value for value in got if value} - {value for value in wanted if value}
            if unknown or got.count("") != wanted.count(""):
                wrong.append((name(entry), form))
    assert wrong == []


def test_the_placeholder_check_finds_a_value_the_phrase_does_not_give():
    phrase, given = "%(name)s plays %(card)s.", "%(name)s spielt %(karte)s."
    assert set(PLACEHOLDER.findall(given)) - set(PLACEHOLDER.findall(phrase)) == {"karte"}


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda path: str(path.relative_to(LOCALE)))
def test_the_compiled_catalog_is_the_catalog_as_written(catalog):
    mo_path = catalog.with_suffix(".mo")
    assert mo_path.exists(), "run `make messages` (or scripts/messages.py --compile)"
    compiled = {key(entry): (entry.msgstr, dict(entry.msgstr_plural)) for entry in polib.mofile(str(mo_path))
                if entry.msgid}
    written = {key(entry): (entry.msgstr, {int(k): v for k, v in entry.msgstr_plural.items()})
               for entry in polib.pofile(str(catalog)) if translated(entry) and not entry.obsolete}
    compiled = {k: (msgstr, {int(n): form for n, form in plural.items()}) for k, (msgstr, plural) in compiled.items()}
    assert compiled == written


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda path: str(path.relative_to(LOCALE)))
def test_no_shipped_translation_is_one_rosetta_would_save_fuzzy(catalog):
    """The check a translation saved in the browser goes through (``muster.languages.unsayable``) passes every
    shipped one: it refuses only what would fail, or say garbage, where its phrase is said."""
    entries = [entry for entry in polib.pofile(str(catalog)) if not entry.obsolete]
    assert [name(entry) for entry in entries if languages.unsayable(entry)] == []
