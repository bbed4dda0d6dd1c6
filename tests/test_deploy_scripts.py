"""The production helpers in deploy/ and the venv script (issue 37), without PostgreSQL.

deploy/muster-env runs a command as the units run Muster: the env file's variables and nothing of the
caller's, refusing a line systemd would read differently; deploy/muster-manage is manage.py through it.
The cron file calls scripts that exist. scripts/venv.sh leaves a current virtualenv alone even when it
carries no stamp (production's, made by hand), so ``make backup`` no longer runs pip there.
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy_docs import DEPLOY, RELEASE, ROOT, docs_section, env_file

CRON = DEPLOY / "cron" / "muster-backup"


def as_production(program: str, *args: str, env_path: Path, user: str | None = None, **extra_env: str):
    env = {"PATH": os.environ["PATH"], "MUSTER_ENV_FILE": str(env_path), "MUSTER_USER": user or getpass.getuser()}
    env.update(extra_env)
    return subprocess.run(
        [str(DEPLOY / program), *args], env=env, cwd="/", capture_output=True, text=True, timeout=120
    )


def test_muster_env_gives_the_env_files_variables_and_nothing_of_the_callers(tmp_path):
    path = env_file(
        tmp_path / "env",
        "# the site",
        "; a comment as systemd allows",
        "",
        "SECRET_KEY=abc-123_XYZ",
        "ALLOWED_HOSTS=muster.example.org,www.example.org",
        "NOTE=interior spaces are kept",
    )
    result = as_production("muster-env", "env", env_path=path, LEAKED="from the caller")
    assert result.returncode == 0, result.stderr
    seen = dict(line.split("=", 1) for line in result.stdout.splitlines())
    assert seen.pop("PATH").startswith(f"{ROOT}/.venv/bin:")
    assert set(seen) == {"HOME", "LANG", "MUSTER_ENV_LOADED", "SECRET_KEY", "ALLOWED_HOSTS", "NOTE"}
    assert (seen["SECRET_KEY"], seen["NOTE"]) == ("abc-123_XYZ", "interior spaces are kept")
    assert as_production("muster-env", "pwd", env_path=path).stdout.strip() == str(ROOT)  # the release's folder


@pytest.mark.parametrize(
    "line",
    ['SECRET_KEY="abc"', "DATABASE_URL=postgres://muster:pa$$word@db/muster", "LOG_LEVEL=INFO ", "export DEBUG=0"],
)
def test_muster_env_refuses_a_line_systemd_would_read_otherwise(tmp_path, line):
    path = env_file(tmp_path / "env", "ALLOWED_HOSTS=example.org", line)
    result = as_production("muster-env", "true", env_path=path)
    assert result.returncode == 1
    assert f"{path} line 2:" in result.stderr and "NAME=value" in result.stderr.replace("value plainly", "NAME=value")


@pytest.mark.skipif(os.geteuid() != 0, reason="switching users needs root")
def test_muster_env_started_by_root_runs_as_the_service_user(tmp_path):
    """nobody cannot read a file under pytest's private temp folder: the switch happened, and it says so."""
    path = env_file(tmp_path / "env", "ALLOWED_HOSTS=example.org")
    result = as_production("muster-env", "id", "-un", env_path=path, user="nobody")
    assert result.returncode == 1
    assert f"nobody cannot read {path}" in result.stderr


def test_muster_manage_runs_manage_py_with_the_env_file(tmp_path):
    path = env_file(
        tmp_path / "env",
        "SECRET_KEY=deploy-scripts-test",
        "ALLOWED_HOSTS=example.org",
        f"DATABASE_URL=sqlite:///{tmp_path / 'db.sqlite3'}",
        f"BACKUP_DIR={tmp_path / 'backups'}",
    )
    code = "from django.conf import settings as s; print(s.BACKUP_DIR, s.DEBUG, s.DATABASES['default']['NAME'])"
    caller = {"DEBUG": "1", "BACKUP_DIR": "/caller"}
    result = as_production("muster-manage", "shell", "-v", "0", "-c", code, env_path=path, **caller)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(tmp_path / "backups"), "False", str(tmp_path / "db.sqlite3")]


def test_the_cron_file_runs_scripts_of_the_release_with_nothing_cron_would_misread():
    jobs = [line.split(None, 6) for line in CRON.read_text().splitlines() if line and line[0].isdigit()]
    assert len(jobs) == 2
    for *when, user, command in jobs:
        assert len(when) == 5 and user == "root"
        program = command.split()[0]
        assert program.startswith(f"{RELEASE}/deploy/")
        assert os.access(ROOT / program.removeprefix(f"{RELEASE}/"), os.X_OK), program
        assert not re.search(r"(?<!\\)%", command), "cron reads a bare % as a new line"
    assert "deploy/cron/muster-backup" in docs_section("Backups and restore")


@pytest.fixture
def project(tmp_path):
    """A copy of the project's venv script beside a virtualenv that has every pinned package (this one's,
    linked) but no stamp of scripts/venv.sh, as production's, and a pip that only notes what it is asked."""
    (tmp_path / "scripts").mkdir()
    for name in ("venv.sh", "lib.sh", "venv_current.py"):
        if (ROOT / "scripts" / name).exists():
            shutil.copy(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    for name in ("requirements.txt", "requirements-dev.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    venv = tmp_path / ".venv"
    site = Path(f"lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages")
    (venv / "bin").mkdir(parents=True)
    (venv / site).parent.mkdir(parents=True)
    shutil.copy(ROOT / ".venv" / "pyvenv.cfg", venv / "pyvenv.cfg")
    (venv / "bin" / "python").symlink_to(Path(sys.executable).resolve())
    (venv / site).symlink_to(ROOT / ".venv" / site)
    stub = tmp_path / "stub" / "pip"
    stub.mkdir(parents=True)
    calls = tmp_path / "pip-calls"
    (stub / "__init__.py").write_text("")
    (stub / "__main__.py").write_text(
        f"import sys\nopen({str(calls)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\nprint('pip (stub)')\n"
    )
    return tmp_path


def run_venv_script(project: Path, kind: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(project / "stub"), "HOME": str(project)}
    return subprocess.run(
        ["bash", str(project / "scripts" / "venv.sh"), kind], env=env, capture_output=True, text=True, timeout=120
    )


def pip_installs(project: Path) -> list[str]:
    calls = project / "pip-calls"
    return [line for line in calls.read_text().splitlines() if line.startswith("install")] if calls.exists() else []


@pytest.mark.parametrize("kind", ["runtime", "dev"])
def test_a_current_venv_without_a_stamp_is_left_alone(project, kind):
    result = run_venv_script(project, kind)
    assert result.returncode == 0, result.stderr
    assert pip_installs(project) == [] and "installing" not in result.stderr


def test_a_venv_missing_a_pinned_version_is_installed_into(project):
    requirements = project / "requirements.txt"
    requirements.write_text(re.sub(r"(?m)^Django==\S+", "Django==5.2.0", requirements.read_text()))
    result = run_venv_script(project, "runtime")
    assert result.returncode == 0, result.stderr
    assert pip_installs(project) == ["install --disable-pip-version-check -q -r requirements.txt"]
