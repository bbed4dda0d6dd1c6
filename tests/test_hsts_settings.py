"""HSTS's ``includeSubDomains`` and ``preload`` can be left out (issue 37): an organisation's apex domain
serving Muster must not commit every other host of the domain to HTTPS, nor ask browsers to preload it.

``muster/settings.py`` is read in a fresh process with the environment given, as a web process reads it.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
READ = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps([s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD]))"
)


def hsts(**environment: str) -> list:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_HSTS", "MUSTER_VENUE"))}
    env.update(DEBUG="0", SECRET_KEY="hsts-test", DJANGO_SETTINGS_MODULE="muster.settings", **environment)
    done = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, [31536000, True, True]),  # the default, as before
        ({"SECURE_HSTS_INCLUDE_SUBDOMAINS": "0"}, [31536000, False, True]),
        ({"SECURE_HSTS_PRELOAD": "0", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "false"}, [31536000, False, False]),
        ({"SECURE_HSTS_PRELOAD": "1", "SECURE_HSTS_SECONDS": "300"}, [300, True, True]),
    ],
)
def test_hsts_subdomains_and_preload_follow_the_environment(environment, expected):
    assert hsts(**environment) == expected


def test_check_deploy_accepts_both_left_out_on_purpose():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "MUSTER_VENUE", "DJANGO_SETTINGS"))}
    env.update(
        DEBUG="0",
        SECRET_KEY="a-long-random-looking-key-for-the-deploy-check-0123456789-abcdefghij",
        ALLOWED_HOSTS="example.org",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="0",
        SECURE_HSTS_PRELOAD="0",
    )
    command = [sys.executable, "manage.py", "check", "--deploy"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "identified no issues" in done.stdout, done.stdout + done.stderr
