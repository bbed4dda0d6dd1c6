"""The PostgreSQL backup and restore of docs/operations.md, rehearsed (issue 37), as the SQLite one is
(tests/archive/test_backup.py).

On the test cluster (scripts/services.sh: the role ``muster`` owns the test database; the superuser
``postgres`` connects over the unix socket): a campaign with a table is committed to the test database,
deploy/pg_backup.sh dumps it as ``muster``, and the docs' restore procedure ("Restoring PostgreSQL",
read from the docs, each command run as the docs say: ``runuser -u postgres --`` ones as the superuser,
the release's scripts with an env file of their own) restores it for another role, ``muster_app_...``,
neither a superuser nor the dump's owner. Then the app, as that role, reads the campaign and writes.

The restore the docs gave before, ``pg_restore --clean --if-exists --no-owner`` as postgres, is run the
same way and must leave the app "permission denied for table": the check that passes the docs'
procedure is one that can fail.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import secrets
import subprocess
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from archive.backup import POSTGRES_REFUSAL

from tests.deploy_docs import RELEASE, ROOT, block_after, commands, docs_section
from tests.factories import CampaignFactory, MembershipFactory, gridaris_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

OLD_RESTORE = "runuser -u postgres -- pg_restore --clean --if-exists --no-owner -d muster muster-2026-06-14.dump"
# The app as the restored database's role: it reads the campaign and its table, and writes (new rows take
# the tables' sequences, which must be the role's too).
APP_CHECK = """
import json
from django.contrib.auth import get_user_model
from campaign.models import Campaign, Day
from tabletop.models import Table
campaign = Campaign.objects.get(slug=SLUG)
day = Day.objects.create(campaign=campaign, number=2)
writer = get_user_model().objects.create_user("restored-writer")
tables = Table.objects.filter(campaign=campaign).count()
print(json.dumps({"name": campaign.name, "tables": tables, "day": day.pk, "user": writer.pk}))
"""


def postgres_bindir() -> Path:
    found = subprocess.run(
        ["bash", "-c", ". scripts/lib.sh && postgres_bindir"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert found, "no PostgreSQL binaries under /usr/lib/postgresql/*/bin"
    return Path(found)


class Cluster:
    """The test cluster: its address, the superuser's environment (libpq variables, as ``runuser -u
    postgres`` would connect over the socket) and URLs for roles and databases."""

    def __init__(self):
        database = settings.DATABASES["default"]
        self.host, self.port = database["HOST"], str(database["PORT"])
        # scripts/test.sh names its own cluster's socket folder: a folder found by a pattern under /tmp may be
        # another run's, left behind by a killed one, with a socket of the same port
        socket_dir = os.environ.get("TEST_PG_SOCKET_DIR", "")
        assert Path(socket_dir, f".s.PGSQL.{self.port}").is_socket(), (
            f"TEST_PG_SOCKET_DIR ({socket_dir!r}) holds no socket of the test cluster for port {self.port}; "
            "run the suite with make test"
        )
        self.owner = (database["USER"], database["PASSWORD"], database["NAME"])
        self.bindir = postgres_bindir()
        self.superuser_env = {"PGHOST": socket_dir, "PGPORT": self.port, "PGUSER": "postgres", "PGDATABASE": "postgres"}

    def url(self, user: str, password: str, database: str) -> str:
        return f"postgres://{user}:{password}@{self.host}:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> list[tuple]:
        socket_dir = self.superuser_env["PGHOST"]
        with psycopg.connect(host=socket_dir, port=self.port, user="postgres", dbname=database, autocommit=True) as db:
            cursor = db.execute(statement)
            return cursor.fetchall() if cursor.description else []


@pytest.fixture
def cluster():
    return Cluster()


@pytest.fixture
def app(cluster):
    """A role of the app's that is no superuser and owns nothing yet, and the names of its databases;
    all dropped afterwards."""
    suffix = secrets.token_hex(4)
    role, password, database = f"muster_app_{suffix}", secrets.token_hex(16), f"muster_restore_{suffix}"
    cluster.sql(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
    try:
        yield {"role": role, "password": password, "database": database}
    finally:
        for name in (database, f"{database}_replaced"):
            cluster.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        cluster.sql(f"DROP ROLE {role}")


def write_env(path: Path, cluster: Cluster, url: str, **values: str) -> Path:
    lines = {
        "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": "muster.example.org",
        "DATABASE_URL": url,
        "BACKUP_DIR": str(path.parent / "backups"),
        # the release's venv as in production, and this machine's PostgreSQL client programs
        "PATH": f"{ROOT}/.venv/bin:{cluster.bindir}:/usr/bin:/bin",
        **values,
    }
    path.write_text("".join(f"{name}={value}\n" for name, value in lines.items()), encoding="utf-8")
    path.chmod(0o640)
    return path


def release_script(argv: list[str], env_path: Path) -> subprocess.CompletedProcess:
    """One of the release's scripts (``/srv/muster/current/deploy/...`` in the docs) with this env file."""
    env = {"PATH": os.environ["PATH"], "MUSTER_ENV_FILE": str(env_path), "MUSTER_USER": getpass.getuser()}
    program = ROOT / argv[0].removeprefix(f"{RELEASE}/")
    return subprocess.run([str(program), *argv[1:]], env=env, capture_output=True, text=True, timeout=180)


def as_app(env_path: Path, *args: str) -> subprocess.CompletedProcess:
    return release_script([f"{RELEASE}/deploy/muster-manage", *args], env_path)


def dump_of_the_test_database(tmp_path: Path, cluster: Cluster) -> tuple[Path, str]:
    """A campaign with a member and a table, committed, then dumped by deploy/pg_backup.sh as its owner."""
    campaign = CampaignFactory(name="The Siege of Restore")
    gridaris_table(campaign, [MembershipFactory(campaign=campaign), "Guest"])
    env_path = write_env(tmp_path / "owner.env", cluster, cluster.url(*cluster.owner))
    result = release_script([f"{RELEASE}/deploy/pg_backup.sh"], env_path)
    assert result.returncode == 0, result.stderr
    (dump,) = (tmp_path / "backups" / "postgres").glob("muster-*.dump")
    return dump, campaign.slug


def run_procedure(lines: list[list[str]], *, cluster: Cluster, app: dict, dump: Path, env_path: Path) -> None:
    """Run a restore procedure's commands as the docs say, on the test cluster: the docs' database
    ``muster`` (and ``muster_replaced``) are the app's scratch database, its role ``muster`` is the app's
    role, the dump file is ``dump``; stopping and starting the services is for a real machine."""

    def names(argument: str, previous: str) -> str:
        if argument.endswith(".dump"):
            return str(dump)
        if previous == "-O":
            return app["role"] if argument == "muster" else argument
        return re.sub(r"(?<![\w/.-])muster(?=_replaced\b|(?![\w/.-]))", app["database"], argument)

    for argv in lines:
        if argv[0] == "systemctl":
            continue
        if argv[:4] == ["runuser", "-u", "postgres", "--"]:
            program, *rest = argv[4:]
            before = [program, *rest[:-1]]
            words = [str(cluster.bindir / program)] + [names(arg, prev) for prev, arg in zip(before, rest, strict=True)]
            env = {**os.environ, **cluster.superuser_env}
            result = subprocess.run(words, env=env, capture_output=True, text=True, timeout=180)
        elif argv[0].startswith(f"{RELEASE}/deploy/"):
            result = release_script([str(dump) if arg.endswith(".dump") else arg for arg in argv], env_path)
        else:
            pytest.fail(f"the rehearsal does not know how to run {argv}")
        assert result.returncode == 0, f"{' '.join(argv)}:\n{result.stdout}{result.stderr}"


def test_the_docs_restore_gives_the_app_a_database_it_reads_and_writes(tmp_path, cluster, app):
    dump, slug = dump_of_the_test_database(tmp_path, cluster)
    # production's database before the restore: the app's, made as the docs' first install makes it
    cluster.sql(f"CREATE DATABASE {app['database']} OWNER {app['role']}")
    env_path = write_env(tmp_path / "app.env", cluster, cluster.url(app["role"], app["password"], app["database"]))
    procedure = commands(block_after(docs_section("Backups and restore"), "**Restoring PostgreSQL**"))
    assert procedure[0][:2] == ["systemctl", "stop"] and procedure[-1][:2] == ["systemctl", "start"]

    run_procedure(procedure, cluster=cluster, app=app, dump=dump, env_path=env_path)

    checked = as_app(env_path, "shell", "-v", "0", "-c", f"SLUG = {slug!r}\n{APP_CHECK}")
    assert checked.returncode == 0, checked.stderr
    read_and_written = json.loads(checked.stdout)
    assert (read_and_written["name"], read_and_written["tables"]) == ("The Siege of Restore", 1)
    assert read_and_written["day"] and read_and_written["user"]
    assert as_app(env_path, "check", "--database", "default").returncode == 0
    owners = cluster.sql("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'", app["database"])
    assert owners == [(app["role"],)]
    # the replaced database is kept until the restored one proves good
    assert cluster.sql(f"SELECT 1 FROM pg_database WHERE datname = '{app['database']}_replaced'") == [(1,)]


def test_the_old_restore_as_postgres_leaves_tables_the_app_cannot_read(tmp_path, cluster, app):
    dump, slug = dump_of_the_test_database(tmp_path, cluster)
    cluster.sql(f"CREATE DATABASE {app['database']} OWNER {app['role']}")
    env_path = write_env(tmp_path / "app.env", cluster, cluster.url(app["role"], app["password"], app["database"]))

    run_procedure(commands(OLD_RESTORE), cluster=cluster, app=app, dump=dump, env_path=env_path)

    checked = as_app(env_path, "shell", "-v", "0", "-c", f"SLUG = {slug!r}\n{APP_CHECK}")
    assert checked.returncode != 0
    assert "permission denied for table" in checked.stderr


def test_a_failed_dump_leaves_nothing_in_the_way_and_old_dumps_are_pruned(tmp_path, cluster):
    folder = tmp_path / "backups" / "postgres"
    folder.mkdir(parents=True)
    for day in (1, 2, 3):
        (folder / f"muster-2020-01-0{day}_000000.dump").write_bytes(b"an older dump")
    user, _, database = cluster.owner
    wrong = write_env(tmp_path / "wrong.env", cluster, cluster.url(user, "not-the-password", database))

    failed = release_script([f"{RELEASE}/deploy/pg_backup.sh"], wrong)

    assert failed.returncode != 0 and "pg_dump failed" in failed.stderr
    assert sorted(path.name for path in folder.iterdir() if path.name != ".lock") == [
        f"muster-2020-01-0{day}_000000.dump" for day in (1, 2, 3)
    ]
    right = write_env(tmp_path / "right.env", cluster, cluster.url(*cluster.owner), BACKUP_KEEP="2")
    assert release_script([f"{RELEASE}/deploy/pg_backup.sh"], right).returncode == 0
    kept = sorted(path.name for path in folder.glob("muster-*.dump"))
    assert kept[0] == "muster-2020-01-03_000000.dump" and len(kept) == 2
    listing = [str(cluster.bindir / "pg_restore"), "--list", str(folder / kept[1])]
    listed = subprocess.run(listing, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and "TABLE public campaign_campaign" in listed.stdout


def test_manage_py_backup_on_postgresql_says_once_that_it_copies_no_database_and_cron_hears_nothing(tmp_path, cluster):
    env_path = write_env(tmp_path / "owner.env", cluster, cluster.url(*cluster.owner))

    result = as_app(env_path, "backup")

    assert result.returncode == 0, result.stderr
    assert (result.stdout + result.stderr).count(POSTGRES_REFUSAL) == 1
    # as deploy/cron/muster-backup runs it: nothing printed, not even the removal of the older backup
    quiet = as_app(env_path, "backup", "-v", "0", "--keep", "1")
    assert quiet.returncode == 0 and quiet.stdout + quiet.stderr == ""
    assert len([path for path in (tmp_path / "backups").iterdir() if path.name[0].isdigit()]) == 1
