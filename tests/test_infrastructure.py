"""The test machinery itself: database, Redis, browser, static files."""

import os
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test.utils import override_settings

from tests.browser import chromium


def test_database_follows_database_url():
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://", "pgsql://")) else "sqlite"
    assert connection.vendor == expected


def test_celery_stays_in_process_without_redis_url():
    if os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is set: Celery uses the broker")
    assert settings.CELERY_TASK_ALWAYS_EAGER is True


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_answers():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version_num')::int")
        (version,) = cursor.fetchone()
    assert version >= 140000


@pytest.mark.redis
def test_redis_answers():
    import redis

    client = redis.Redis.from_url(os.environ["TEST_REDIS_URL"])
    client.set("muster:test:infrastructure", "ok", ex=10)
    assert client.get("muster:test:infrastructure") == b"ok"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_headless_chromium_loads_a_page():
    from django.contrib.auth import get_user_model

    with chromium() as browser:
        page = browser.new_page()
        page.goto("data:text/html,<title>Muster</title><h1 id=greeting>Hello</h1>")
        assert page.title() == "Muster"
        assert page.inner_text("#greeting") == "Hello"
        # The ORM still works while Playwright's loop runs (on its own connection, see tests/browser.py).
        assert get_user_model().objects.count() == 0


def test_collectstatic_builds_the_production_manifest(tmp_path):
    manifest = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
    production = {**settings.STORAGES, "staticfiles": manifest}
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=production):
        call_command("collectstatic", interactive=False, verbosity=0)
    assert (tmp_path / "staticfiles.json").is_file()


def test_test_modules_in_the_app_folders_have_names_of_their_own():
    """The app folders of tests/ are not packages, so pytest imports their modules by file name: two
    test_pages.py in two folders stop the whole run at collection (as tests/archive's once did)."""
    folders = Path(__file__).parent
    names = Counter(path.name for path in folders.glob("*/**/test_*.py") if not (path.parent / "__init__.py").exists())
    assert [name for name, count in names.items() if count > 1] == []
