"""Environment for the test run, set before Django reads its settings.

Registered with ``-p tests.plugin_env`` in pytest.ini, so its hook runs before
pytest-django imports ``muster.settings`` (a conftest is imported too late for that).

Tests run with DEBUG unset, as in production: settings then need a SECRET_KEY, and the
test client and live server speak plain HTTP, so no HTTPS redirect.  Static files use
the plain storage (no collectstatic manifest needed); tests/test_infrastructure.py
checks the production manifest storage separately.
"""

import os

import pytest

TEST_ENV = {
    "SECRET_KEY": "test-only-secret-not-for-production",
    "SECURE_SSL_REDIRECT": "0",
}


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    for name, value in TEST_ENV.items():
        os.environ.setdefault(name, value)


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    from django.conf import settings

    if not settings.configured:
        return
    from django.test.utils import override_settings

    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    storages = {**settings.STORAGES, "staticfiles": plain}
    override_settings(STORAGES=storages).enable()
