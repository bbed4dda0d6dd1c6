"""A test's own compiled catalog (issue 41): a few English messages with stand-in translations, read by Django
as a language's catalog for that test alone (not locale/'s, nor another test's)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import polib

from muster import languages


def catalog_in_use(request, root, code: str, entries: dict[str, str]) -> None:
    """Compile ``entries`` (English: translation) as ``code``'s catalog under ``root`` and make it the only
    one this test reads; the catalogs read are forgotten again after the test."""
    folder = root / code / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": code}
    for english, translated in entries.items():
        catalog.append(polib.POEntry(msgid=english, msgstr=translated))
    catalog.save_as_mofile(str(folder / "django.mo"))
    request.getfixturevalue("settings").LOCALE_PATHS = [root]
    request.getfixturevalue("monkeypatch").setattr(languages, "_catalogs", languages._Catalogs())
    languages._forget_translations()
    request.addfinalizer(languages._forget_translations)


PHRASE = "A phrase only the tests mark"


def write_catalog(root: Path, code: str, entries: dict[str, str], mtime: float | None = None,
                  domain: str = "django") -> Path:
    """A compiled catalog of ``domain`` for ``code`` under ``root``: {phrase: its translation}."""
    folder = root / code / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": code}
    for msgid, msgstr in entries.items():
        catalog.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    catalog.save(str(folder / f"{domain}.po"))
    catalog.save_as_mofile(str(folder / f"{domain}.mo"))
    if mtime is not None:
        os.utime(folder / f"{domain}.mo", (mtime, mtime))
    return folder / f"{domain}.mo"


def rosetta_field(entry: polib.POEntry) -> str:
    """The form field rosetta names a phrase by (rosetta/views.py: md5 of msgid, msgstr and context)."""
    return "m_" + hashlib.md5((entry.msgid + entry.msgstr + (entry.msgctxt or "")).encode()).hexdigest()
