"""Fixtures of the armies tests: the battles' commanders (Lady Vey, Lord Marr, the Bandit King) from
tests/armies/_battles.py, and the real Celery processes of the worker tests from tests/armies/_celery.py (the
tabletop's fork and computer tests import them from there too)."""

from tests.armies._battles import king, marr, vey  # noqa: F401 (fixtures)
from tests.armies._celery import celery_processes  # noqa: F401 (a fixture)
