"""Requests per table through the full middleware stack, in one process.

    .venv/bin/python bench/table_requests.py --game gridaris|army|dungeon [--requests 300]

Times, with Django's test client (every middleware, session and auth included), many
requests each of: a bare view (``/healthz``: one trivial query), the game's action
POST from a player's phone (``/play/<token>/act/``; a fresh legal action each time; a
new table when a game ends), an idle poll (204), and the fetch after a push: the other
phone's ``GET /play/<token>/poll/?v=<its old key>``, answered with its new render (what every
other device of the table asks for once the push says the table moved on). Prints the
medians and ends with one line such as
``gridaris: action/bare 2.7, poll/bare 1.2, fetch/bare 1.9, queries/action 6, queries/fetch 4``.

Per game (``GAMES``): Gridaris posts the action's plain fields, as its buttons do;
an Army Rules battle (``army.starter_config``, app dice, eight units a side) posts the
legal action as JSON in ``action`` (types intact), picked at random with a fixed seed
among the deciding seat's legal actions. When the engine waits on the GM (``to_act``
is ``["gm"]``) the GM posts it from the tablet, ``/c/<slug>/tables/<pk>/act/`` with
``as_seat=gm``; with app dice a commander decides every step, so this hardly happens.
The dungeon game ("2 Pairs", the starter catalog snapshotted into the table: its state is
the largest of all) posts JSON like the Army, a random action of the deciding seat.

Uses a throwaway SQLite file unless DATABASE_URL is set (then that database, which
must be empty of Muster data or disposable: the tables it creates are left behind).
"""

from __future__ import annotations

import argparse
import json
import os
import random
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


# Eight units a side: a battle of a realistic size (random play lasts about 25 actions).
ARMY_UNITS = (
    ("spearmen", "soldier", "shield_wall", "crossbowmen", "field_surgeon", "war_banner", "battle_mage", "temple_guard"),
    ("wolf_pack", "treant", "druid", "rangers", "herbalist", "entangle", "zealots", "priestess"),
)


def gridaris_config(players: list[str]) -> dict:
    from tabletop.catalog.snapshot import gridaris_config_cards

    return {"mode": "standard", "cards": gridaris_config_cards()}


def army_config(players: list[str]) -> dict:
    from tabletop.engines import army

    return army.starter_config(players=players, units=ARMY_UNITS, dice="app")


def dungeon_config(players: list[str]) -> dict:
    from tabletop.catalog.starter_dungeon import dungeon_catalog_load_starter, dungeon_config_cards

    dungeon_catalog_load_starter()
    return {"mode": "competitive", "variant": "pairs", "cards": dungeon_config_cards()}


def gridaris_choose(legal: list[dict], seat, rng: random.Random) -> dict:
    return next(a for a in legal if a["seat"] == seat)


def army_choose(legal: list[dict], seat, rng: random.Random) -> dict:
    return rng.choice([a for a in legal if a["seat"] == seat])


def fields_post(action: dict) -> dict:
    """The action as a Gridaris button posts it: plain fields (the server sets the seat)."""
    return {k: v for k, v in action.items() if k != "seat"}


def json_post(action: dict) -> dict:
    """The action as an Army button posts it: the legal action as JSON, types intact."""
    return {"action": json.dumps(action)}


# game -> (config for the seats' player names, pick one legal action of the deciding seat, POST fields)
GAMES = {
    "gridaris": (gridaris_config, gridaris_choose, fields_post),
    "army": (army_config, army_choose, json_post),
    "dungeon": (dungeon_config, army_choose, json_post),
}


class TableDriver:
    """Keeps a table of ``game`` going, one fresh legal action per call."""

    def __init__(self, game: str, seed: int = 1):
        from django.contrib.auth import get_user_model
        from django.test import Client

        from campaign.models import Membership
        from campaign.services import campaign_create, membership_add
        from tabletop.catalog.starter import catalog_load_starter

        if game not in GAMES:
            raise SystemExit(f"No benchmark set-up for {game!r}; known: {', '.join(sorted(GAMES))}.")
        self.make_config, self.choose, self.encode = GAMES[game]
        self.rng = random.Random(seed)
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
        self.gm_client = Client()
        self.gm_client.force_login(gm)
        self.game = game
        self.games_started = 0
        self.gm_actions = 0
        self.new_table()

    def new_table(self) -> None:
        from tabletop.services.tables import SeatSpec, table_create

        self.games_started += 1
        self.table = table_create(
            campaign=self.campaign,
            game=self.game,
            title=f"Bench {self.games_started}",
            seats=[SeatSpec(membership=member) for member in self.members],
            config=self.make_config([member.display_name for member in self.members]),
            seed=self.games_started,
        )
        self.tokens = {seat.index: seat.token for seat in self.table.seats.all()}

    def next_request(self):
        """The client, URL and POST data of the next legal action."""
        from tabletop.engines import get_engine
        from tabletop.engines.kernel import GM

        engine = get_engine(self.game)
        self.table.refresh_from_db(fields=["state", "version"])
        if engine.outcome(self.table.state) is not None:
            self.new_table()
        seat = engine.to_act(self.table.state)[0]
        data = self.encode(self.choose(engine.legal_actions(self.table.state), seat, self.rng))
        data.update(version=self.table.version, client_action_id=f"bench-{self.table.pk}-{self.table.version}")
        if seat == GM:
            self.gm_actions += 1
            data["as_seat"] = GM
            return self.gm_client, f"/c/{self.campaign.slug}/tables/{self.table.pk}/act/", data
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

    bare, action, poll, fetch, queries, fetch_queries = [], [], [], [], [], []
    game_ends = set()  # indexes in ``queries`` of the actions that ended a game
    for _ in range(count):
        measure(bare, 200, bare_client.get, "/healthz")
        games_before = driver.games_started
        client, url, data = driver.next_request()
        if driver.games_started != games_before and queries:
            game_ends.add(len(queries) - 1)
        with CaptureQueriesContext(connection) as captured:
            measure(action, 200, client.post, url, data, **hx)
        queries.append(len(captured))
        poll_url = f"/play/{driver.tokens[0]}/poll/"
        measure(poll, 204, driver.clients[0].get, poll_url, {"v": driver.table.version + 1}, **hx)
        # The other phone (seat 1, or seat 0 when seat 1 acted) fetches its view after the push.
        watcher = 0 if client is driver.clients[1] else 1
        fetch_url = f"/play/{driver.tokens[watcher]}/poll/"
        with CaptureQueriesContext(connection) as captured:
            measure(fetch, 200, driver.clients[watcher].get, fetch_url, {"v": driver.table.version}, **hx)
        fetch_queries.append(len(captured))

    median = {
        name: statistics.median(values) * 1000
        for name, values in (("bare", bare), ("action", action), ("poll", poll), ("fetch", fetch))
    }
    early, late = queries[: count // 10 or 1], queries[-(count // 10 or 1) :]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, database {connection.vendor}")
    gm_note = f" ({driver.gm_actions} actions by the GM)" if driver.gm_actions else ""
    print(f"requests: {count} of each; games played: {driver.games_started}{gm_note}")
    for name, value in median.items():
        print(f"  median {name:<6} {value:7.2f} ms")
    print(f"  queries per action: min {min(queries)}, max {max(queries)}, ", end="")
    print(f"first tenth {max(early)}, last tenth {max(late)}")
    if min(queries) != max(queries):
        steady = [n for i, n in enumerate(queries) if i not in game_ends]
        tenth = len(steady) // 10 or 1
        print(f"  without the {len(game_ends)} actions that ended a game (finish hooks): min {min(steady)}, ", end="")
        print(f"max {max(steady)}, first tenth {max(steady[:tenth])}, last tenth {max(steady[-tenth:])}")
    print(f"  queries per fetch: min {min(fetch_queries)}, max {max(fetch_queries)}")
    ratio = {name: value / median["bare"] for name, value in median.items()}
    per_action, per_fetch = statistics.median(queries), statistics.median(fetch_queries)
    print(
        f"{game}: action/bare {ratio['action']:.1f}, poll/bare {ratio['poll']:.1f}, fetch/bare {ratio['fetch']:.1f}, "
        f"queries/action {per_action:.0f}, queries/fetch {per_fetch:.0f}"
    )


if __name__ == "__main__":
    main()
