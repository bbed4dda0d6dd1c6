"""Shared fixtures.

Test infrastructure lives elsewhere, loaded by pytest.ini:
- tests/plugin_env.py: environment set before Django loads (SECRET_KEY, no HTTPS redirect);
- tests/services.py: the ``postgres`` / ``redis`` / ``browser`` markers (skip, or fail under CI=true);
- tests/browser.py: ``chromium()`` and ``chromium_launch_kwargs()`` for Playwright tests.
"""
pytest_plugins = ["tests.fixtures"]
