"""Tests that need a service: markers ``postgres``, ``redis``, ``browser`` and ``nginx``.

Registered with ``-p tests.services`` in pytest.ini.  When the service is missing, a
marked test is skipped with the reason, except under ``CI=true``, where it fails: CI
must never pass by skipping.  ``make test`` provides all three (``make test DB=sqlite``
skips the PostgreSQL tests on purpose, even in CI).
"""

import functools
import os

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def postgres_problem() -> str | None:
    from django.db import connection

    if connection.vendor == "postgresql":
        return None
    return f"needs PostgreSQL, but the database is {connection.vendor} (set DATABASE_URL or use `make test`)"


@functools.cache
def redis_problem() -> str | None:
    url = os.environ.get("TEST_REDIS_URL", "")
    if not url:
        return "needs Redis: TEST_REDIS_URL is not set (`make test` starts one)"
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except Exception as exc:  # any failure means: no usable Redis
        return f"needs Redis, but TEST_REDIS_URL={url} does not answer: {exc}"
    return None


@functools.cache
def browser_problem() -> str | None:
    from tests.browser import chromium, chromium_executable

    executable = chromium_executable()
    if not os.access(executable, os.X_OK):
        return f"needs Chromium, but {executable} is missing (apt-get install chromium, or set PLAYWRIGHT_CHROMIUM)"
    try:
        with chromium() as browser:
            browser.new_page().close()
    except Exception as exc:  # any failure means: no usable browser
        return f"needs a browser, but Playwright cannot launch {executable}: {exc}"
    return None


def nginx_problem() -> str | None:
    if os.access("/usr/sbin/nginx", os.X_OK):
        return None
    return "needs nginx, but /usr/sbin/nginx is missing (apt-get install nginx-light; `make test` installs it)"


def _unavailable(reason: str) -> None:
    if in_ci():
        pytest.fail(f"CI=true and this test {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres") and (problem := postgres_problem()):
        if os.environ.get("MUSTER_TEST_DB") == "sqlite":
            pytest.skip("make test DB=sqlite: PostgreSQL tests are skipped")
        _unavailable(problem)
    if item.get_closest_marker("redis") and (problem := redis_problem()):
        _unavailable(problem)
    if item.get_closest_marker("browser") and (problem := browser_problem()):
        _unavailable(problem)
    if item.get_closest_marker("nginx") and (problem := nginx_problem()):
        _unavailable(problem)
