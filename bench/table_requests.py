"""Requests per table through the full middleware stack, in one process.

    .venv/bin/python bench/table_requests.py --game gridaris [--requests 300]

Times, with Django's test client (every middleware, session and auth included), many
requests each of: a bare view (``/healthz``: one trivial query), the game's action
POST from a player's phone (a fresh legal action each time; a new table when a game
ends) and an idle poll. Prints the medians and ends with one line such as
``gridaris: action/bare 2.7, poll/bare 1.2, queries/action 6``.

Uses a throwaway SQLite file unless DATABASE_URL is set (then that database, which
must be empty of Muster data or disposable: the tables it creates are left behind).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def configure(temp_dir: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
    os.environ.setdefault("SECRET_KEY", "benchmark-only-secret")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{temp_dir}/bench.sqlite3")
    os.environ["DEBUG"] = "0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


class TableDriver:
    """Keeps a table of ``game`` going, one fresh legal action per call."""

    def __init__(self, game: str):
        from django.contrib.auth import get_user_model
        from django.test import Client

        from campaign.models import Membership
        from campaign.services import campaign_create, membership_add
        from tabletop.starter import catalog_load_starter

        catalog_load_starter()
        users = get_user_model().objects
        stamp = int(time.time() * 1000)
        gm = users.create_user(f"bench-gm-{stamp}")
        self.campaign = campaign_create(name="Bench", slug=f"bench-{stamp}", gm=gm)
        self.members = [
            membership_add(
                campaign=self.campaign, user=users.create_user(f"bench-p{i}-{stamp}"), role=Membership.Role.PLAYER
            )
            for i in range(2)
        ]
        self.clients = []
        for member in self.members:
            client = Client()
            client.force_login(member.user)
            self.clients.append(client)
        self.game = game
        self.games_started = 0
        self.new_table()

    def new_table(self) -> None:
        from tabletop.catalogs import gridaris_config_cards
        from tabletop.services import SeatSpec, table_create

        self.games_started += 1
        self.table = table_create(
            campaign=self.campaign,
            game=self.game,
            title=f"Bench {self.games_started}",
            seats=[SeatSpec(membership=member) for member in self.members],
            config={"mode": "standard", "cards": gridaris_config_cards()},
            seed=self.games_started,
        )
        self.tokens = {seat.index: seat.token for seat in self.table.seats.all()}

    def next_request(self):
        """The client, URL and POST data of the next legal action."""
        from tabletop.engines import get_engine

        engine = get_engine(self.game)
        self.table.refresh_from_db(fields=["state", "version"])
        if engine.outcome(self.table.state) is not None:
            self.new_table()
        seat = engine.to_act(self.table.state)[0]
        action = next(a for a in engine.legal_actions(self.table.state) if a["seat"] == seat)
        data = {k: v for k, v in action.items() if k != "seat"}
        data.update(version=self.table.version, client_action_id=f"bench-{self.table.pk}-{self.table.version}")
        return self.clients[seat], f"/play/{self.tokens[seat]}/act/", data


def timed(call, *args, **kwargs):
    """(seconds, result) of one call."""
    started = time.perf_counter()
    result = call(*args, **kwargs)
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="gridaris")
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp_dir:
        configure(temp_dir)
        run(args.game, args.requests)


def run(game: str, count: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    driver = TableDriver(game)
    hx = {"HTTP_HX_REQUEST": "true"}
    bare_client = driver.clients[0]

    def measure(samples: list, status: int, call, *args, **kwargs) -> None:
        seconds, response = timed(call, *args, **kwargs)
        if response.status_code != status:
            raise SystemExit(f"unexpected {response.status_code} (wanted {status}): {response.content[:300]!r}")
        samples.append(seconds)

    bare, action, poll, queries = [], [], [], []
    for _ in range(count):
        measure(bare, 200, bare_client.get, "/healthz")
        client, url, data = driver.next_request()
        with CaptureQueriesContext(connection) as captured:
            measure(action, 200, client.post, url, data, **hx)
        queries.append(len(captured))
        poll_url = f"/play/{driver.tokens[0]}/poll/"
        measure(poll, 204, driver.clients[0].get, poll_url, {"v": driver.table.version + 1}, **hx)

    median = {
        name: statistics.median(values) * 1000 for name, values in (("bare", bare), ("action", action), ("poll", poll))
    }
    early, late = queries[: count // 10 or 1], queries[-(count // 10 or 1) :]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, database {connection.vendor}")
    print(f"requests: {count} of each; games played: {driver.games_started}")
    for name, value in median.items():
        print(f"  median {name:<6} {value:7.2f} ms")
    print(f"  queries per action: min {min(queries)}, max {max(queries)}, ", end="")
    print(f"first tenth {max(early)}, last tenth {max(late)}")
    action_ratio, poll_ratio = median["action"] / median["bare"], median["poll"] / median["bare"]
    per_action = statistics.median(queries)
    print(f"{game}: action/bare {action_ratio:.1f}, poll/bare {poll_ratio:.1f}, queries/action {per_action:.0f}")


if __name__ == "__main__":
    main()
