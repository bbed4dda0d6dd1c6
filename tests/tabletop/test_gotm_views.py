"""The GOT'M table page: each seat sees its own hand and never the other's; buttons post legal actions."""

import json

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.forms import TABLE_FORMS, GotmTableForm
from tabletop.services.tables import SeatSpec, table_create

from tests.forms import once

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def gotm_table(world):
    return table_create(campaign=world.campaign, game="gotm", title="Booty Bay duel",
                        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                        config={"series_game": 0}, seed=5)


def seat_url(table, index, name="tabletop:seat_table"):
    return reverse(name, args=[table.seats.get(index=index).token])


def hand(table, seat):
    return get_engine("gotm").view(table.state, "gm")["players"][seat]["hand"]


def test_a_seat_sees_its_own_hand_and_never_the_others(client, world, gotm_table):
    client.force_login(world.ann.user)
    html = client.get(seat_url(gotm_table, 0)).content.decode()
    assert "Your hand" in html
    assert all(card["name"] in html for card in hand(gotm_table, 0))
    assert not any(card["name"] in html for card in hand(gotm_table, 1))
    assert not any(f"&quot;{card['id']}&quot;" in html for card in hand(gotm_table, 1))


def test_the_public_view_shows_no_hand_and_the_gm_sees_both(client, world, gotm_table):
    client.force_login(world.gm.user)
    public = client.get(reverse("tabletop:public_table", args=[world.campaign.slug, gotm_table.pk])).content.decode()
    gm = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, gotm_table.pk])).content.decode()
    for seat in (0, 1):
        assert not any(card["name"] in public for card in hand(gotm_table, seat))
        assert all(card["name"] in gm for card in hand(gotm_table, seat))


def test_the_shopper_plays_a_button_and_the_table_moves_on(client, world, gotm_table):
    assert gotm_table.state["dealer"] == 0 and get_engine("gotm").to_act(gotm_table.state) == [1]
    client.force_login(world.ben.user)
    html = client.get(seat_url(gotm_table, 1)).content.decode()
    assert "Done shopping" in html
    response = client.post(seat_url(gotm_table, 1, "tabletop:seat_act"),
                           {"action": json.dumps({"type": "done", "seat": 1}), "version": 0,
                            "client_action_id": "t1"}, **HX)
    assert response.status_code == 200
    gotm_table.refresh_from_db()
    assert gotm_table.version == 1 and gotm_table.state["done"] == [False, True]


def test_the_form_seats_exactly_two_and_sets_the_series_game(world):
    assert TABLE_FORMS["gotm"] is GotmTableForm
    data = once(title="Duel", members=[world.ann.pk, world.ben.pk], series_game=3)
    form = GotmTableForm(data, campaign=world.campaign)
    assert form.is_valid(), form.errors
    assert form.engine_config() == {"series_game": 3}
    crowd = GotmTableForm({**data, "guests": "Cid"}, campaign=world.campaign)
    assert not crowd.is_valid()


def test_the_page_renders_for_every_viewer_in_every_phase(client, world, gotm_table):
    from tabletop.engines.kernel import SeededRng
    from tabletop.services.tables import table_play

    engine, chooser, table = get_engine("gotm"), SeededRng("pages"), gotm_table
    seen = set()
    pages = [(world.gm, reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])),
             (world.gm, reverse("tabletop:public_table", args=[world.campaign.slug, table.pk])),
             (world.ann, seat_url(table, 0)), (world.ben, seat_url(table, 1))]
    for _ in range(600):
        phase = table.state["phase"]
        if phase not in seen:
            seen.add(phase)
            for member, url in pages:
                client.force_login(member.user)
                assert client.get(url).status_code == 200
        if phase == "over":
            break
        action = chooser.choice(engine.legal_actions(table.state))
        table = table_play(table_id=table.pk, seat=action["seat"], action=action, version=table.version,
                           client_action_id="").table
    assert seen >= {"recruit", "squad", "combat", "over"}
