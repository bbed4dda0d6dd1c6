"""The Army table at the table: the GM's tablet, a commander's phone, the public view.

Ann (seat 0, Lady Vey, Master of Arms) and Ben (seat 1, Captain Orrin, Tactician)
hold cards with different names, so a name on the wrong page is a leak.
"""

import html
import json
import re

import pytest
from django.urls import reverse

from tabletop.engines import army
from tabletop.engines.kernel import GM, IllegalAction, ScriptedRng
from tabletop.models import TableAction
from tabletop.services.tables import SeatSpec, table_create, table_play

from tests.cards import names_card
from tests.tabletop._army import (
    ANN,
    ANN_UNITS,
    BEN,
    BEN_UNITS,
    army_table,
    decline_reactions,
    play,
    revealed,
    to_anns_offense,
)

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
ACTION_VALUE = re.compile(r'name="action" value="([^"]*)"')


def seat_url(table, index, name="tabletop:seat_table"):
    return reverse(name, args=[table.seats.get(index=index).token])


def gm_url(table, name="tabletop:gm_table"):
    return reverse(name, args=[table.campaign.slug, table.pk])


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def posted_actions(body):
    return [json.loads(html.unescape(value)) for value in ACTION_VALUE.findall(body)]


def names(cards):
    return [army.STARTER_UNITS[[u["code"] for u in army.STARTER_UNITS].index(code)]["name"] for code in cards]


# --- the GM's tablet -------------------------------------------------------------------


def test_the_gm_sees_both_hands_morale_with_base_apart_choices_and_overrides(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.gm.user)
    body = page(client, gm_url(table))
    assert all(name in body for name in names(ANN_UNITS) + names(BEN_UNITS))
    ben = army.view(table.state, GM)["commanders"][BEN]
    assert ben["base_morale"] == 2
    assert (f'<span class="stat-value">{ben["own_morale"]}</span><span class="stat-label">Morale</span>' in body)
    assert '<span class="stat-value">2</span><span class="stat-label">Base</span>' in body
    assert "Play Heavy Cavalry (Strength 4, Aggressor) on Offense" in body and "Pass (lose 1 Morale)" in body
    for override in ("gm_modifier", "gm_set_dice", "gm_move_card", "gm_morale"):
        assert f'name="type" value="{override}"' in body
    assert 'name="as_seat" value="0"' in body  # hot seat: the GM enters Ann's decision


def test_the_odds_appear_once_the_skirmish_is_revealed(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.gm.user)
    assert "Odds before the dice" not in page(client, gm_url(table))
    table = revealed(table)
    body = page(client, gm_url(table))
    odds = army.view(table.state, GM)["odds"]
    assert "Odds before the dice" in body and "Offense wins" in body and "Defense Killed" in body
    assert f'{odds["offense_wins"]["p"] * 100:.1f}%' in body
    assert body.count('class="bar-label"') == len(odds["margin"])


def test_the_gm_picks_the_face_down_cards_of_both_commanders(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.gm.user)
    for seat, card in ((ANN, "s0-2"), (BEN, "s1-3")):
        body = page(client, gm_url(table))
        action = next(a for a in posted_actions(body) if a.get("card") == card and a["type"] == "play")
        response = client.post(
            gm_url(table, "tabletop:gm_act"),
            {"action": json.dumps(action), "as_seat": seat, "version": table.version, "client_action_id": card},
            **HX,
        )
        assert response.status_code == 200
        table.refresh_from_db()
    skirmish = table.state["skirmish"]
    assert (skirmish["offense"]["card"], skirmish["defense"]["card"]) == ("s0-2", "s1-3")
    assert TableAction.objects.filter(table=table).latest("seq").user == world.gm.user


# --- a commander's phone -------------------------------------------------------------


def test_a_commander_sees_their_hand_and_buttons_only_on_their_decision(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.ann.user)
    ann = page(client, seat_url(table, ANN))
    assert all(name in ann for name in names(ANN_UNITS))
    assert not any(name in ann for name in names(BEN_UNITS))
    assert "Your decision" in ann and "Pass (lose 1 Morale)" in ann
    assert "as Aggressor" in ann  # the Master of Arms may play the Field Surgeon as an Aggressor
    assert {a["type"] for a in posted_actions(ann)} == {"play", "pass", "ritual"}
    client.force_login(world.ben.user)
    ben = page(client, seat_url(table, BEN))
    assert posted_actions(ben) == [] and "Waiting" in ben
    assert not any(name in ben for name in names(ANN_UNITS))


def test_a_face_down_card_is_hidden_from_the_other_commander_until_revealed(client, world):
    table = to_anns_offense(army_table(world))
    table = play(table, lambda a: a["type"] == "play" and a["card"] == "s0-1")
    client.force_login(world.ann.user)
    assert "Heavy Cavalry" in page(client, seat_url(table, ANN))  # her own card, face down
    client.force_login(world.ben.user)
    hidden_pages = [
        page(client, seat_url(table, BEN)),
        client.get(seat_url(table, BEN, "tabletop:seat_poll"), {"v": 0}, **HX).content.decode(),
        page(client, gm_url(table, "tabletop:public_table")),
        client.get(gm_url(table, "tabletop:public_poll"), {"v": 0}, **HX).content.decode(),
    ]
    for body in hidden_pages:
        assert "Heavy Cavalry" not in body and not names_card(body, "s0-1")
        assert "Face down" in body
    table = play(table, lambda a: a["type"] == "play" and a["card"] == "s1-1")
    body = page(client, seat_url(table, BEN))
    assert "Heavy Cavalry" in body and "Treant" in body


def test_a_phone_posts_the_json_of_its_button(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.ann.user)
    action = next(a for a in posted_actions(page(client, seat_url(table, ANN))) if a.get("role") == "aggressor")
    response = client.post(
        seat_url(table, ANN, "tabletop:seat_act"),
        {"action": json.dumps(action), "version": table.version, "client_action_id": "tap-1"},
        **HX,
    )
    assert response.status_code == 200
    before = table.version
    table.refresh_from_db()
    assert table.version == before + 1
    assert table.state["skirmish"]["offense"] == {
        "card": "s0-3", "role": "aggressor", "role_source": "master_of_arms", "revealed": False
    }
    assert "only you see it" in response.content.decode()


def test_a_phone_cannot_decide_for_the_other_commander(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.ben.user)
    response = client.post(
        seat_url(table, BEN, "tabletop:seat_act"),
        {"action": json.dumps({"type": "play", "seat": ANN, "card": "s0-1"}), "version": table.version},
        **HX,
    )
    assert response.status_code == 400 and "not Captain Orrin&#x27;s decision" in response.content.decode()


# --- physical dice and overrides -----------------------------------------------------------


def test_physical_dice_are_entered_by_the_gm_refused_with_the_engines_sentence(client, world):
    table = decline_reactions(revealed(army_table(world, dice="physical")))
    assert table.state["step"]["kind"] == "dice"
    client.force_login(world.gm.user)
    body = page(client, gm_url(table))
    assert body.count('name="values:ints"') == 2 + 1  # one per die, and the set-dice override
    assert "<span>Heavy Cavalry (Offense) d6</span>" in body and "<span>Treant (Defense) d6</span>" in body
    url = gm_url(table, "tabletop:gm_act")
    fields = {"type": "roll", "as_seat": "gm", "version": table.version}
    wrong = client.post(url, {**fields, "values:ints": ["5", "7"]}, **HX)
    assert wrong.status_code == 400 and "Dice show 1 to 6; 7 is not a die roll." in wrong.content.decode()
    short = client.post(url, {**fields, "values:ints": ["5"]}, **HX)
    assert short.status_code == 400 and "This roll needs 2 dice" in html.unescape(short.content.decode())
    right = client.post(url, {**fields, "values:ints": ["5", "1"], "client_action_id": "dice"}, **HX)
    assert right.status_code == 200
    table.refresh_from_db()
    assert table.state["skirmish"]["dice"] == {"offense": [5], "defense": [1]}


def test_a_gm_morale_override_is_applied_and_logged(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.gm.user)
    before = army.view(table.state, GM)["commanders"][ANN]["morale"]
    response = client.post(
        gm_url(table, "tabletop:gm_act"),
        {"type": "gm_morale", "target:int": "0", "amount:int": "-1", "as_seat": "gm", "version": table.version},
        **HX,
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert army.view(table.state, GM)["commanders"][ANN]["morale"] == before - 1
    logged = TableAction.objects.filter(table=table).latest("seq")
    assert logged.seat == "gm" and logged.action == {"type": "gm_morale", "target": 0, "amount": -1, "seat": "gm"}
    assert "loses 1 Morale (GM)" in response.content.decode()


def test_a_gm_modifier_shows_in_the_breakdown_with_its_source(client, world):
    table = revealed(army_table(world))
    client.force_login(world.gm.user)
    response = client.post(
        gm_url(table, "tabletop:gm_act"),
        {"type": "gm_modifier", "side": "defense", "amount:int": "2", "as_seat": "gm", "version": table.version},
        **HX,
    )
    assert response.status_code == 200
    assert re.search(r'<span class="what">GM</span><span class="num">\+2</span>', response.content.decode())


def test_a_typed_number_that_is_not_one_is_refused_with_a_sentence(client, world):
    table = to_anns_offense(army_table(world))
    client.force_login(world.gm.user)
    response = client.post(
        gm_url(table, "tabletop:gm_act"),
        {"type": "gm_morale", "target:int": "0", "amount:int": "lots", "as_seat": "gm", "version": table.version},
        **HX,
    )
    assert response.status_code == 400
    assert "Enter a whole number for amount; &#x27;lots&#x27; is not one." in response.content.decode()


def test_the_engine_accepts_dice_typed_as_text():
    config = army.starter_config(units=(ANN_UNITS, BEN_UNITS), dice="physical")
    state = army.setup(config, ScriptedRng([ANN]))
    while state["step"]["kind"] != "dice":
        state = army.apply(state, next(_scripted_choice(state)), ScriptedRng([]))
    for typed in ("5 1", "5,1", " 5 , 1 ", ["5", "1"]):
        after = army.apply(state, {"type": "roll", "seat": GM, "values": typed}, ScriptedRng([]))
        assert after["skirmish"]["dice"] == {"offense": [5], "defense": [1]}
    refused = (("5", "needs 2 dice"), ("5 x", "'x' is not a die roll"), ("5 9", "9 is not a die roll"),
               ("51", "51 is not one die"))
    for typed, sentence in refused:
        with pytest.raises(IllegalAction, match=sentence):
            army.apply(state, {"type": "roll", "seat": GM, "values": typed}, ScriptedRng([]))


def _scripted_choice(state):
    for action in army.legal_actions(state):
        if action["type"] in ("decline", "choose_first") or (action["type"] == "play" and "role" not in action):
            yield action


# --- the resolution, step by step ------------------------------------------------------------


def test_the_breakdown_lists_strength_modifiers_dice_totals_margin_and_outcome(client, world):
    table = decline_reactions(revealed(army_table(world, dice="physical")))
    roll = {"type": "roll", "values": [5, 1]}
    table = table_play(table_id=table.pk, seat=GM, action=roll, version=table.version).table
    table = decline_reactions(table)
    last = table.state["last"]
    assert last["margin"] == 5
    client.force_login(world.ben.user)
    body = page(client, seat_url(table, BEN))
    section = body[body.index('class="card army-resolution"'):]
    section = section[: section.index("</section>")]
    assert section.count('<span class="what">Base Strength</span><span class="num">4</span>') == 2
    assert '<span class="what">Master of Arms: Aggressor</span><span class="num">+1</span>' in section
    assert '<span class="die-face">5</span>' in section and '<span class="die-face">1</span>' in section
    assert '<span class="what">Total</span><span class="num">10</span>' in section
    assert '<span class="what">Total</span><span class="num">5</span>' in section
    assert "10 − 5 = <strong>+5</strong>" in section
    assert html.escape(last["result"], quote=True) in section


def test_the_army_gm_page_does_a_fixed_number_of_queries(client, world, django_assert_max_num_queries):
    table = to_anns_offense(army_table(world))
    client.force_login(world.gm.user)
    # two for the Undo button (the battle hook, an action left to undo), one for the page's links (the battle)
    with django_assert_max_num_queries(11):
        response = client.get(gm_url(table))
    assert response.status_code == 200 and "Result and luck report" not in response.content.decode()
    table = decline_reactions(revealed(table))
    with django_assert_max_num_queries(11):
        response = client.get(gm_url(table))
    assert response.status_code == 200 and '<nav class="table-links"' in response.content.decode()


# --- every page at every step of random battles ----------------------------------------------


@pytest.mark.parametrize("seed", [5, 8, 21])
def test_every_page_renders_at_every_step_and_never_shows_a_hidden_card_id(client, world, seed):
    import random

    rng = random.Random(seed)
    config = army.random_config(rng)
    config["dice"] = "physical" if seed % 2 else "app"
    table = table_create(
        campaign=world.campaign,
        game="army",
        title="Random battle",
        seats=[SeatSpec(guest_name="Ann"), SeatSpec(guest_name="Ben")],  # guests: one client opens every page
        config=config,
        seed=seed,
    )
    client.force_login(world.gm.user)
    gm_page, public_page = gm_url(table), gm_url(table, "tabletop:public_table")
    seat_pages = {seat: seat_url(table, seat) for seat in (ANN, BEN)}
    for _ in range(400):
        state = table.state
        bodies = {GM: page(client, gm_page), None: page(client, public_page)}
        bodies.update({seat: page(client, url) for seat, url in seat_pages.items()})
        for viewer, body in bodies.items():
            for card_id in army.hidden_from(state, viewer):
                assert not names_card(body, card_id), (viewer, card_id)
        deciding = army.to_act(state)
        if not deciding:
            assert state["phase"] == "over"
            assert all("The battle is over" in bodies[viewer] for viewer in (GM, None, ANN, BEN))
            break
        offered = posted_actions(bodies[GM])
        if state["step"]["kind"] == "dice":
            assert 'name="values:ints"' in bodies[GM]
        else:
            listed = sorted(json.dumps({k: v for k, v in a.items() if k != "label"}) for a in army.legal_actions(state))
            assert sorted(map(json.dumps, offered)) == listed  # every choice is a button, hot seat on the GM's page
            assert sorted(map(json.dumps, posted_actions(bodies[deciding[0]]))) == listed
            assert posted_actions(bodies[1 - deciding[0]]) == [] and posted_actions(bodies[None]) == []
        action = rng.choice(army.legal_actions(state))
        table = table_play(table_id=table.pk, seat=deciding[0], action=action, version=table.version).table
    assert table.state["phase"] == "over"


def test_an_attack_on_a_commander_unable_to_defend_shows_no_dice_and_no_unopposed(client, world):
    """Ruling AR3: "If a commander could play a card on Defense but does not, the attacker's unit is
    considered Unopposed"; a commander who cannot play is Unable, not Unopposed: no dice, no damage."""
    table = to_anns_offense(army_table(world))
    for card_id in list(table.state["piles"][BEN]["hand"]):
        move = {"type": "gm_move_card", "card": card_id, "to": "disabled"}
        table = table_play(table_id=table.pk, seat=GM, action=move, version=table.version).table
    table = play(table, lambda a: a["type"] == "play" and a["card"] == "s0-1" and "role" not in a)
    assert table.state["last"]["unable"] and table.state["piles"][ANN]["exhausted"] == ["s0-1"]
    client.force_login(world.ben.user)
    body = page(client, seat_url(table, BEN))
    section = body[body.index('class="card army-resolution"'):]
    section = section[: section.index("</section>")]
    assert "Unable: no card to play" in section and '<p class="army-empty">Unopposed</p>' not in section
    assert "+ dice" not in section and "<dt>Morale damage</dt>" not in section
    assert html.escape(table.state["last"]["result"], quote=True) in section
