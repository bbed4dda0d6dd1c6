"""Translation catalogs written for a test (issue 41): a language offered by a catalog of the test's own."""

from __future__ import annotations

import os
from pathlib import Path

import polib

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
