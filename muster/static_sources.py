"""Collect static files only when they changed: ``make run`` starts in seconds, not after compressing them all.

``collectstatic`` with the production storage (WhiteNoise's compressed manifest) hashes and compresses every
file each time it runs, about four seconds here, though nothing changed since the last start. ``collect``
runs it only when the sources are not what was collected last: it keeps a fingerprint of every source file
the static finders list (its path, size and modification time) and of the storage, in a file beside
``STATIC_ROOT`` (never inside it, where it would be served), and compares it with the sources now. A file
edited, added or removed, another storage, or a ``STATIC_ROOT`` without its manifest collects again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command

IGNORED = ["CVS", ".*", "*~"]  # collectstatic's default ignore patterns


def fingerprint() -> str:
    """What ``collectstatic`` would collect now, in a line: every source's path, size and mtime, and the storage."""
    entries = set()
    for finder in get_finders():
        for path, storage in finder.list(IGNORED):
            stat = Path(storage.path(path)).stat()
            entries.add(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    digest = hashlib.sha256(str(settings.STORAGES["staticfiles"]["BACKEND"]).encode())
    for entry in sorted(entries):
        digest.update(entry.encode() + b"\n")
    return digest.hexdigest()


def stamp_path() -> Path:
    root = Path(settings.STATIC_ROOT)
    return root.with_name(f"{root.name}.collected")


def collect() -> bool:
    """``collectstatic`` unless ``STATIC_ROOT`` already holds the sources as they are now; True when it ran."""
    now, stamp = fingerprint(), stamp_path()
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.exists() and stamp.exists() and stamp.read_text() == now:
        return False
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(now)
    return True
