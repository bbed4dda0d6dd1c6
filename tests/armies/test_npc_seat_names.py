"""An NPC is shown by its own name everywhere, never under the GM's name (issue 23's finding; ruling B3).

Its seat stays bound to the GM's membership (the GM plays it hot-seat), but the seat, the table's
players in the config (and so the log and every page that names a seat) call it by the commander's name.
"""

import json

import pytest
from django.urls import reverse

from armies.services.battle_tables import battle_table_open

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def greta(world):
    world.gm.character_name = "Greta"
    world.gm.save(update_fields=["character_name"])
    return world.gm


def _battle(world, greta):
    king = CommanderFactory(membership=greta, kind="npc", name="The Bandit King", role="aggressor", path="steel")
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel")
    units = {c: [ArmyUnitFactory(commander=c, card=UnitCardFactory(strength=3))] for c in (king, vey)}
    return battle_table_open(attacker=king, defender=vey, attacker_units=units[king], defender_units=units[vey],
                             opened_by=greta.user, seed=11)


def test_an_npc_seat_is_named_by_the_commander_and_still_played_by_the_gm(world, greta):
    battle = _battle(world, greta)
    table = battle.table
    seats = list(table.seats.select_related("membership__user").order_by("index"))

    assert [seat.membership for seat in seats] == [greta, world.ann]  # the GM still plays it (P3)
    assert not seats[0].is_guest
    assert [seat.name for seat in seats] == ["The Bandit King", "Ann the Bold"]
    assert table.config["players"] == ["The Bandit King", "Ann the Bold"]
    assert table.state["players"] == ["The Bandit King", "Ann the Bold"]


def test_no_page_or_log_of_the_battle_calls_the_npc_greta(client, world, greta):
    battle = _battle(world, greta)
    slug, table = world.campaign.slug, battle.table
    client.force_login(greta.user)
    pages = {
        "gm table": reverse("tabletop:gm_table", args=[slug, table.pk]),
        "public table": reverse("tabletop:public_table", args=[slug, table.pk]),
        "battle": reverse("armies:battle_result", args=[slug, battle.pk]),
        "abandon": reverse("tabletop:table_abandon", args=[slug, table.pk]),
    }
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        html = response.content.decode()
        assert "The Bandit King" in html, name
        assert "Greta" not in html, name

    log = client.get(reverse("tabletop:gm_log", args=[slug, table.pk]))
    assert log.status_code == 200
    assert "Greta" not in json.dumps(log.json())
    assert "The Bandit King" in json.dumps(log.json()["config"]["players"])

    client.force_login(world.ann.user)
    seat = client.get(reverse("tabletop:seat_table", args=[table.seats.get(index=1).token]))
    assert seat.status_code == 200
    assert "The Bandit King" in seat.content.decode() and "Greta" not in seat.content.decode()
