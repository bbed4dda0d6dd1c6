"""On SQLite (the ``make run`` default), identical posts of one rendered form at the same instant
are applied once: the issue-12 findings (four "new table" posts with an entry fee made two tables
and charged the fee twice; three "open battle" posts made three battles), against a real server
started as ``make run`` starts it (tests/venue_server.py: uvicorn, requests in threads, its own
SQLite file). Write transactions take the lock when they begin, so the later posts start after the
first has committed and find its one-time token (campaign/submissions.py).
"""

import re

import pytest

from tests.concurrency import race
from tests.forms import tokens_in
from tests.venue_server import VENUE_HOST, Client, VenueServer

pytestmark = pytest.mark.venue

SLUG = "distelblute"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("sqlite-applied-once")).start()
    yield venue
    venue.stop()


def gm_tablets(server, count: int) -> list[Client]:
    tablets = []
    for _ in range(count):
        tablet = Client(VENUE_HOST, server.port)
        tablet.log_in("gm", server.password("gm"))
        tablets.append(tablet)
    return tablets


def checkbox_values(html: str, name: str) -> list[str]:
    return re.findall(rf'<input type="checkbox" name="{name}" value="(\d+)"', html)


def as_post(tablet: Client, url: str, form: dict) -> int:
    """Post ``form`` (lists as repeated fields) with this tablet's own CSRF token; the one-time token is shared."""
    pairs = [(key, item) for key, value in form.items() for item in (value if isinstance(value, list) else [value])]
    return tablet.request("POST", url, [*pairs, ("csrfmiddlewaretoken", tablet.csrf_token())]).status


def test_four_identical_new_table_posts_at_once_open_one_table_and_charge_the_fee_once(server):
    tablets = gm_tablets(server, 4)
    url = f"/c/{SLUG}/tables/new/gridaris/"
    page = tablets[0].request("GET", url)
    assert page.status == 200
    players = [str(pk) for (pk,) in server.query(
        "SELECT m.id FROM campaign_membership m JOIN campaign_campaign c ON c.id = m.campaign_id"
        " WHERE c.slug = ? AND m.role = 'player' ORDER BY m.id LIMIT 2", [SLUG])]
    [token] = tokens_in(page.body)
    form = {"submission": token, "title": "Race at the Inn", "members": players, "mode": "standard",
            "entry_fee": "5", "payout": "winner_takes_all"}

    statuses = race([lambda t=t: as_post(t, url, form) for t in tablets])

    assert statuses == [302] * 4
    [(table_id,)] = server.query("SELECT id FROM tabletop_table WHERE title = 'Race at the Inn'")
    fees = server.query(
        "SELECT COUNT(*), SUM(amount) FROM campaign_ledgerentry WHERE cause_type = 'table' AND cause_id = ?",
        [table_id],
    )
    assert fees == [(2, -10)]


def test_three_identical_open_battle_posts_at_once_open_one_battle(server):
    seeded = server.seed("offer", "1")
    attacker, defender = seeded["commanders"][:2]
    tablets = gm_tablets(server, 3)
    url = f"/c/{SLUG}/battles/new/"
    page = tablets[0].request("GET", f"{url}?attacker={attacker}&defender={defender}&choose=1")
    assert page.status == 200
    [token] = tokens_in(page.body)
    form = {"submission": token, "attacker": attacker, "defender": defender, "defending": "defender",
            "base_morale": "0", "dice": "app", "override_reason": "",
            "attacker_units": checkbox_values(page.body, "attacker_units"),
            "defender_units": checkbox_values(page.body, "defender_units")}
    assert form["attacker_units"] and form["defender_units"]

    statuses = race([lambda t=t: as_post(t, url, form) for t in tablets])

    assert statuses == [302] * 3
    assert server.query(
        "SELECT COUNT(*) FROM armies_battle WHERE attacker_id = ? AND defender_id = ?", [attacker, defender]
    ) == [(1,)]
