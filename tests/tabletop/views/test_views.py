import re

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.models import Table, TableAction

from tests.counted import counted_get
from tests.tables import next_move, play_next

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def seat_url(table, index, name="tabletop:seat_table"):
    return reverse(name, args=[table.seats.get(index=index).token])


def gm_url(table, name="tabletop:gm_table"):
    return reverse(name, args=[table.campaign.slug, table.pk])


def card_names(cards):
    return [card["name"] for card in cards]


def gm_hand_cards(table, seat):
    return get_engine(table.game).view(table.state, "gm")["players"][seat]["hand"]


def test_a_seat_sees_its_own_hand_and_never_the_other_seats(client, world, table):
    client.force_login(world.ann.user)
    html = client.get(seat_url(table, 0)).content.decode()
    mine, theirs = gm_hand_cards(table, 0), gm_hand_cards(table, 1)
    assert all(name in html for name in card_names(mine))
    assert not any(name in html for name in card_names(theirs))
    assert not any(f'value="{card["id"]}"' in html for card in theirs)


def test_the_public_view_shows_no_hand(client, world, table):
    client.force_login(world.ann.user)
    html = client.get(gm_url(table, "tabletop:public_table")).content.decode()
    for seat in (0, 1):
        assert not any(name in html for name in card_names(gm_hand_cards(table, seat)))


def test_the_gm_sees_every_hand(client, world, table):
    client.force_login(world.gm.user)
    html = client.get(gm_url(table)).content.decode()
    for seat in (0, 1):
        assert all(name in html for name in card_names(gm_hand_cards(table, seat)))


def test_an_idle_poll_answers_204_with_one_table_query(client, world, table, django_assert_max_num_queries):
    client.force_login(world.ann.user)
    url = seat_url(table, 0, "tabletop:seat_poll")
    with django_assert_max_num_queries(4):
        response = client.get(url, {"v": table.version}, **HX)
    assert response.status_code == 204 and response.content == b""


def test_a_poll_after_a_move_returns_the_fresh_region(client, world, table):
    client.force_login(world.ann.user)
    play_next(table)
    response = client.get(seat_url(table, 0, "tabletop:seat_poll"), {"v": 0}, **HX)
    assert response.status_code == 200
    assert 'data-version="1"' in response.content.decode()


def post_move(client, table, index, version, client_action_id="c1"):
    seat, action = next_move(table)
    assert seat == index
    return client.post(
        seat_url(table, index, "tabletop:seat_act"),
        {**action, "version": version, "client_action_id": client_action_id},
        **HX,
    )


def acting_member(world, table):
    seat = get_engine(table.game).to_act(table.state)[0]
    return seat, (world.ann if seat == 0 else world.ben)


def test_a_player_plays_from_their_phone(client, world, table):
    seat, member = acting_member(world, table)
    client.force_login(member.user)
    response = post_move(client, table, seat, 0)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version == 1
    assert TableAction.objects.get(table=table).user == member.user


def test_a_double_tap_is_applied_once(client, world, table):
    seat, member = acting_member(world, table)
    client.force_login(member.user)
    first = post_move(client, table, seat, 0, "same-tap")
    second = client.post(
        seat_url(table, seat, "tabletop:seat_act"),
        {**next_move(Table.objects.get(pk=table.pk))[1], "version": 0, "client_action_id": "same-tap"},
        **HX,
    )
    assert first.status_code == 200 and second.status_code == 200
    assert TableAction.objects.filter(table=table).count() == 1


def test_a_stale_click_gets_409_with_the_fresh_table(client, world, table):
    seat, member = acting_member(world, table)
    client.force_login(member.user)
    post_move(client, table, seat, 0, "first")
    table.refresh_from_db()
    stale = client.post(seat_url(table, seat, "tabletop:seat_act"), {"type": "place", "version": 0}, **HX)
    assert stale.status_code == 409
    body = stale.content.decode()
    assert "moved on" in body and 'data-version="1"' in body


def test_an_illegal_move_gets_400_with_the_rules_reason(client, world, table):
    seat, member = acting_member(world, table)
    client.force_login(member.user)
    response = client.post(
        seat_url(table, seat, "tabletop:seat_act"),
        {"type": "place", "card": "no-such-card", "cell": "0,0", "version": 0},
        **HX,
    )
    assert response.status_code == 400
    assert 'class="msg error"' in response.content.decode()
    table.refresh_from_db()
    assert table.version == 0


def test_a_plain_form_post_redirects_back_to_the_page(client, world, table):
    seat, member = acting_member(world, table)
    client.force_login(member.user)
    _, action = next_move(table)
    response = client.post(seat_url(table, seat, "tabletop:seat_act"), {**action, "version": 0})
    assert response.status_code == 302 and response["Location"] == seat_url(table, seat)


def test_the_gm_enters_a_move_for_a_seat_in_hot_seat_mode(client, world, table):
    client.force_login(world.gm.user)
    seat, action = next_move(table)
    response = client.post(gm_url(table, "tabletop:gm_act"), {**action, "as_seat": seat, "version": 0}, **HX)
    assert response.status_code == 200
    assert TableAction.objects.get(table=table).seat == str(seat)


def test_the_gm_undoes_the_last_move_from_the_tablet(client, world, table):
    start = table.state
    table = play_next(table)
    client.force_login(world.gm.user)
    response = client.post(gm_url(table, "tabletop:gm_undo"), {"version": table.version}, **HX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.state == start and table.version == 2


def test_a_guest_seat_opens_with_its_secret_link_alone(client, world):
    from tests.factories import gridaris_table

    table = gridaris_table(world.campaign, [world.ann, "Gus the guest"])
    response = client.get(seat_url(table, 1))
    assert response.status_code == 200
    assert "Gus the guest" in response.content.decode()


def test_the_gm_page_shows_a_qr_code_for_guest_seats(client, world):
    from tests.factories import gridaris_table

    table = gridaris_table(world.campaign, [world.ann, "Gus the guest"])
    client.force_login(world.gm.user)
    html = client.get(gm_url(table)).content.decode()
    assert len(re.findall(r'<img class="qr" src="data:image/svg\+xml', html)) == 1
    assert table.seats.get(index=1).token in html


def test_players_get_the_log_only_when_the_game_is_over(client, world, table):
    client.force_login(world.ann.user)
    assert client.get(seat_url(table, 0, "tabletop:seat_log")).status_code == 403
    engine = get_engine(table.game)
    while engine.outcome(table.state) is None:
        table = play_next(table)
    response = client.get(seat_url(table, 0, "tabletop:seat_log"))
    assert response.status_code == 200 and response.json()["game"] == "gridaris"


def test_the_gm_downloads_a_log_that_replays(client, world, table):
    from tabletop.engines.replay import replay_log

    table = play_next(play_next(table))
    client.force_login(world.gm.user)
    response = client.get(gm_url(table, "tabletop:gm_log"))
    assert "attachment" in response["Content-Disposition"]
    assert replay_log(response.json()).mismatches == []


def test_the_table_page_does_a_fixed_number_of_queries(client, world, table):
    client.force_login(world.gm.user)
    counted_get(client, gm_url(table), queries=8, contains=[table.title, 'data-version="0"'])
    for _ in range(6):
        table = play_next(table)
    # two more for the Undo button: the stakes hook, an action left
    counted_get(client, gm_url(table), queries=10, contains=['data-version="6"', "Undo last action…"])


def test_a_button_can_post_its_legal_action_as_json(client, world, table):
    import json

    seat, member = acting_member(world, table)
    client.force_login(member.user)
    _, action = next_move(table)
    response = client.post(
        seat_url(table, seat, "tabletop:seat_act"), {"action": json.dumps(action), "version": 0}, **HX
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version == 1


def test_a_damaged_json_action_is_refused_with_a_sentence(client, world, table):
    seat, member = acting_member(world, table)
    client.force_login(member.user)
    response = client.post(seat_url(table, seat, "tabletop:seat_act"), {"action": "[1, 2", "version": 0}, **HX)
    assert response.status_code == 400 and "damaged" in response.content.decode()
