"""The GOT'M table page: each seat sees its own hand and never the other's; buttons post legal actions."""

import json
import re

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.engines.gotm import cards
from tabletop.forms import TABLE_FORMS, GotmTableForm
from tabletop.services.tables import SeatSpec, table_create

from tests.cards import names_card
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


# --- paying by tapping cards (issue 15, rulings M1, M22, M23) -----------------------------------

SORTED_DECKS = {"mercenaries": list(cards.MERCENARIES), "resources": list(cards.RESOURCES),
                "artifacts": list(cards.ARTIFACTS)}


@pytest.fixture
def sorted_table(world):
    """Sorted piles: Ben (seat 1) shops first with 2♣ 4♣ 6♣ 8♣ 10♣ 3♥ 5♥ 7♥ 9♥ 2♦ J♣; Ann holds
    3♣ 5♣ 7♣ 9♣ 2♥ 4♥ 6♥ 8♥ 10♥ 3♦ Q♣; the shop shows K♣ J♥ Q♥ and the A♣."""
    return table_create(campaign=world.campaign, game="gotm", title="Booty Bay duel",
                        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                        config={"series_game": 0, "decks": SORTED_DECKS}, seed=5)


def tap(client, table, card, picked, kind="hire", lost=0, cid="tap-1"):
    """What the phone posts after tapping ``picked`` in the hand and then ``card`` in the shop."""
    return client.post(seat_url(table, 1, "tabletop:seat_act"),
                       {"action": json.dumps({"type": kind, "seat": 1, "card": card, "lost": lost}),
                        "pay:list": picked, "version": table.version, "client_action_id": cid}, **HX)


def test_the_shoppers_phone_picks_cards_instead_of_a_button_per_payment(client, world, sorted_table):
    client.force_login(world.ben.user)
    html = client.get(seat_url(sorted_table, 1)).content.decode()
    assert html.count('name="pay:list"') == 11, "every card of Ben's hand is a box to tick"
    assert 'value="9H"' in html
    # the shop card's text, as a screen reader or the kept tap's bar reads it: what it shows, words apart, then the
    # label (issue 38: the visible words start the name)
    buttons = re.findall(r'<button[^>]*class="gotm-target".*?</button>', html, re.S)
    read = [" ".join(re.sub(r"<[^>]+>", "", button).split()) for button in buttons]
    assert any(text.startswith("J♥ Ogre Warrior (J♥) worth 11 Hire for 11: Hire the Ogre Warrior (J♥), worth 11")
               for text in read), read
    # the kept tap's bar names the move, not the card's face (static/js/outbox.js reads data-move-label)
    labels = [re.search(r'data-move-label="([^"]*)"', button).group(1) for button in buttons]
    assert any(label.startswith("Hire the Ogre Warrior (J♥), worth 11") for label in labels), labels
    assert "Buy the Gnoll artifact (A♣)" in html
    assert "Hire Ogre Warrior (J♥) with" not in html, "no button per payment any more"
    assert "Done shopping" in html and "Skip this turn" in html
    assert "static/js/cardpick.js" in html or "js/cardpick" in html
    for card in hand(sorted_table, 0):
        assert card["name"] not in html and f'value="{card["id"]}"' not in html
    client.force_login(world.ann.user)
    waiting = client.get(seat_url(sorted_table, 0)).content.decode()
    assert 'name="pay:list"' not in waiting, "only the shopper picks"


def test_a_legal_payment_tapped_on_the_phone_buys_at_once(client, world, sorted_table):
    client.force_login(world.ben.user)
    response = tap(client, sorted_table, "AC", ["10C"], kind="buy_artifact")
    assert response.status_code == 200
    sorted_table.refresh_from_db()
    assert sorted_table.version == 1 and "AC" in sorted_table.state["hands"][1]
    assert sorted_table.state["spent"] == ["10C"]


def test_an_illegal_payment_gets_a_sentence_keeps_the_picks_and_changes_nothing(client, world, sorted_table):
    before = dict(sorted_table.state)
    client.force_login(world.ben.user)
    response = tap(client, sorted_table, "JH", ["3H", "2C"])
    assert response.status_code == 400
    html = response.content.decode()
    assert "2♣ cannot pay for the Ogre Warrior (J♥): it is paid with Ogre (♥) resources" in html
    assert 'value="3H" data-short="3♥" data-value="3" checked' in html, "the picks stay picked"
    assert 'value="5H" data-short="5♥" data-value="5">' in html
    sorted_table.refresh_from_db()
    assert sorted_table.version == 0 and sorted_table.state == before
    assert not any(card["name"] in html for card in hand(sorted_table, 0))


def test_a_payment_with_excess_says_what_is_lost_before_it_is_made(client, world, sorted_table):
    client.force_login(world.ben.user)
    response = tap(client, sorted_table, "JH", ["5H", "9H"])
    assert response.status_code == 400
    html = response.content.decode()
    assert ("Paying 5♥ 9♥ makes 14 for the Ogre Warrior (J♥), which costs 11: 3 over the price is lost. "
            "3♥ 9♥ would lose only 1.") in html
    assert "Pay 5♥ 9♥ and lose 3" in html
    sorted_table.refresh_from_db()
    assert sorted_table.version == 0 and "JH" in sorted_table.state["shop"]["mercenaries"]
    confirm = json.dumps({"type": "hire", "seat": 1, "card": "JH", "pay": ["5H", "9H"], "lost": 3})
    assert confirm.replace('"', "&quot;").replace(" ", "") in html.replace(" ", "")
    done = client.post(seat_url(sorted_table, 1, "tabletop:seat_act"),
                       {"action": confirm, "version": 0, "client_action_id": "confirm-1"}, **HX)
    assert done.status_code == 200
    sorted_table.refresh_from_db()
    assert "JH" in sorted_table.state["hands"][1] and sorted_table.state["spent"] == ["5H", "9H"]
    assert "(3 lost)" in sorted_table.state["events"][-1]


def test_without_javascript_the_picked_form_posts_and_redirects(client, world, sorted_table):
    client.force_login(world.ben.user)
    response = client.post(seat_url(sorted_table, 1, "tabletop:seat_act"),
                           {"action": json.dumps({"type": "hire", "seat": 1, "card": "JH", "lost": 0}),
                            "pay:list": ["3H", "AD"], "version": 0, "client_action_id": "plain-1"})
    assert response.status_code == 400 and "A♦ is not in your hand" in response.content.decode()
    swap = client.post(seat_url(sorted_table, 1, "tabletop:seat_act"),
                       {"action": json.dumps({"type": "hire", "seat": 1, "card": "JH", "lost": 0}),
                        "pay:list": ["JC"], "version": 0, "client_action_id": "plain-2"})
    assert swap.status_code == 302, "a mercenary picked alone swaps for the tapped one"
    sorted_table.refresh_from_db()
    assert "JH" in sorted_table.state["hands"][1] and sorted_table.state["shop"]["mercenaries"] == ["KC", "JC", "QH"]


def test_the_gm_picks_for_the_shopping_seat(client, world, sorted_table):
    client.force_login(world.gm.user)
    url = reverse("tabletop:gm_table", args=[world.campaign.slug, sorted_table.pk])
    html = client.get(url).content.decode()
    assert html.count('name="pay:list"') == 11 and 'name="as_seat" value="1"' in html
    act = reverse("tabletop:gm_act", args=[world.campaign.slug, sorted_table.pk])
    response = client.post(act, {"action": json.dumps({"type": "buy_artifact", "card": "AC", "lost": 0}),
                                 "as_seat": 1, "pay:list": ["10C"], "version": 0, "client_action_id": "gm-1"}, **HX)
    assert response.status_code == 200
    sorted_table.refresh_from_db()
    assert "AC" in sorted_table.state["hands"][1]


def test_squads_are_placed_by_tapping_the_cards_one_at_a_time(client, world, sorted_table):
    from tabletop.services.tables import table_play

    for seat, version in ((1, 0), (0, 1)):
        table_play(table_id=sorted_table.pk, seat=seat, action={"type": "done"}, version=version,
                   client_action_id="")
    sorted_table.refresh_from_db()
    assert sorted_table.state["phase"] == "squad"
    client.force_login(world.ben.user)
    html = client.get(seat_url(sorted_table, 1)).content.decode()
    assert "Place your squad: card 1 of 3" in html
    assert html.count("gotm-target choice-deploy") == 11, "each card of Ben's hand is one tap"
    assert 'Place</span><span class="visually-hidden">: Place Gnoll Brute (J♣) at position 1' in html
    for card in hand(sorted_table, 0):
        assert card["name"] not in html
    response = client.post(seat_url(sorted_table, 1, "tabletop:seat_act"),
                           {"action": json.dumps({"type": "deploy", "seat": 1, "card": "JC"}), "version": 2,
                            "client_action_id": "place-1"}, **HX)
    assert response.status_code == 200 and "Place your squad: card 2 of 3" in response.content.decode()
    client.force_login(world.ann.user)
    ann = client.get(seat_url(sorted_table, 0)).content.decode()
    assert "Gnoll Brute (J♣)" not in ann and "Place your squad: card 1 of 3" in ann


def test_a_refused_pick_tells_nothing_of_the_other_hand(client, world, sorted_table):
    """Picking Ann's 5♣ or a bank card gets the same sentence: the refusal never says where a card is."""
    client.force_login(world.ben.user)
    theirs = tap(client, sorted_table, "KC", ["10C", "5C"], cid="spy-1").content.decode()
    bank = tap(client, sorted_table, "KC", ["10C", "4D"], cid="spy-2").content.decode()
    assert "5♣ is not in your hand: pay with cards of your hand." in theirs
    assert "4♦ is not in your hand: pay with cards of your hand." in bank
    for html in (theirs, bank):
        assert not any(card["name"] in html for card in hand(sorted_table, 0))
        assert not any(f'value="{card["id"]}"' in html for card in hand(sorted_table, 0))


def test_an_artifact_is_equipped_by_tapping_the_card_that_wears_it(client, world, sorted_table):
    from tabletop.services.tables import table_play

    table = sorted_table
    moves = [(1, {"type": "buy_artifact", "card": "AC", "pay": ["10C"]}), (0, {"type": "done"}),
             (1, {"type": "done"})]
    for ben, ann in (("JC", "QC"), ("2C", "3C"), ("4C", "5C")):
        moves += [(1, {"type": "deploy", "card": ben}), (0, {"type": "deploy", "card": ann})]
    for seat, action in moves:
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version,
                           client_action_id="").table
    assert table.state["phase"] == "equip"
    client.force_login(world.ben.user)
    html = client.get(seat_url(table, 1)).content.decode()
    assert html.count("gotm-target choice-equip") == 3, "the A♣ may go on each of Ben's three Gnolls"
    assert '<span class="gotm-verb">Wear it</span><span class="visually-hidden">: Equip J♣ with A♣</span>' in html
    client.force_login(world.ann.user)
    assert "choice-equip" not in client.get(seat_url(table, 0)).content.decode()
    client.force_login(world.ben.user)
    response = client.post(seat_url(table, 1, "tabletop:seat_act"),
                           {"action": json.dumps({"type": "equip", "seat": 1, "card": "AC", "slot": 0}),
                            "version": table.version, "client_action_id": "equip-1"}, **HX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.state["squads"][1][0]["artifact"] == "AC" and table.state["phase"] == "combat"


# --- a Coordinated Assault by tapping cards (issue 15, ruling M24) ------------------------------

@pytest.fixture
def assault_table(sorted_table):
    """Combat, Ann (seat 0) to attack: her Q♣ 7♣ 9♣ against Ben's J♣ 2♣ 4♣, no tank."""
    from tabletop.services.tables import table_play

    table = sorted_table
    moves = [(1, {"type": "done"}), (0, {"type": "done"})]
    for ben, ann in (("JC", "QC"), ("2C", "7C"), ("4C", "9C")):
        moves += [(1, {"type": "deploy", "card": ben}), (0, {"type": "deploy", "card": ann})]
    for seat, action in moves:
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version,
                           client_action_id="").table
    assert table.state["phase"] == "combat" and table.state["turn"] == 0
    return table


def assault(client, table, picks, cid="assault-1"):
    return client.post(seat_url(table, 0, "tabletop:seat_act"),
                       {"action": json.dumps({"type": "assault", "seat": 0}), "picks:list": picks,
                        "version": table.version, "client_action_id": cid}, **HX)


def test_a_coordinated_assault_is_composed_by_tapping_the_cards(client, world, assault_table):
    table, version = assault_table, assault_table.version
    client.force_login(world.ann.user)
    html = client.get(seat_url(table, 0)).content.decode()
    assert html.count('name="picks:list"') == 5, "her two elites and Ben's three living cards"
    assert 'value="7C"' in html and 'value="JC"' in html and 'value="QC" data-short' not in html
    client.force_login(world.ben.user)
    assert 'name="picks:list"' not in client.get(seat_url(table, 1)).content.decode(), "only the attacker taps"
    client.force_login(world.ann.user)
    response = assault(client, table, ["7C", "9C", "2C"])
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version == version + 1
    assert any("launches a Coordinated Assault" in line for line in map(str, table.state["events"]))
    assert table.state["pending"]["attack"] == {"type": "assault", "seat": 0, "attackers": [1, 2], "targets": [1, 1]}


def test_a_refused_assault_keeps_the_picks_and_an_ambiguous_one_offers_both_pairings(client, world, assault_table):
    table, version, before = assault_table, assault_table.version, assault_table.state
    client.force_login(world.ann.user)
    refused = assault(client, table, ["7C", "2C"])
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Tap two of your ready elites of one race (you picked 1)" in html
    assert 'value="7C" data-short="7♣" data-value="" checked' in html
    assert 'value="2C" data-short="2♣" data-value="" checked' in html
    assert 'value="9C" data-short="9♣" data-value="">' in html
    table.refresh_from_db()
    assert table.version == version and table.state == before
    hidden = assault(client, table, ["7C", "9C", "8C"], cid="assault-hidden").content.decode()
    assert "A picked card is not on the battlefield" in hidden
    assert "8♣" not in hidden and not names_card(hidden, "8C"), "a card of Ben's hand is never named, nor echoed"
    both = assault(client, table, ["7C", "9C", "2C", "4C"], cid="assault-2").content.decode()
    assert "tap which elite attacks which card" in both
    assert "Coordinated Assault: 7♣ on 2♣, 9♣ on 4♣" in both and "Coordinated Assault: 7♣ on 4♣, 9♣ on 2♣" in both
    table.refresh_from_db()
    assert table.state == before
    response = client.post(seat_url(table, 0, "tabletop:seat_act"),
                           {"action": json.dumps({"type": "assault", "seat": 0, "attackers": [1, 2],
                                                  "targets": [2, 1]}),
                            "version": table.version, "client_action_id": "assault-3"}, **HX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.state["squads"][1][1]["dead"] and table.state["squads"][1][2]["dead"]


def test_the_gm_taps_an_assault_for_the_attacking_seat(client, world, assault_table):
    table, version = assault_table, assault_table.version
    client.force_login(world.gm.user)
    gm_url = reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])
    html = client.get(gm_url).content.decode()
    assert html.count('name="picks:list"') == 5 and f"{table.state['players'][0]}: Coordinated Assault" in html
    public = client.get(reverse("tabletop:public_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert 'name="picks:list"' not in public, "the projector taps nothing"
    act_url = reverse("tabletop:gm_act", args=[world.campaign.slug, table.pk])
    response = client.post(act_url, {"action": json.dumps({"type": "assault", "seat": 0}), "as_seat": 0,
                                     "picks:list": ["7C", "9C", "JC"], "version": version,
                                     "client_action_id": "gm-assault"}, **HX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version == version + 1
    assert table.state["pending"]["attack"] == {"type": "assault", "seat": 0, "attackers": [1, 2], "targets": [0, 0]}
