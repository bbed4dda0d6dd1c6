"""The systemd units in deploy/systemd (issue 37): systemd reads them without a complaint, and each runs
the very command docs/operations.md gives for its process, as the service user with the env file.

The web unit's uvicorn options are compared with the docs' command in "Web processes" option by option
(the docs' addresses are examples that both carry), and uvicorn's own parser must accept them; the
Celery units' commands are the docs' commands in "Celery: workers and beat", word for word.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from uvicorn.main import main as uvicorn_cli

from tests.deploy_docs import DEPLOY, RELEASE, ROOT, command_starting, commands_starting, docs_section
from tests.services import in_ci

UNITS = DEPLOY / "systemd"
NAMES = ("muster-web.service", "muster-worker.service", "muster-beat.service")
SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A unit file as {section: {key: [values]}}: comments dropped, continued lines joined."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    text = (UNITS / name).read_text(encoding="utf-8").replace("\\\n", " ")
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def service(name: str, key: str) -> str:
    (value,) = unit(name)["Service"][key]
    return value


def exec_start(name: str) -> list[str]:
    return shlex.split(service(name, "ExecStart"))


def options(argv: list[str]) -> Counter:
    """A command's arguments as (option, value) pairs, in any order: ``--port 8000`` is one pair, a flag
    (``--no-access-log``) or a positional argument (the application) is paired with None."""
    pairs = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        following = argv[index + 1] if index + 1 < len(argv) else None
        if arg.startswith("-") and following is not None and not following.startswith("-"):
            pairs.append((arg, following))
            index += 2
        else:
            pairs.append((arg, None))
            index += 1
    return Counter(pairs)


def docs_uvicorn() -> list[str]:
    """The docs' uvicorn command, given as ``uvicorn`` or with the release's path."""
    section = docs_section("Web processes")
    found = [argv for program in ("uvicorn", f"{RELEASE}/.venv/bin/uvicorn")
             for argv in commands_starting(section, program, "muster.asgi:application")]
    assert len(found) == 1, f"expected one uvicorn command in 'Web processes', found {len(found)}"
    return found[0]


def docs_celery(*words: str) -> list[str]:
    block = docs_section("Celery: workers and beat")
    return command_starting(block, f"{RELEASE}/.venv/bin/celery", "-A", "muster", *words)


@pytest.mark.parametrize("name", NAMES)
def test_each_unit_runs_as_the_service_user_with_the_env_file(name):
    assert service(name, "User") == "muster"
    assert service(name, "EnvironmentFile") == "/etc/muster/env"
    assert service(name, "WorkingDirectory") == RELEASE
    assert exec_start(name)[0].startswith(f"{RELEASE}/.venv/bin/")
    assert service(name, "Restart") in {"always", "on-failure"}
    assert service(name, "KillSignal") == "SIGTERM"
    assert unit(name)["Install"]["WantedBy"] == ["multi-user.target"]


@pytest.mark.parametrize("name", NAMES)
def test_systemd_reads_each_unit_without_a_complaint(name, tmp_path):
    """systemd-analyze verify: an unknown key, a bad value or a missing program is a complaint. The unit is
    checked with the release path pointing at this checkout, so the programs it starts must exist here."""
    if not Path(SYSTEMD_ANALYZE).exists():
        if in_ci():
            pytest.fail(f"CI=true and {SYSTEMD_ANALYZE} is missing (apt-get install systemd)")
        pytest.skip(f"{SYSTEMD_ANALYZE} is missing")
    copy = tmp_path / name
    copy.write_text((UNITS / name).read_text(encoding="utf-8").replace(RELEASE, str(ROOT)), encoding="utf-8")
    result = subprocess.run([SYSTEMD_ANALYZE, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if name in line]
    assert result.returncode == 0 and not complaints, result.stdout + result.stderr


def test_the_web_unit_runs_the_docs_uvicorn_command():
    docs = docs_uvicorn()
    ours = exec_start("muster-web.service")
    assert ours[0] == f"{RELEASE}/.venv/bin/uvicorn" and Path(docs[0]).name == "uvicorn"
    assert options(ours[1:]) == options(docs[1:])


def test_uvicorn_accepts_the_web_units_options():
    arguments = exec_start("muster-web.service")[1:]
    with uvicorn_cli.make_context("uvicorn", list(arguments)) as context:  # a wrong option or value raises
        assert context.params["app"] == "muster.asgi:application"


def test_the_web_unit_leaves_uvicorn_its_graceful_shutdown():
    argv = exec_start("muster-web.service")
    graceful = int(argv[argv.index("--timeout-graceful-shutdown") + 1])
    assert int(service("muster-web.service", "TimeoutStopSec")) > graceful
    assert service("muster-web.service", "KillMode") == "mixed"  # SIGTERM to the supervisor, which stops its workers


def test_the_web_unit_has_the_file_descriptors_the_docs_ask_for():
    limit = re.search(r"`LimitNOFILE=(\d+)`", docs_section("Web processes")).group(1)
    assert service("muster-web.service", "LimitNOFILE") == limit


def test_the_worker_unit_runs_the_docs_worker_command_at_the_docs_cpu_weight():
    assert exec_start("muster-worker.service") == docs_celery("worker")
    weight = re.search(r"sets `CPUWeight=(\d+)`", docs_section("Computer players")).group(1)
    assert service("muster-worker.service", "CPUWeight") == weight
    assert service("muster-worker.service", "KillMode") == "mixed"  # the warm shutdown is the main process's


def test_the_beat_unit_runs_the_docs_beat_command_with_its_schedule_in_its_state_directory():
    argv = exec_start("muster-beat.service")
    assert argv == docs_celery("beat")
    schedule = Path(argv[argv.index("-s") + 1])
    assert schedule.parent == Path("/var/lib") / service("muster-beat.service", "StateDirectory")


def test_the_docs_install_every_unit():
    section = docs_section("Installing a release")
    for name in NAMES:
        assert f"deploy/systemd/{name}" in section or "deploy/systemd/muster-*.service" in section
        assert name.removesuffix(".service") in section
