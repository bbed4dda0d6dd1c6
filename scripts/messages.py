"""The translation catalogs (issue 41): extract every marked string, update each language's catalog,
compile it. ``make messages`` runs it; ``tests/test_catalogs.py`` runs its check.

    .venv/bin/python scripts/messages.py            update locale/<lang>/LC_MESSAGES/django.po and
                                                     djangojs.po for every language, and compile them
    .venv/bin/python scripts/messages.py --compile   compile only (the .mo files are committed, so that
                                                     `make run` serves translations on a fresh clone)
    .venv/bin/python scripts/messages.py --take F.po [G.po ...]
                                                     update, then fill each catalog's untranslated phrases
                                                     from these files (a translator's work done offline, in
                                                     Poedit or any .po editor), then compile

Django's ``makemessages`` reads the Django templates, the Python code and ``static/js/`` (domain
``djangojs``, served by Django's JavaScript catalog); the Jinja2 templates (``templates/jinja2/``) it
cannot read, so their ``_()``, ``gettext()``, ``ngettext()``, ``pgettext()`` calls are found by Jinja2's own
extractor first and written, for ``makemessages`` to find, into a Python file that lives only while it
runs (the catalog names the Jinja2 templates as their places). Places are written without line numbers
(``--add-location=file``) so that moving a line changes no catalog.

Every language whose directory exists in ``locale/`` is updated; English is the source and has none.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import polib
from jinja2.ext import babel_extract

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
JINJA_DIR = ROOT / "templates" / "jinja2"
SHIM_DIR = ROOT / "_jinja_messages"  # makemessages walks the project: the shim must lie inside it
SHIM = SHIM_DIR / "jinja_strings.py"
IGNORE = [".venv", "venv", "staticfiles", "tests", "bench", "node_modules", "backups", "locale", "deploy"]
KEYWORDS = {"_": None, "gettext": None, "ngettext": None, "pgettext": None, "npgettext": None}
DOMAINS = (("django", ["html", "txt", "py"]), ("djangojs", ["js"]))


def languages(locale_dir: Path = LOCALE) -> list[str]:
    return sorted(path.name for path in locale_dir.iterdir() if path.is_dir() and (path / "LC_MESSAGES").is_dir())


def _call(funcname: str, message) -> str:
    """One Python call xgettext reads as ``funcname`` reads it in the template."""
    args = message if isinstance(message, tuple) else (message,)
    args = [a for a in args if a is not None]
    name = {"_": "gettext"}.get(funcname, funcname)
    return f"{name}({', '.join(repr(a) for a in args)})"


def write_jinja_shim(root: Path = ROOT) -> dict[str, set[str]]:
    """The Jinja2 templates' marked strings as a Python file for makemessages; returns {msgid: {places}}."""
    places: dict[str, set[str]] = {}
    lines = ["# Written by scripts/messages.py while it runs; never committed.", "# ruff: noqa"]
    options = {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true", "trimmed": "false"}
    for template in sorted((root / "templates" / "jinja2").rglob("*.jinja")):
        relative = template.relative_to(root).as_posix()
        with template.open("rb") as handle:
            for _lineno, funcname, message, comments in babel_extract(handle, list(KEYWORDS), [], options):
                if funcname not in KEYWORDS:
                    continue
                for comment in comments:
                    lines.append(f"# Translators: {comment}")
                lines.append(_call(funcname, message))
                msgid = message[0] if isinstance(message, tuple) else message
                if funcname in ("pgettext", "npgettext") and isinstance(message, tuple):
                    msgid = message[1]
                places.setdefault(msgid, set()).add(relative)
    shim_dir = root / SHIM_DIR.name
    shim_dir.mkdir(exist_ok=True)
    (shim_dir / SHIM.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return places


def _fix_places(po_path: Path, places: dict[str, set[str]]) -> None:
    """The shim's place in the catalog becomes the Jinja2 templates the string came from."""
    catalog = polib.pofile(str(po_path), wrapwidth=0)
    shim = f"{SHIM_DIR.name}/{SHIM.name}"
    changed = False
    for entry in catalog:
        if any(place == shim for place, _ in entry.occurrences):
            kept = [(place, line) for place, line in entry.occurrences if place != shim]
            entry.occurrences = sorted({*kept, *((place, "") for place in places.get(entry.msgid, ()))})
            changed = True
    if changed:
        catalog.save(str(po_path))


def manage(root: Path, *args: str) -> None:
    env = dict(os.environ, DEBUG="1", DJANGO_SETTINGS_MODULE="muster.settings")
    subprocess.run([sys.executable, str(root / "manage.py"), *args], cwd=root, env=env, check=True)


def update(root: Path = ROOT) -> None:
    """makemessages for every language and domain, with the Jinja2 templates' strings, then compile."""
    places = write_jinja_shim(root)
    try:
        for lang in languages(root / "locale"):
            for domain, extensions in DOMAINS:
                ignore = [f"--ignore={name}" for name in IGNORE]
                if domain == "djangojs":
                    ignore += ["--ignore=templates", "--ignore=static/js/vendor"]
                manage(
                    root, "makemessages", f"--locale={lang}", f"--domain={domain}",
                    *[f"--extension={ext}" for ext in extensions], *ignore,
                    "--no-wrap", "--add-location=file", "--no-obsolete", "--verbosity=0",
                )  # fmt: skip
                po = root / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
                if domain == "django" and po.exists():
                    _fix_places(po, places)
    finally:
        (root / SHIM_DIR.name / SHIM.name).unlink(missing_ok=True)
        if (root / SHIM_DIR.name).exists():
            (root / SHIM_DIR.name).rmdir()
    compile_all(root)


def translated(entry: polib.POEntry) -> bool:
    """A phrase with its translation, every plural form included, and not marked fuzzy (to be checked)."""
    forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
    return bool(forms) and all(forms) and "fuzzy" not in entry.flags


def _key(entry: polib.POEntry) -> tuple[str | None, str, str]:
    return entry.msgctxt, entry.msgid, entry.msgid_plural or ""


def take(files: list[Path], root: Path = ROOT) -> dict[str, int]:
    """Fill the untranslated (or fuzzy) phrases of every catalog of the language each file names (its
    ``Language`` header) from those files; returns {catalog: phrases filled}. A file's phrase the catalog
    does not have (the code no longer marks it) is left out."""
    given: dict[str, dict[tuple, polib.POEntry]] = {}
    for path in files:
        source = polib.pofile(str(path))
        language = source.metadata.get("Language", "")
        if not language:
            raise SystemExit(f"{path}: no Language header: which catalog it fills is unknown")
        for entry in source:
            if (
                (entry.msgstr or any(entry.msgstr_plural.values()))
                and not entry.obsolete
                and "fuzzy" not in entry.flags
            ):
                given.setdefault(language, {})[_key(entry)] = entry
    filled = {}
    for language, entries in given.items():
        for po_path in sorted((root / "locale" / translation_dir(language) / "LC_MESSAGES").glob("*.po")):
            catalog = polib.pofile(str(po_path), wrapwidth=0)
            count = 0
            for entry in catalog:
                found = entries.get(_key(entry))
                if found is None or translated(entry):
                    continue
                entry.msgstr = found.msgstr
                if entry.msgid_plural:
                    entry.msgstr_plural = dict(found.msgstr_plural)
                if "fuzzy" in entry.flags:
                    entry.flags.remove("fuzzy")
                count += 1
            catalog.save(str(po_path))
            filled[str(po_path.relative_to(root))] = count
    return filled


def translation_dir(language: str) -> str:
    """The folder name of a language code (``pt-br``: ``pt_BR``)."""
    code, _, region = language.replace("_", "-").partition("-")
    return f"{code.lower()}_{region.upper()}" if region else code.lower()


def compile_all(root: Path = ROOT) -> None:
    """Each catalog's .mo from its .po (polib: no gettext tools needed to serve a clone)."""
    for po_path in sorted((root / "locale").glob("*/LC_MESSAGES/*.po")):
        polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="compile the catalogs only")
    parser.add_argument("--take", nargs="+", action="extend", type=Path, default=[], help=".po files to fill from")
    args = parser.parse_args()
    if args.compile:
        compile_all()
        return
    update()
    if args.take:
        for catalog, count in take(args.take).items():
            print(f"{catalog}: {count} phrases filled")
        compile_all()


if __name__ == "__main__":
    main()
