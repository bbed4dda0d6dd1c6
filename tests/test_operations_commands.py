"""docs/operations.md's first install and health checks, command by command as written (issue 37).

A sysadmin types these as root on a machine where nothing is activated: no venv, no project folder,
none of Muster's environment. So no command in the ```sh blocks of "Installing a release" and "Health
and monitoring" (nor one the health list gives inline) starts with a bare ``celery``, ``python``,
``manage.py`` or ``uvicorn``, or a program named relative to a folder: they run through
deploy/muster-env or deploy/muster-manage, or by the release venv's full path (the systemd units in
deploy/systemd run their own as the service user with the env file). Every release path those commands
name (``/srv/muster/current/...``, or step 2's ``$R/...``) is in this checkout, executable where it is the
command.

The health checks are run too: the worker ping through deploy/muster-env, with the env file, against a
worker started as the docs start one; the Redis pings against a Redis set up as "Redis between machines"
says (a password, the ACL user, TLS on its port with the CA that ``REDIS_CA_FILE`` names), each of which
must answer PONG. Everything listens on loopback.
"""

from __future__ import annotations

import getpass
import os
import re
import signal
import subprocess
import time

import pytest
import redis

from tests.deploy_docs import DOCS, RELEASE, ROOT, command_starting, commands, docs_section, env_file, fenced_blocks
from tests.nginx_proxy import self_signed_certificate
from tests.redis_server import start_redis, stop
from tests.venue_server import free_port

SECTIONS = ("Installing a release", "Health and monitoring")
BARE = {"celery", "python", "python3", "manage.py", "uvicorn"}
RELEASE_PATH = re.compile(r"(?:/srv/muster/current|\$R)/([^\s'\"`;|&<>()]+)")
SEPARATORS = {"&&", "||", "|", ";"}
PASSWORD, ACL_PASSWORD = "health-pass", "health-acl-pass"
WAIT = 90  # a bound on waiting for a worker to answer, never a measurement


def simple_commands(argv: list[str]) -> list[list[str]]:
    """A command line's simple commands, split at ``&&``, ``||``, ``|`` and ``;``."""
    found, current = [], []
    for word in argv:
        if word in SEPARATORS:
            found.append(current)
            current = []
        else:
            current.append(word)
    return [command for command in [*found, current] if command]


def program(command: list[str]) -> str:
    """What a simple command runs: past ``NAME=value`` assignments and ``runuser -u USER --``."""
    words = list(command)
    while words and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words.pop(0)
    if words[:1] == ["runuser"] and "--" in words:
        words = words[words.index("--") + 1 :]
    return words[0] if words else ""


def block_commands(title: str) -> list[list[str]]:
    """The simple commands of a section's ```sh blocks, in order."""
    return [
        command
        for block in fenced_blocks(docs_section(title))
        for line in commands(block)
        for command in simple_commands(line)
    ]


def inline_commands(title: str) -> list[list[str]]:
    """The code spans of a section's prose, as words: the health list gives commands that way too."""
    prose = re.sub(r"^```.*?^```", "", docs_section(title), flags=re.S | re.M)
    return [span.split() for span in re.findall(r"`([^`\n]+)`", prose) if span.split()]


def release_paths(title: str) -> set[str]:
    return {path for block in fenced_blocks(docs_section(title)) for path in RELEASE_PATH.findall(block)}


def in_checkout(argv: list[str]) -> list[str]:
    """A docs command with the installed release's paths turned into this checkout's."""
    return [word.replace(f"{RELEASE}/", f"{ROOT}/") for word in argv]


# --- read: what the commands run ----------------------------------------------------------------------


@pytest.mark.parametrize("title", SECTIONS)
def test_no_command_needs_an_activated_venv_or_the_project_folder(title):
    typed = block_commands(title)
    assert typed
    for command in typed + (inline_commands(title) if title == "Health and monitoring" else []):
        name = program(command)
        assert name not in BARE, (
            f"{' '.join(command)!r}: use deploy/muster-env, deploy/muster-manage or the venv's path"
        )
    for command in typed:  # a code span in prose may name a file (`deploy/muster-env`) without running it
        name = program(command)
        assert "/" not in name or name.startswith(("/", "$R/")), f"{' '.join(command)!r} names a relative path"


@pytest.mark.parametrize("title", SECTIONS)
def test_every_release_path_named_is_in_the_release_and_a_command_is_executable(title):
    paths = release_paths(title)
    for path in paths:
        assert (ROOT / path).exists(), f"docs/operations.md ({title}) names {path}, which the release lacks"
    run = {found[1] for command in block_commands(title) if (found := RELEASE_PATH.fullmatch(program(command)))}
    assert run <= paths
    for path in run:
        assert os.access(ROOT / path, os.X_OK), f"docs/operations.md ({title}) runs {path}, which is not executable"


def test_the_install_runs_the_release_scripts_it_ships():
    """The check above has something to check: the install runs deploy/ scripts by their release path."""
    run = {program(command) for command in block_commands("Installing a release")}
    assert {"$R/deploy/muster-manage", f"{RELEASE}/deploy/muster-manage"} & run
    assert f"{RELEASE}/deploy/nginx/muster.conf" in {
        word for command in block_commands("Installing a release") for word in command
    }


# --- run: the health checks answer ---------------------------------------------------------------------


def redis_between_machines() -> dict:
    """What "Redis between machines" and the Environment table set up: ports, the ACL user, the CA's path."""
    section, docs = docs_section("Redis between machines"), DOCS.read_text(encoding="utf-8")
    return {
        "port": re.search(r"REDIS_URL=redis://:[^@]+@redis\.internal:(\d+)/", section)[1],
        "tls_port": re.search(r"`tls-port (\d+)`", section)[1],
        "user": re.search(r"`user (\S+) on >", section)[1],
        "ca_file": re.search(r"\| `REDIS_CA_FILE` \|.*?e\.g\. `([^`]+)`", docs)[1],
    }


@pytest.fixture(scope="module")
def health_redis(tmp_path_factory):
    """A Redis as the docs set one up: a password, the ACL user, a plain port and a TLS one."""
    directory = tmp_path_factory.mktemp("health-redis")
    certificate, key = self_signed_certificate(directory)
    port, tls_port = free_port("127.0.0.1"), free_port("127.0.0.1")
    user = redis_between_machines()["user"]
    config = (
        f"port {port}\ntls-port {tls_port}\ntls-cert-file {certificate}\ntls-key-file {key}\n"
        f"tls-ca-cert-file {certificate}\ntls-auth-clients no\nrequirepass {PASSWORD}\n"
        f"user {user} on >{ACL_PASSWORD} ~* &* +@all\n"
    )
    process = start_redis(directory, config, redis.Redis(port=port, password=PASSWORD, socket_connect_timeout=1))
    try:
        yield {"port": port, "tls_port": tls_port, "ca": certificate}
    finally:
        stop(process)


def on_loopback(command: list[str], server: dict) -> tuple[list[str], str]:
    """A docs redis-cli command aimed at the test's Redis, and the password REDISCLI_AUTH must hold for it."""
    docs = redis_between_machines()
    argv, ports = list(command), {docs["port"]: server["port"], docs["tls_port"]: server["tls_port"]}
    assert argv[argv.index("-h") + 1] == "redis.internal"
    argv[argv.index("-h") + 1] = "127.0.0.1"
    if "-p" in argv:
        argv[argv.index("-p") + 1] = str(ports[argv[argv.index("-p") + 1]])
    else:
        assert docs["port"] == "6379"  # redis-cli's default
        argv[1:1] = ["-p", str(server["port"])]
    if "--cacert" in argv:
        assert argv[argv.index("--cacert") + 1] == docs["ca_file"]
        argv[argv.index("--cacert") + 1] = str(server["ca"])
    if "--user" in argv:
        assert argv[argv.index("--user") + 1] == docs["user"]
        return argv, ACL_PASSWORD
    return argv, PASSWORD


def test_the_health_checks_redis_pings_answer_as_written(health_redis):
    """Each redis-cli line, with the password the docs have the shell hold (never on the command line)."""
    pinged, auth = [], False
    for command in block_commands("Health and monitoring"):
        auth = auth or "REDISCLI_AUTH" in " ".join(command)
        if program(command) != "redis-cli":
            continue
        assert not {"-a", "--pass", "-u"} & set(command), "a password in argv shows in ps and the history"
        argv, password = on_loopback(command, health_redis)
        env = {"PATH": os.environ["PATH"], **({"REDISCLI_AUTH": password} if auth else {})}
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=30)
        assert done.stdout.strip() == "PONG", f"{' '.join(command)!r}: {done.stdout}{done.stderr}"
        pinged.append(("--tls" in command, "--user" in command))
    assert set(pinged) >= {(False, False), (False, True), (True, True)}  # requirepass, the ACL user, TLS


def test_the_health_checks_worker_ping_answers_through_muster_env(health_redis, tmp_path):
    """A worker started as the docs start one (through muster-env, as its unit) answers the docs' ping."""
    redis_url = f"redis://:{PASSWORD}@127.0.0.1:{health_redis['port']}/0"
    path = env_file(
        tmp_path / "env",
        "SECRET_KEY=operations-commands-test",
        "ALLOWED_HOSTS=example.org",
        f"DATABASE_URL=sqlite:///{tmp_path / 'db.sqlite3'}",
        f"REDIS_URL={redis_url}",
        f"BACKUP_DIR={tmp_path / 'backups'}",
        "BACKUP_HOUR=off",
    )
    env = {"PATH": os.environ["PATH"], "MUSTER_ENV_FILE": str(path), "MUSTER_USER": getpass.getuser()}
    [ping] = [command for command in block_commands("Health and monitoring") if "inspect" in command]
    worker = command_starting(
        docs_section("Celery: workers and beat"), f"{RELEASE}/.venv/bin/celery", "-A", "muster", "worker"
    )
    with open(tmp_path / "worker.out", "wb") as output:
        process = subprocess.Popen(
            [str(ROOT / "deploy" / "muster-env"), *in_checkout(worker), "--concurrency", "1"],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline, answer = time.monotonic() + WAIT, None
        while time.monotonic() < deadline and process.poll() is None:
            answer = subprocess.run(in_checkout(ping), env=env, capture_output=True, text=True, timeout=60)
            if "pong" in answer.stdout:
                break
        worker_output = (tmp_path / "worker.out").read_text(errors="replace")[-2000:]
        assert answer is not None and "pong" in answer.stdout, f"{answer}\n{worker_output}"
        assert answer.returncode == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
