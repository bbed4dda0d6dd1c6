"""The real round trip: a campaign exported from PostgreSQL, imported by ``manage.py campaign_import`` into
a fresh SQLite file in another process, its members' claims used there, exported there again, and that
archive imported back into PostgreSQL, claimed and exported once more: the three archives hold the same
campaign, but for the acts an import pins on nobody (``CLAIMED``) and the claimants' own "joined" lines."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from archive.compare import archives_differences

from tests.archive._helpers import CLAIMED, use_claims, without_joins

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
USERS = ("from django.contrib.auth.models import User\n"
         "for name in ('gm', 'ann', 'ben'): User.objects.create(username=name)")
# each member the archive names uses their claim there, as they would on the join page
CLAIMS = ("from django.contrib.auth.models import User\n"
          "from people.models import Claim\n"
          "from people.services.invites import invite_accept\n"
          "for claim in Claim.objects.select_related('invite'):\n"
          "    invite_accept(token=claim.invite.token, user=User.objects.get(username=claim.username))")


def manage(*args: str, database: Path) -> str:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    env.pop("REDIS_URL", None)  # the other side runs alone: no worker, no shared cache
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_postgresql_to_a_fresh_sqlite_file_and_back(full_campaign, exported, imported, archives, tmp_path):
    first = exported(full_campaign.campaign)
    (tmp_path / "first.gz").write_bytes(first)
    database = tmp_path / "fresh.sqlite3"
    manage("migrate", "--noinput", database=database)
    manage("shell", "-c", USERS, database=database)  # the members have accounts there (no password travels)
    out = manage("campaign_import", str(tmp_path / "first.gz"), "--as", "gm", database=database)
    assert "as the campaign 'siege'" in out
    manage("shell", "-c", CLAIMS, database=database)
    manage("campaign_export", "siege", "-o", str(tmp_path / "again.gz"), database=database)
    again = archives.rewrite((tmp_path / "again.gz").read_bytes(), without_joins)
    assert archives_differences(io.BytesIO(first), io.BytesIO(again), ignore=CLAIMED) == []
    copy = imported(again, full_campaign.gm.user)  # SQLite's archive, into PostgreSQL
    use_claims(copy)
    back = archives.rewrite(exported(copy), without_joins)
    assert archives_differences(io.BytesIO(first), io.BytesIO(back), ignore=CLAIMED) == []
