"""Malformed table actions, posted through the views, are refused with 4xx and change nothing.

A fixed seed draws each case: a deeply nested or broken ``action``, a ``type`` of the wrong
JSON type, a legal action with one field given a value of the wrong type (or too big), a legal
action with a field the engine does not know, and plain form fields that do not fit. Every case
goes to a seat's phone (``seat_act``) and to the GM's tablet (``gm_act``), at the start of the
game and after a few legal moves.
"""

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from tabletop.engines import army, get_engine
from tabletop.engines.kernel import GM, digest
from tabletop.models import Table, TableAction
from tabletop.services.tables import SeatSpec, table_create

from tests.tables import play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
CASES_PER_VIEW = 14
NESTED = "[" * 100_000
WRONG_VALUES = [[], {}, [[[[]]]], {"a": {"b": [1]}}, 1.5, True, None, 10**30, "x" * 5000, ["a"] * 500]

CONFIGS = {
    "army": lambda: army.starter_config(
        players=["Ann", "Ben"],
        units=(("heavy_cavalry", "soldier", "field_surgeon", "war_banner"),
               ("treant", "arcane_ward", "wolf_pack", "skeleton_horde")),
        dice="app", defender=1, base_morale=2,
    ),
    "gotm": lambda: {"series_game": 0},
    "gridaris": lambda: {"mode": "standard", "cards": get_engine("gridaris").STARTER_CARDS},
    "mercenarium": lambda: {},
    "dungeon": lambda: {"mode": "competitive", "variant": "pairs"},
}


def json_type(value) -> str:
    if value is None or isinstance(value, (bool, str, list, dict)):
        return type(value).__name__
    return "number"


def is_wrong_for(value, original) -> bool:
    """A value of another JSON type than the original, or of the same type but beyond any cap."""
    if json_type(value) != json_type(original):
        return True
    return value in (10**30, "x" * 5000, ["a"] * 500) or value == [[[[]]]]


def acting_seat(table: Table):
    deciding = get_engine(table.game).to_act(table.state)
    return deciding[0] if deciding else 0


def legal_for(table: Table, seat) -> list[dict]:
    actions = get_engine(table.game).legal_actions(table.state)
    return [a for a in actions if a.get("seat") == seat] or actions


def malformed_post(rng: random.Random, table: Table) -> dict:
    """One malformed submission: the POST fields, without version and client action id."""
    seat = acting_seat(table)
    legal = legal_for(table, seat)
    base = {k: v for k, v in rng.choice(legal).items() if k not in ("seat", "label")} if legal else {"type": "x"}
    case = rng.randrange(8)
    if case == 0:
        return {"action": NESTED}
    if case == 1:
        return {"action": json.dumps({**base, "type": rng.choice([[base["type"]], {"t": 1}, 7, None, True])})}
    if case == 2 and len(base) > 1:
        field = rng.choice([k for k in base if k != "type"])
        wrong = rng.choice([v for v in WRONG_VALUES if is_wrong_for(v, base[field])])
        return {"action": json.dumps({**base, field: wrong})}
    if case == 3:
        extra = rng.choice(["note", "comment", "seat_", "x"])
        return {"action": json.dumps({**base, extra: rng.choice(["n" * 3000, 1, [], {"deep": [[]]}])})}
    if case == 4:
        return {"action": rng.choice(["{", "[1, 2]", '"play"', "null", "{'type': 'x'}", "1e999"])}
    if case == 5:
        return {"action": json.dumps(base), "note": "n" * rng.choice([10, 300_000])}
    if case == 6 and rng.random() < 0.5:
        return {"action": json.dumps({**base, "label": rng.choice(["\x00", "l" * 600])})}
    if case == 6:
        field = rng.choice([k for k in base if k != "type"] or ["card"])
        return {"action": json.dumps(base), f"{field}:int": rng.choice(["abc", "1.5", "9" * 50, ""])}
    return {"action": json.dumps({**base, "type": rng.choice(["gm_x", "PLAY", "x" * 3000, ""])})}


def fingerprint(table: Table) -> tuple:
    fresh = Table.objects.get(pk=table.pk)
    return fresh.version, digest(fresh.state), TableAction.objects.filter(table=table).count()


def post_all(client: Client, url: str, table: Table, rng: random.Random, extra: dict) -> list[str]:
    failures = []
    for number in range(CASES_PER_VIEW):
        before = fingerprint(table)
        fields = malformed_post(rng, table)
        data = {**fields, **extra, "version": before[0], "client_action_id": f"fuzz-{rng.random()}"}
        if "as_seat" in extra and rng.random() < 0.25:
            data["as_seat"] = rng.choice(["-1", "99", "x", "", "9" * 40])
        response = client.post(url, data, **HX)
        if not 400 <= response.status_code < 500 or fingerprint(table) != before:
            failures.append(f"{url} case {number} {str(fields)[:160]} -> {response.status_code}")
    return failures


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_malformed_actions_are_refused_with_4xx_and_leave_the_table_unchanged(world, game):
    table = table_create(
        campaign=world.campaign, game=game, title="Fuzz",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)], config=CONFIGS[game](), seed=3,
    )
    rng = random.Random(f"fuzz-{game}")
    failures = []
    for moves in (0, 3):
        for _ in range(moves):
            table = play_next(table)
        seat = acting_seat(table)
        seat_index = seat if isinstance(seat, int) else 0
        player = Client(raise_request_exception=False)
        player.force_login((world.ann, world.ben)[seat_index].user)
        seat_url = reverse("tabletop:seat_act", args=[table.seats.get(index=seat_index).token])
        failures += post_all(player, seat_url, table, rng, {})
        gm = Client(raise_request_exception=False)
        gm.force_login(world.gm.user)
        gm_url = reverse("tabletop:gm_act", args=[world.campaign.slug, table.pk])
        failures += post_all(gm, gm_url, table, rng, {"as_seat": GM if seat == GM else seat})
    assert failures == []


def test_the_army_power_with_a_list_for_its_name_is_a_400_with_a_sentence(client, world):
    table = table_create(
        campaign=world.campaign, game="army", title="Fuzz",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)], config=CONFIGS["army"](), seed=3,
    )
    client.force_login(world.gm.user)
    url = reverse("tabletop:gm_act", args=[world.campaign.slug, table.pk])
    response = client.post(url, {"action": '{"type":"power","power":[]}', "as_seat": acting_seat(table),
                                 "version": table.version}, **HX)
    assert response.status_code == 400
    error = re.search(r'<p class="msg error" role="alert">([^<]*)</p>', response.content.decode())
    assert error and "power" in error[1] and "text" in error[1]  # a Jinja2 region: no response.context
