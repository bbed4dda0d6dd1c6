"""Backups of the venue laptop (issue 24): ``manage.py backup``, ``make backup`` and beat's daily task.

``backup_run(root, keep)`` writes one dated folder, ``root/YYYY-MM-DD_HHMMSS/`` (UTC, so the names
sort in the order the backups were made whatever the clocks do in the autumn; the manifest has the
local time too), holding:

- ``db.sqlite3``: a consistent copy of the live SQLite database, made while the server runs by
  SQLite's online backup (``sqlite3.Connection.backup``) over a connection of its own to the file.
  A plain file copy is not a backup: the newest commits live in ``db.sqlite3-wal`` until a
  checkpoint, and a copy taken during a write can be torn. The backup reads in one transaction, so
  the copy is the database as it was at one instant (in WAL mode the server's writers go on
  meanwhile). The copy is switched to a rollback journal, so it is one self-contained file.
  On PostgreSQL nothing is copied: the manifest and the command say to use ``pg_dump``.
- ``campaigns/``: one archive per campaign, written by ``archive.export.campaign_export``
  (restored with ``manage.py campaign_import FILE``).
- ``manifest.json``: what was written and when, each file's size and SHA-256, and any warning.

The parts are read one after the other, not from one snapshot: the database copy at one instant,
then each campaign's archive at its own (a GM acting meanwhile lands in the later parts only). So
the manifest gives each part's own time (``database.taken_at``, each campaign's ``taken_at``) and
says so (``parts``): restore the database copy OR the archives, and know which moment each holds.

Everything is written into a hidden ``.partial-...`` folder that is renamed to its dated name only
once complete (files and folder synced first), so a crash or a kill never leaves a folder that looks
like a whole backup; the next run removes such leftovers. Then the oldest dated folders beyond
``keep`` are removed. A lock file (``root/.lock``) keeps two runs (beat's and a GM's) apart.

docs/operations.md ("Backups") says how to restore each part.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from django.db import connections
from django.utils.translation import gettext, gettext_noop

from campaign.models import Campaign

from .discard import import_sweep
from .export import campaign_export
from .names import SUFFIX as ARCHIVE_SUFFIX

logger = logging.getLogger(__name__)

DATABASE_FILE = "db.sqlite3"
CAMPAIGNS_DIR = "campaigns"
MANIFEST_FILE = "manifest.json"
MANIFEST_VERSION = 1
PARTIAL_PREFIX = ".partial-"
LOCK_FILE = ".lock"
FOLDER_FORMAT = "%Y-%m-%d_%H%M%S"
# A dated folder, with "-2", "-3", ... when two backups fall in the same second.
FOLDER_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2}_\d{6})(?:-(\d+))?$")
SQLITE_BUSY_SECONDS = 20
# kept in English in the manifest; the command says them in the server's language
POSTGRES_REFUSAL = gettext_noop(
    "The database is PostgreSQL: manage.py backup does not copy it. "
    "Back it up with pg_dump -Fc (docs/operations.md, Backups); the campaign archives are written all the same."
)
MEMORY_REFUSAL = gettext_noop("The database is in memory: there is no file to copy.")
PARTS_NOTE = (
    "Each part was taken at its own time, one after the other, not from one snapshot: the database copy "
    "at database.taken_at, each campaign archive at its own taken_at. An archive can hold changes made "
    "after the database was copied."
)


class BackupError(Exception):
    """A backup that could not be made at all, with a sentence saying why: ``str()`` in English (a worker's
    log), ``said()`` in the active language (the command's answer)."""

    def __init__(self, message: str, **params: object):
        self.message, self.params = message, params
        super().__init__(message % params)

    def said(self) -> str:
        return gettext(self.message) % self.params


@dataclass
class BackupReport:
    """What one run wrote, becomes manifest.json."""

    made_at: str
    database: dict = field(default_factory=dict)
    files: list[dict] = field(default_factory=list)
    campaigns: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "format": "muster-backup",
            "version": MANIFEST_VERSION,
            "made_at": self.made_at,
            "parts": PARTS_NOTE,
            "database": self.database,
            "campaigns": self.campaigns,
            "files": self.files,
            "warnings": self.warnings,
        }


def backup_run(root: Path, keep: int, *, database: Path | None = None) -> Path:
    """Write a complete dated backup folder under ``root`` and keep only the newest ``keep``; returns it.

    ``database`` is the SQLite file to copy; by default the ``default`` database's own file. On
    PostgreSQL the manifest's ``database`` says why nothing was copied (pg_dump's job) and the campaign
    archives are written all the same. A campaign that cannot be archived is a warning in the manifest
    (and the log); the others are written. Raises ``BackupError`` when no backup can be made.
    """
    if keep < 1:
        raise BackupError(gettext_noop("keep must be at least 1 (the backup just made), not %(keep)s."), keep=keep)
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    import_sweep()  # an interrupted import's half-written campaign goes first (archive/discard.py)
    with _run_lock(root):
        _remove_partials(root)
        now = datetime.now(UTC)
        partial = root / f"{PARTIAL_PREFIX}{now.strftime(FOLDER_FORMAT)}"
        partial.mkdir()
        try:
            report = BackupReport(made_at=now.astimezone().isoformat(timespec="seconds"))
            _copy_database(partial, report, database)
            _export_campaigns(partial, report)
            _write_manifest(partial, report)
            _sync_folder(partial)
            final = _free_name(root, now)
            partial.rename(final)
            _sync_directory(root)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        for warning in report.warnings:
            logger.warning("Backup %s: %s", final.name, warning)
        backups_prune(root, keep=keep)
    return final


def backups_complete(root: Path) -> list[Path]:
    """The complete backup folders under ``root``, oldest first (partial leftovers are not backups)."""
    found = []
    for path in Path(root).iterdir() if Path(root).is_dir() else ():
        match = FOLDER_NAME.match(path.name)
        if match and path.is_dir() and (path / MANIFEST_FILE).is_file():
            found.append(((match.group(1), int(match.group(2) or 1)), path))
    return [path for _key, path in sorted(found)]


def backups_prune(root: Path, *, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` complete backups; returns the removed folders."""
    removed = backups_complete(root)[:-keep] if keep > 0 else []
    for path in removed:
        shutil.rmtree(path)
        logger.info("Backup %s removed (keeping the newest %s)", path.name, keep)
    return removed


def sqlite_backup(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` into the new file ``target`` with SQLite's online backup.

    The source is opened by a connection of its own and only read: the backup copies every page in one
    step, inside one read transaction, so the copy is consistent whatever the server commits meanwhile.
    """
    if not Path(source).is_file():
        raise BackupError(gettext_noop("There is no SQLite database at %(source)s."), source=source)
    reader = sqlite3.connect(str(source), timeout=SQLITE_BUSY_SECONDS)
    try:
        copy = sqlite3.connect(str(target))
        try:
            reader.backup(copy)
            # One self-contained file: a restored copy is switched back to WAL by the server's settings.
            copy.execute("PRAGMA journal_mode=DELETE")
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
        finally:
            copy.close()
    finally:
        reader.close()
    if verdict != "ok":
        raise BackupError(gettext_noop("The copy of %(source)s fails SQLite's integrity check: %(verdict)s"),
                          source=source, verdict=verdict)


def backup_manifest(folder: Path) -> dict:
    """The manifest of a backup folder, as written."""
    return json.loads((Path(folder) / MANIFEST_FILE).read_text(encoding="utf-8"))


def file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _copy_database(folder: Path, report: BackupReport, database: Path | None) -> None:
    if database is None:
        connection = connections["default"]
        if connection.vendor != "sqlite":
            # said once, by whoever runs the backup (the command, the daily task), not logged here as well
            report.database = {"engine": connection.vendor, "copied": False, "reason": POSTGRES_REFUSAL}
            return
        if connection.is_in_memory_db():
            report.database = {"engine": "sqlite", "copied": False, "reason": MEMORY_REFUSAL}
            return
        database = Path(connection.settings_dict["NAME"])
    target = folder / DATABASE_FILE
    taken_at = _moment()
    sqlite_backup(Path(database), target)
    _sync_file(target)
    report.database = {
        "engine": "sqlite",
        "copied": True,
        "source": str(Path(database).resolve()),
        "taken_at": taken_at,
    }
    report.files.append(_file_entry(folder, target, "database"))


def _export_campaigns(folder: Path, report: BackupReport) -> None:
    (folder / CAMPAIGNS_DIR).mkdir()
    for campaign in Campaign.objects.filter(importing_at__isnull=True).order_by("pk"):  # none half-imported
        target = folder / CAMPAIGNS_DIR / f"{campaign.slug}{ARCHIVE_SUFFIX}"
        taken_at = _moment()
        try:
            with open(target, "wb") as file:
                summary = campaign_export(campaign, file)
        except Exception as failure:  # one campaign that cannot be exported must not cost the others theirs
            target.unlink(missing_ok=True)
            report.warnings.append(f"Campaign {campaign.pk} ({campaign.slug}) was not archived: {failure}")
            logger.exception("Backup: campaign %s could not be archived", campaign.pk)
            continue
        _sync_file(target)
        report.campaigns.append(
            {"id": campaign.pk, "slug": campaign.slug, "taken_at": taken_at, "summary": summary.as_dict()}
        )
        report.files.append(_file_entry(folder, target, "campaign"))


def _moment() -> str:
    """Now, in local time with its offset, to the millisecond (two parts can fall in one second)."""
    return datetime.now(UTC).astimezone().isoformat(timespec="milliseconds")


def _write_manifest(folder: Path, report: BackupReport) -> None:
    target = folder / MANIFEST_FILE
    target.write_text(json.dumps(report.as_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    _sync_file(target)


def _file_entry(folder: Path, path: Path, kind: str) -> dict:
    return {
        "name": path.relative_to(folder).as_posix(),
        "kind": kind,
        "bytes": path.stat().st_size,
        "sha256": file_digest(path),
    }


def _free_name(root: Path, now: datetime) -> Path:
    """The folder's name: its time, numbered after any other of the same second (even a pruned one's
    successor), so that the newest always sorts last."""
    stamp = now.strftime(FOLDER_FORMAT)
    taken = [
        int(match.group(2) or 1)
        for path in root.iterdir()
        if (match := FOLDER_NAME.match(path.name)) and match.group(1) == stamp
    ]
    number = max(taken, default=0) + 1
    return root / (stamp if number == 1 else f"{stamp}-{number}")


def _remove_partials(root: Path) -> None:
    """Remove what a killed run left (only ever under the lock, so no run is writing it)."""
    for path in root.glob(f"{PARTIAL_PREFIX}*"):
        shutil.rmtree(path, ignore_errors=True)
        logger.warning("Backup: removed %s, left by an interrupted run", path.name)


@contextmanager
def _run_lock(root: Path) -> Iterator[None]:
    with open(root / LOCK_FILE, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(gettext_noop("Another backup is being written into %(root)s; try again when it is done."),
                          root=root) from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _sync_file(path: Path) -> None:
    with open(path, "rb") as file:
        os.fsync(file.fileno())


def _sync_folder(path: Path) -> None:
    """Make the folder's entries (new files, a rename) durable before the next step relies on them."""
    for child in path.rglob("*"):
        if child.is_dir():
            _sync_directory(child)
    _sync_directory(path)


def _sync_directory(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
