"""The real round trip: a campaign exported from PostgreSQL, imported by ``manage.py campaign_import`` into
a fresh SQLite file in another process, exported there again, and that archive imported back into
PostgreSQL and exported once more: the three archives hold the same campaign."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from archive.compare import archives_differences

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
USERS = ("from django.contrib.auth.models import User\n"
         "for name in ('gm', 'ann', 'ben'): User.objects.create(username=name)")


def manage(*args: str, database: Path) -> str:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    env.pop("REDIS_URL", None)  # the other side runs alone: no worker, no shared cache
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_postgresql_to_a_fresh_sqlite_file_and_back(full_campaign, exported, imported, tmp_path):
    first = exported(full_campaign.campaign)
    (tmp_path / "first.gz").write_bytes(first)
    database = tmp_path / "fresh.sqlite3"
    manage("migrate", "--noinput", database=database)
    manage("shell", "-c", USERS, database=database)  # the members have accounts there (no password travels)
    out = manage("campaign_import", str(tmp_path / "first.gz"), "--as", "gm", database=database)
    assert "as the campaign 'siege'" in out
    manage("campaign_export", "siege", "-o", str(tmp_path / "again.gz"), database=database)
    again = (tmp_path / "again.gz").read_bytes()
    assert archives_differences(io.BytesIO(first), io.BytesIO(again)) == []
    back = exported(imported(again, full_campaign.gm.user))  # SQLite's archive, into PostgreSQL
    assert archives_differences(io.BytesIO(first), io.BytesIO(back)) == []
