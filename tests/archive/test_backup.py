"""Backups (archive/backup.py, issue 24): a copy taken while the server writes restores every committed row.

The restore tests copy a real SQLite file in WAL mode, as ``make run`` serves it (muster/settings.py),
that another process keeps writing to: the test database itself is in memory (or PostgreSQL), so
``backup_run`` is pointed at that file with ``database=``. The campaign archives come from the test
database, as they would from the server's.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
from celery import current_app
from django.core.management import CommandError, call_command
from django.db import connection

from archive import backup
from archive.backup import (
    ARCHIVE_SUFFIX,
    CAMPAIGNS_DIR,
    DATABASE_FILE,
    MANIFEST_FILE,
    PARTIAL_PREFIX,
    POSTGRES_REFUSAL,
    BackupError,
    backup_manifest,
    backup_run,
    backups_complete,
)
from archive.tasks import DAILY_BACKUP

from tests.archive._helpers import place_of, use_claims
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

# The writer: one transaction per entry, adding it and its amount to a running total, as fast as it can,
# until it is stopped; in WAL mode with synchronous=NORMAL, like the server.
WRITER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], timeout=20, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=NORMAL")
amount = 0
while True:
    amount = amount % 97 + 1
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO entry (amount, written_at, padding) VALUES (?, ?, randomblob(1500))", (amount, time.time()))
    db.execute("UPDATE total SET amount = amount + ?, entries = entries + 1", (amount,))
    db.execute("COMMIT")
"""
# Enough pages that the copy takes a while (the writer commits meanwhile), small enough for a shared machine.
PADDING_ROWS = 8000


def _live_database(path: Path) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL, written_at REAL, padding BLOB)")
    db.execute("CREATE TABLE total (amount INTEGER NOT NULL, entries INTEGER NOT NULL)")
    db.execute("INSERT INTO total VALUES (0, 0)")
    db.execute("CREATE TABLE ballast (id INTEGER PRIMARY KEY, padding BLOB)")
    db.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
        "INSERT INTO ballast (padding) SELECT randomblob(2000) FROM n",
        [PADDING_ROWS],
    )
    db.close()


def _committed(path: Path) -> int:
    """The newest committed entry's id, read by a connection of its own."""
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT coalesce(max(id), 0) FROM entry").fetchone()[0]
    finally:
        db.close()


@pytest.fixture
def root(tmp_path):
    """Where the backups go."""
    path = tmp_path / "backups"
    path.mkdir()
    return path


@pytest.fixture
def live_database(tmp_path):
    path = tmp_path / "live.sqlite3"
    _live_database(path)
    return path


@pytest.fixture
def writer(live_database):
    """Another process committing entries to the live database until the test ends."""
    process = subprocess.Popen([sys.executable, "-c", WRITER, str(live_database)])
    deadline = time.monotonic() + 30
    while _committed(live_database) < 50:
        assert process.poll() is None, "the writer stopped"
        assert time.monotonic() < deadline, "the writer committed nothing"
        time.sleep(0.05)
    yield process
    process.kill()
    process.wait()


def _open_copy(folder: Path) -> sqlite3.Connection:
    """Restore = open the backup's file (read only, so the test changes nothing in it)."""
    return sqlite3.connect(f"file:{folder / DATABASE_FILE}?mode=ro", uri=True)


def test_a_backup_taken_during_writes_restores_every_committed_row(root, live_database, writer, monkeypatch):
    copying = {}
    real_copy = backup.sqlite_backup

    def timed_copy(source, target):
        copying["from"] = time.time()
        real_copy(source, target)
        copying["to"] = time.time()

    monkeypatch.setattr(backup, "sqlite_backup", timed_copy)
    committed_before = _committed(live_database)

    folder = backup_run(root, keep=3, database=live_database)

    assert writer.poll() is None  # the writer never waited long enough to give up
    live = sqlite3.connect(live_database)
    written_while_copying = live.execute(
        "SELECT count(*) FROM entry WHERE written_at BETWEEN ? AND ?", [copying["from"], copying["to"]]
    ).fetchone()[0]
    live.close()
    assert written_while_copying > 0, "the writer committed nothing while the copy was made"

    restored = _open_copy(folder)
    assert restored.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    ids = [row[0] for row in restored.execute("SELECT id FROM entry ORDER BY id")]
    assert ids[:committed_before] == list(range(1, committed_before + 1))  # every row committed before it began
    assert ids == list(range(1, len(ids) + 1))  # and the copy is one instant: no commit half there
    amount, entries = restored.execute("SELECT amount, entries FROM total").fetchone()
    assert (amount, entries) == restored.execute("SELECT sum(amount), count(*) FROM entry").fetchone()
    assert restored.execute("SELECT count(*) FROM ballast").fetchone() == (PADDING_ROWS,)
    assert restored.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one self-contained file
    restored.close()


def test_commits_not_yet_checkpointed_are_in_the_copy(root, live_database):
    """The newest commits live in the -wal file until a checkpoint: a copy of db.sqlite3 alone would lack them."""
    server = sqlite3.connect(live_database, isolation_level=None)
    server.execute("PRAGMA wal_autocheckpoint=0")
    for amount in range(1, 11):
        server.execute("BEGIN IMMEDIATE")
        server.execute("INSERT INTO entry (amount) VALUES (?)", [amount])
        server.execute("UPDATE total SET amount = amount + ?, entries = entries + 1", [amount])
        server.execute("COMMIT")
    file_copy = live_database.with_name("file-copy.sqlite3")
    file_copy.write_bytes(live_database.read_bytes())
    main_file_alone = sqlite3.connect(file_copy)
    assert main_file_alone.execute("SELECT count(*) FROM entry").fetchone() == (0,)  # all ten are in the -wal
    main_file_alone.close()

    folder = backup_run(root, keep=3, database=live_database)
    server.close()

    restored = _open_copy(folder)
    assert restored.execute("SELECT count(*), sum(amount) FROM entry").fetchone() == (10, 55)
    assert restored.execute("SELECT amount, entries FROM total").fetchone() == (55, 10)
    restored.close()


def test_a_write_in_progress_is_neither_waited_for_nor_copied(root, live_database):
    holder = sqlite3.connect(live_database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO entry (amount) VALUES (1000)")
    holder.execute("UPDATE total SET amount = amount + 1000, entries = entries + 1")

    # were the copy to wait for the writer, it would wait for ever (this very thread holds the write
    # lock) and fail with "database is locked" after the busy timeout
    folder = backup_run(root, keep=3, database=live_database)
    holder.execute("COMMIT")
    holder.close()

    restored = _open_copy(folder)
    assert restored.execute("SELECT count(*) FROM entry").fetchone() == (0,)
    assert restored.execute("SELECT amount, entries FROM total").fetchone() == (0, 0)
    restored.close()
    assert _committed(live_database) == 1


def test_the_manifest_says_when_each_part_was_taken(root, live_database):
    """The database copy and each archive are read at their own instants (a GM may act in between):
    the manifest gives each part's own time, in order, and says so."""
    CampaignFactory(slug="siege"), CampaignFactory(slug="marsh")

    manifest = backup_manifest(backup_run(root, keep=3, database=live_database))

    taken = [datetime.fromisoformat(manifest["database"]["taken_at"])]
    taken += [datetime.fromisoformat(campaign["taken_at"]) for campaign in manifest["campaigns"]]
    assert len(taken) == 3
    assert all(moment.tzinfo is not None for moment in taken)
    assert taken == sorted(taken) and taken[0] >= datetime.fromisoformat(manifest["made_at"]).replace(microsecond=0)
    assert "own time" in manifest["parts"]


def test_the_manifest_names_every_file_with_its_size_and_digest(root, live_database):
    siege, marsh = CampaignFactory(slug="siege"), CampaignFactory(slug="marsh")

    folder = backup_run(root, keep=3, database=live_database)

    manifest = backup_manifest(folder)
    assert manifest["format"] == "muster-backup"
    assert manifest["database"]["copied"] is True
    assert manifest["warnings"] == []
    assert [c["slug"] for c in manifest["campaigns"]] == ["siege", "marsh"]
    names = {entry["name"] for entry in manifest["files"]}
    on_disk = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    assert on_disk == names | {MANIFEST_FILE}
    assert names == {DATABASE_FILE, f"{CAMPAIGNS_DIR}/siege{ARCHIVE_SUFFIX}", f"{CAMPAIGNS_DIR}/marsh{ARCHIVE_SUFFIX}"}
    for entry in manifest["files"]:
        data = (folder / entry["name"]).read_bytes()
        assert entry["bytes"] == len(data)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    for campaign in (siege, marsh):  # each archive is the campaign's own
        with gzip.open(folder / CAMPAIGNS_DIR / f"{campaign.slug}{ARCHIVE_SUFFIX}", "rt", encoding="utf-8") as archive:
            header = json.loads(archive.readline())
        assert header["campaign"] == campaign.slug


def test_pruning_keeps_the_newest_and_leaves_other_files_alone(root, live_database):
    (root / "notes.txt").write_text("the GM's own notes")
    (root / "old-stuff").mkdir()
    made = [backup_run(root, keep=2, database=live_database) for _ in range(4)]

    assert backups_complete(root) == made[-2:]
    assert sorted(p.name for p in root.iterdir() if not p.name.startswith(".")) == sorted(
        [made[-2].name, made[-1].name, "notes.txt", "old-stuff"]
    )
    assert len({p.name for p in made}) == 4  # two in the same second are told apart, in order


def test_a_crash_mid_backup_leaves_no_folder_that_looks_complete(root, live_database, monkeypatch):
    CampaignFactory(slug="siege")
    good = backup_run(root, keep=1, database=live_database)

    def crash(campaign, fileobj):
        fileobj.write(b"half an archive")
        raise KeyboardInterrupt  # what a Ctrl-C or a stopped worker raises mid-way

    monkeypatch.setattr(backup, "campaign_export", crash)
    with pytest.raises(KeyboardInterrupt):
        backup_run(root, keep=1, database=live_database)

    assert [p.name for p in root.iterdir() if not p.name.startswith(".")] == [good.name]
    assert not list(root.glob(f"{PARTIAL_PREFIX}*"))
    assert backups_complete(root) == [good]  # nothing pruned on the way down

    # a run killed outright leaves its hidden partial folder: never a backup, removed by the next run
    monkeypatch.undo()
    killed = root / f"{PARTIAL_PREFIX}2020-01-01_000000"
    (killed / CAMPAIGNS_DIR).mkdir(parents=True)
    (killed / DATABASE_FILE).write_bytes(b"half a database")
    assert backups_complete(root) == [good]
    newest = backup_run(root, keep=1, database=live_database)
    assert not killed.exists()
    assert backups_complete(root) == [newest]


def test_a_campaign_that_cannot_be_archived_does_not_cost_the_others_theirs(root, live_database, monkeypatch):
    CampaignFactory(slug="siege"), CampaignFactory(slug="broken")
    real_export = backup.campaign_export

    def export(campaign, fileobj):
        if campaign.slug == "broken":
            raise ValueError("a row the archive cannot hold")
        return real_export(campaign, fileobj)

    monkeypatch.setattr(backup, "campaign_export", export)
    folder = backup_run(root, keep=3, database=live_database)

    manifest = backup_manifest(folder)
    assert [c["slug"] for c in manifest["campaigns"]] == ["siege"]
    assert not (folder / CAMPAIGNS_DIR / f"broken{ARCHIVE_SUFFIX}").exists()
    assert len(manifest["warnings"]) == 1 and "broken" in manifest["warnings"][0]


def test_a_campaign_whose_claims_wait_is_restored_with_them(full_campaign, root, live_database, exported, imported):
    """An imported campaign nobody has claimed a place in yet: its archive in the backup gives every member their
    place back (the claims travel as the members they stand for, archive/sections/people.py)."""
    world = full_campaign
    copy = imported(exported(world.campaign), world.gm.user)
    folder = backup_run(root, keep=1, database=live_database)

    restored = imported((folder / CAMPAIGNS_DIR / f"{copy.slug}{ARCHIVE_SUFFIX}").read_bytes(), world.gm.user)
    assert sorted(restored.import_claims) == ["ann", "ben"]
    use_claims(restored)
    assert place_of(restored) == place_of(world.campaign)
    assert place_of(restored)["accounts"] >= {("Ann's purse", "ann"), ("Ben's purse", "ben")}


def test_the_command_writes_a_backup_of_the_served_database(root, capsys):
    CampaignFactory(slug="siege")

    call_command("backup", "--dir", str(root), "--keep", "2")

    (folder,) = backups_complete(root)
    manifest = backup_manifest(folder)
    assert manifest["campaigns"][0]["slug"] == "siege"
    out, err = capsys.readouterr()
    assert f"Backup written to {folder}" in out
    # the test database is in memory (SQLite) or PostgreSQL: the command says why nothing was copied
    assert manifest["database"]["copied"] is False
    assert manifest["database"]["reason"] in err
    if connection.vendor == "postgresql":
        assert manifest["database"]["reason"] == POSTGRES_REFUSAL and "pg_dump" in err


def test_the_command_refuses_with_a_sentence(root, monkeypatch):
    with pytest.raises(CommandError, match="keep must be at least 1"):
        call_command("backup", "--dir", str(root), "--keep", "0")
    monkeypatch.setattr(backup, "campaign_export", lambda campaign, fileobj: 1 / 0)
    CampaignFactory(slug="siege")
    with pytest.raises(CommandError, match="siege"):
        call_command("backup", "--dir", str(root))
    assert len(backups_complete(root)) == 1  # written all the same, with its warning


def test_another_run_in_progress_is_refused(root, live_database):
    with backup._run_lock(root), pytest.raises(BackupError, match="Another backup"):
        backup_run(root, keep=2, database=live_database)


def test_beat_runs_the_backup_daily(root, settings):
    entry = settings.CELERY_BEAT_SCHEDULE["archive: daily backup"]
    assert entry["task"] == DAILY_BACKUP
    assert entry["schedule"].hour == {int(settings.BACKUP_HOUR)} and entry["schedule"].minute == {0}
    settings.BACKUP_DIR = root
    settings.BACKUP_KEEP = 1

    result = current_app.tasks[DAILY_BACKUP].delay().get()  # in-process without REDIS_URL

    assert result == {"folder": str(backups_complete(root)[0]), "warnings": []}
