"""Hidden information on the rendered pages, GM overrides included (the views' side of sight.py)."""

import html
import json
import random

import pytest
from django.urls import reverse

from tabletop.engines import army
from tabletop.engines.kernel import GM, PUBLIC
from tabletop.engines.sight import sight
from tabletop.models import Table
from tabletop.services.tables import table_play

from tests.cards import names_card
from tests.factories import army_table
from tests.tabletop._pages import pages

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
ANN, BEN = 0, 1


def battle(world, config=None, seed=11) -> Table:
    return army_table(world.campaign, ["Ann", "Ben"], config=config, seed=seed)  # guests: one client opens all


def gm_post(client, table: Table, action: dict):
    url = reverse("tabletop:gm_act", args=[table.campaign.slug, table.pk])
    fields = {"action": json.dumps({k: v for k, v in action.items() if k != "seat"}), "version": table.version}
    return client.post(url, {**fields, "as_seat": "gm"}, **HX)


def newly_named_secrets(before: Table, after: Table, seat, page_before: str, page_after: str) -> list[str]:
    """Names only secret cards bear (hidden from ``seat`` before and after) that the page gained."""
    names = {**army.card_names(before.state), **army.card_names(after.state)}
    then, now = sight(army, before.state, seat), sight(army, after.state, seat)
    secret = then.hidden & now.hidden
    seen = {name for card_id, name in names.items() if card_id not in secret} | then.names | now.names
    return sorted(name for name in {names[card_id] for card_id in secret} - seen
                  if html.escape(name) in page_after and html.escape(name) not in page_before)


def test_the_gm_calling_off_a_skirmish_keeps_the_face_down_card_off_every_other_page(client, world):
    table = battle(world)
    client.force_login(world.gm.user)
    while table.state["step"]["kind"] != "offense":
        seat = army.to_act(table.state)[0]
        action = army.legal_actions(table.state)[0]
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    attacker = table.state["step"]["seat"]
    card_id = table.state["piles"][attacker]["hand"][0]
    name = table.state["cards"][card_id]["name"]
    play = next(a for a in army.legal_actions(table.state) if a.get("card") == card_id)
    table = table_play(table_id=table.pk, seat=attacker, action=play, version=table.version).table
    before = pages(client, table)
    assert gm_post(client, table, {"type": "gm_move_card", "card": card_id, "to": "hand"}).status_code == 200
    table.refresh_from_db()
    assert table.state["skirmish"] is None
    after = pages(client, table)
    assert "The GM calls off the skirmish" in after[PUBLIC]
    for viewer in (1 - attacker, PUBLIC):
        assert html.escape(name) not in after[viewer], viewer
        assert card_id not in after[viewer]
    assert html.escape(name) in after[attacker] and html.escape(name) in after[GM]
    assert "Face down" in before[1 - attacker]


@pytest.mark.parametrize("seed", [3, 14])
def test_random_battles_with_gm_overrides_never_show_a_secret_on_any_page(client, world, seed):
    rng = random.Random(seed)
    table = battle(world, army.random_config(rng), seed=seed)
    client.force_login(world.gm.user)
    shown = pages(client, table)
    overrides = 0
    for _ in range(150):
        if army.outcome(table.state) is not None:
            break
        before = table
        candidates = army.gm_overrides(table.state)
        if rng.random() < 0.4:
            kind = rng.choice(sorted({o["type"] for o in candidates} - {"gm_end_battle"}))
            response = gm_post(client, table, rng.choice([o for o in candidates if o["type"] == kind]))
            assert response.status_code in (200, 400), response.status_code
            overrides += response.status_code == 200
            table = Table.objects.get(pk=table.pk)
        else:
            seat = army.to_act(table.state)[0]
            action = rng.choice(army.legal_actions(table.state))
            table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
        was, shown = shown, pages(client, table)
        for viewer in (ANN, BEN, PUBLIC):
            for card_id in army.hidden_from(table.state, viewer):
                assert not names_card(shown[viewer], card_id), (viewer, card_id)
            assert newly_named_secrets(before, table, viewer, was[viewer], shown[viewer]) == [], viewer
    assert overrides >= 2
