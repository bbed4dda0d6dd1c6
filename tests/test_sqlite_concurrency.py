"""SQLite (the ``make run`` default) holds a table's worth of taps: concurrent writes never answer 500.

Against a real server started as ``make run`` starts it (scripts/serve.py: uvicorn, one process
running each request in a thread of its own, its own SQLite file), devices post at the same
instant: several tables with several devices each, and several GM tablets recruiting from one offer. A deferred SQLite
transaction that upgrades to a write fails at once with "database is locked", whatever the busy
timeout; write transactions that take the lock when they begin (IMMEDIATE) wait their turn.
Runs in the PostgreSQL suite too: the server has its own SQLite file.
"""

import json
import random
import re
import uuid
from html import unescape

import pytest

from tabletop.engines import get_engine

from tests.concurrency import race
from tests.venue_server import VENUE_HOST, Client, VenueServer

pytestmark = pytest.mark.venue

TABLES, DEVICES_PER_SEAT, ROUNDS = 3, 2, 4
RECRUITERS, OFFER_QUANTITY = 6, 3


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("sqlite-concurrency")).start()
    yield venue
    venue.stop()


class Device:
    """A phone on one seat of one table: opens the seat's link, then taps an action of the table as it is."""

    def __init__(self, server: VenueServer, table_id: int, token: str, seat: int, seed: int):
        self.server, self.table_id, self.token, self.seat = server, table_id, token, seat
        self.client = Client(VENUE_HOST, server.port)
        self.rng = random.Random(seed)
        assert self.client.request("GET", f"/play/{token}/").status == 200

    def choose(self) -> tuple[int, dict]:
        """An action at the table's current version: a legal one when this seat acts, else the acting
        seat's (which the server must refuse for this seat)."""
        sql = "SELECT state, version FROM tabletop_table WHERE id = ?"
        ((state, version),) = self.server.query(sql, [self.table_id])
        state = json.loads(state)
        engine = get_engine("gridaris")
        acting = engine.to_act(state)
        wanted = self.seat if self.seat in acting else acting[0]
        return version, self.rng.choice([a for a in engine.legal_actions(state) if a["seat"] == wanted])

    def tap(self, version: int, action: dict) -> int:
        token = self.client.csrf_token()
        form = {
            "action": json.dumps(action),
            "version": version,
            "client_action_id": uuid.uuid4().hex,
            "csrfmiddlewaretoken": token,
        }
        headers = {"HX-Request": "true", "X-CSRFToken": token}
        return self.client.request("POST", f"/play/{self.token}/act/", form, headers).status


def test_the_server_database_is_in_write_ahead_log_mode(server):
    assert server.query("PRAGMA journal_mode") == [("wal",)]  # readers go on while one device writes


def test_several_tables_with_several_devices_each_tapping_at_once_never_fail(server):
    seeded = server.seed("tables", str(TABLES))["tables"]
    devices = [
        Device(server, table["id"], token, seat, seed=len(seeded) * 10 + seat * DEVICES_PER_SEAT + copy)
        for table in seeded
        for seat, token in enumerate(table["tokens"])
        for copy in range(DEVICES_PER_SEAT)
    ]
    statuses: dict[int, list] = {table["id"]: [] for table in seeded}
    for _ in range(ROUNDS):
        chosen = [device.choose() for device in devices]  # every device sees the table as it is now
        taps = [lambda d=device, c=choice: d.tap(*c) for device, choice in zip(devices, chosen, strict=True)]
        for device, result in zip(devices, race(taps), strict=True):
            statuses[device.table_id].append(result)

    every = [status for per_table in statuses.values() for status in per_table]
    assert not [status for status in every if not isinstance(status, int) or status >= 500], statuses
    assert set(every) <= {200, 400, 409}, statuses
    for table_id, per_table in statuses.items():
        ((version, logged),) = server.query(
            "SELECT version, (SELECT COUNT(*) FROM tabletop_tableaction WHERE table_id = t.id)"
            " FROM tabletop_table t WHERE id = ?",
            [table_id],
        )
        # Each round exactly one tap wins: both devices of the acting seat tapped at the same version.
        assert per_table.count(200) == version == logged == ROUNDS, (table_id, per_table)


def test_concurrent_recruits_from_one_offer_are_applied_or_refused_never_failed(server):
    seeded = server.seed("offer", str(OFFER_QUANTITY))
    slug, offer = seeded["slug"], seeded["offer"]
    posts = []
    for n in range(RECRUITERS):
        commander = seeded["commanders"][n % len(seeded["commanders"])]
        tablet = Client(VENUE_HOST, server.port)
        tablet.log_in("gm", server.password("gm"))
        page = tablet.request("GET", f"/c/{slug}/armies/{commander}/")
        assert page.status == 200
        url = f"/c/{slug}/armies/{commander}/buy/{offer}/"
        posts.append((tablet, url, hidden_inputs(page.body, url)))

    results = race([lambda t=t, u=u, f=f: t.request("POST", u, f).status for t, u, f in posts])

    assert results == [302] * RECRUITERS  # recruited, or refused with a message on the commander's page
    ((sold, charged),) = server.query(
        "SELECT sold, (SELECT COUNT(*) FROM campaign_ledgerentry WHERE cause_type = 'offer' AND cause_id = o.id)"
        " FROM armies_recruitoffer o WHERE id = ?",
        [offer],
    )
    assert sold == charged == OFFER_QUANTITY


def hidden_inputs(html: str, form_action: str) -> dict:
    """The hidden fields of the form posting to ``form_action`` (CSRF and one-time tokens included)."""
    match = re.search(rf'<form[^>]*action="{re.escape(form_action)}"[^>]*>(.*?)</form>', html, re.DOTALL)
    assert match, f"no form posts to {form_action}"
    fields = {}
    for tag in re.findall(r"<input[^>]*>", match.group(1)):
        name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and 'type="hidden"' in tag:
            fields[name.group(1)] = unescape(value.group(1)) if value else ""
    return fields
