"""A throwaway Redis server for the production tests (tests/test_redis_between_machines.py,
tests/test_operations_commands.py): started from a config in a folder of the test's, on loopback."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests.services import in_ci

START_TIMEOUT = 20  # a bound on waiting, never a measurement


def need(program: str) -> str:
    path = shutil.which(program)
    if path is None:
        reason = f"needs {program} (Debian: apt-get install redis-server openssl)"
        if in_ci():
            pytest.fail(f"CI=true and this test {reason}", pytrace=False)
        pytest.skip(reason)
    return path


def start_redis(directory: Path, config: str, client: redis.Redis) -> subprocess.Popen:
    (directory / "redis.conf").write_text(f'bind 127.0.0.1\nsave ""\nappendonly no\ndir {directory}\n{config}')
    with open(directory / "redis.log", "wb") as log:
        process = subprocess.Popen([need("redis-server"), str(directory / "redis.conf")], stdout=log, stderr=log)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            client.ping()
            return process
        except redis.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                stop(process)
                raise RuntimeError((directory / "redis.log").read_text()[-2000:]) from None
            time.sleep(0.1)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
