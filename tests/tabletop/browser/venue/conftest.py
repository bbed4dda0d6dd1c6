"""Fixtures of the tabletop's browser tests that run against the real server (scripts/serve.py, through
tests/venue_server.py): one server and one Chromium per module, a fresh guest Gridaris table per test. A module
that needs its own (another scope, another seed) defines a fixture of the same name, which wins over these.
These modules sit in a folder of their own: here ``table`` is a dict of the guest table's tokens, and a conftest.py
one folder up would hand it to every browser module, shadowing the suite's ``table`` (tests/fixtures.py, a Table)
that the others take.
"""

from __future__ import annotations

import pytest

from tests.browser import chromium
from tests.venue_server import VenueServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("venue")).start()
    yield venue
    venue.stop()


@pytest.fixture
def table(server):
    """A fresh guest Gridaris table of the demo campaign (seat 0 acts first); each test its own."""
    seeded = server.seed("tables", "1")
    return {**seeded["tables"][0], "slug": seeded["slug"]}


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched
