"""The dungeon table page: each seat sees its own hands only; buttons post legal actions; the form."""

import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.forms import TABLE_FORMS, DungeonTableForm
from tabletop.models import DungeonCard
from tabletop.services.tables import SeatSpec, table_create

from tests.forms import once

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dungeon_table(world):
    return table_create(campaign=world.campaign, game="dungeon", title="Distelblute Mansion",
                        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                        config={"mode": "competitive", "variant": "pairs"}, seed=5)


def seat_url(table, index, name="tabletop:seat_table"):
    return reverse(name, args=[table.seats.get(index=index).token])


def hands(table, seat):
    mercs = get_engine("dungeon").view(table.state, "gm")["mercs"]
    return [card["id"] for m in mercs if m["seat"] == seat for card in m["hand"]]


def test_a_seat_sees_its_own_hands_and_never_the_others(client, world, dungeon_table):
    client.force_login(world.ann.user)
    html = client.get(seat_url(dungeon_table, 0)).content.decode()
    assert html.count("Your hand") == 2  # two mercenaries each in a two-player game
    assert all(f'data-card="{card}"' in html for card in hands(dungeon_table, 0))
    assert not any(card in html for card in hands(dungeon_table, 1))
    assert "Battle area" in html and "Health " in html and "EXP " in html and "deck 6" in html
    assert "What happened" in html and "The Distelblute Mansion" in html  # the log, through the shared partial


def test_the_public_view_shows_no_hand_and_the_gm_sees_all(client, world, dungeon_table):
    client.force_login(world.gm.user)
    public = client.get(reverse("tabletop:public_table", args=[world.campaign.slug, dungeon_table.pk])).content.decode()
    gm = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, dungeon_table.pk])).content.decode()
    for seat in (0, 1):
        assert not any(card in public for card in hands(dungeon_table, seat))
        assert all(card in gm for card in hands(dungeon_table, seat))


def test_the_deciding_seat_plays_a_button_and_the_table_moves_on(client, world, dungeon_table):
    engine = get_engine("dungeon")
    seat = engine.to_act(dungeon_table.state)[0]
    member = [world.ann, world.ben][seat]
    action = engine.legal_actions(dungeon_table.state)[0]
    client.force_login(member.user)
    response = client.post(seat_url(dungeon_table, seat, "tabletop:seat_act"),
                           {"action": json.dumps(action), "version": 0, "client_action_id": "d1"}, **HX)
    assert response.status_code == 200
    dungeon_table.refresh_from_db()
    assert dungeon_table.version == 1


def test_the_page_renders_for_every_viewer_through_a_game(client, world, dungeon_table):
    from tabletop.engines.kernel import SeededRng
    from tabletop.services.tables import table_play

    engine, chooser, table = get_engine("dungeon"), SeededRng("pages"), dungeon_table
    pages = [(world.gm, reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])),
             (world.gm, reverse("tabletop:public_table", args=[world.campaign.slug, table.pk])),
             (world.ann, seat_url(table, 0)), (world.ben, seat_url(table, 1))]
    seen = set()
    for _ in range(400):
        key = table.state["pending"]["type"] if table.state["pending"] else table.state["phase"]
        if key not in seen:
            seen.add(key)
            for member, url in pages:
                client.force_login(member.user)
                assert client.get(url).status_code == 200
        if engine.outcome(table.state):
            break
        action = chooser.choice(engine.legal_actions(table.state))
        table = table_play(table_id=table.pk, seat=action["seat"], action=action, version=table.version,
                           client_action_id="").table
    assert {"place_monster", "enter", "mercs"} <= seen


def test_the_form_takes_the_rulebooks_game_types(world):
    call_command("load_starter_dungeon", verbosity=0)
    assert TABLE_FORMS["dungeon"] is DungeonTableForm
    data = once(title="Mansion", members=[world.ann.pk, world.ben.pk], mode="cooperative", variant="pairs")
    form = DungeonTableForm(data, campaign=world.campaign)
    assert form.is_valid(), form.errors
    config = form.engine_config()
    assert config["mode"] == "cooperative" and config["variant"] == "pairs" and not config["deck_master"]
    assert {c["code"] for c in config["cards"]} >= {"goblin", "orc-champion", "basic-melee", "tripwire"}
    bad = DungeonTableForm({**data, "deck_master": "on"}, campaign=world.campaign)
    assert not bad.is_valid()
    trio = DungeonTableForm({**data, "guests": "Cid", "deck_master": "on"}, campaign=world.campaign)
    assert trio.is_valid(), trio.errors
    five = DungeonTableForm({**data, "guests": "Cid\nDee\nEve"}, campaign=world.campaign)
    assert not five.is_valid()


def test_the_starter_catalog_is_labelled_and_reloads_idempotently(world):
    call_command("load_starter_dungeon", verbosity=0)
    count = DungeonCard.objects.count()
    assert count > 20 and set(DungeonCard.objects.values_list("source", flat=True)) == {"starter"}
    assert set(DungeonCard.objects.values_list("kind", flat=True)) == {
        "monster", "skill", "ability", "area_feature", "ambush", "mercenary"}
    call_command("load_starter_dungeon", verbosity=0)
    assert DungeonCard.objects.count() == count


def test_the_admin_lists_imports_and_exports_dungeon_cards(client, world, admin_user):
    call_command("load_starter_dungeon", verbosity=0)
    client.force_login(admin_user)
    listing = client.get(reverse("admin:tabletop_dungeoncard_changelist"))
    assert listing.status_code == 200 and "Goblin" in listing.content.decode()
    exported = client.get(reverse("admin:tabletop_dungeoncard_export", args=["json"]))
    assert exported.status_code == 200
    rows = json.loads(exported.content)["rows"]
    assert any(row["code"] == "orc-champion" and row["stats"]["champion"] for row in rows)


def test_a_catalog_row_with_an_unknown_effect_is_refused_and_nothing_is_imported(world):
    from tabletop.catalog import DUNGEON_CARDS, CatalogImportError, catalog_import

    good = {"code": "bat", "kind": "monster", "name": "Bat", "text": "", "active": True,
            "stats": {"type": "melee", "health": 1, "melee": 1, "ranged": 0, "defence": 0, "exp": 1, "mvp": 1}}
    bad = {**good, "code": "imp", "name": "Imp", "stats": {**good["stats"], "blue_effect": "fly"}}
    with pytest.raises(CatalogImportError) as refused:
        catalog_import(spec=DUNGEON_CARDS, rows=[(1, good), (2, bad)])
    assert "'fly'" in str(refused.value.errors) and not DungeonCard.objects.filter(code__in=["bat", "imp"]).exists()


def test_a_waiting_seat_plays_its_own_potion_from_its_phone(client, world, dungeon_table):
    from tabletop.engines.dungeon.testing import arranged

    state = arranged(config={"players": ["Ann", "Ben"], "variant": "pairs", "mode": "competitive"},
                     monsters=[("goblin", (1, 0))], hands={0: ["basic-melee"], 1: ["healing-potion"]},
                     health={1: 10})
    dungeon_table.state = state
    dungeon_table.save()
    potion = state["mercs"][1]["hand"][0]
    client.force_login(world.ann.user)
    ann = client.get(seat_url(dungeon_table, 0)).content.decode()
    assert "End turn" in ann and "Play Healing Potion" not in ann  # Ann's turn; the potion is Ben's
    client.force_login(world.ben.user)
    ben = client.get(seat_url(dungeon_table, 1)).content.decode()
    assert "At any time" in ben and "Play Healing Potion" in ben and "End turn" not in ben
    action = next(a for a in get_engine("dungeon").legal_actions(state) if a.get("card") == potion)
    response = client.post(seat_url(dungeon_table, 1, "tabletop:seat_act"),
                           {"action": json.dumps(action), "version": dungeon_table.version, "client_action_id": "p1"},
                           **HX)
    assert response.status_code == 200
    dungeon_table.refresh_from_db()
    assert dungeon_table.state["mercs"][1]["health"] == 13 and get_engine("dungeon").to_act(dungeon_table.state) == [0]


def test_squares_to_choose_can_be_tapped_on_the_board_by_the_deciding_seat_only(client, world, dungeon_table):
    from tabletop.engines.kernel import SeededRng

    engine = get_engine("dungeon")
    state = engine.setup({"players": ["Ann", "Ben"], "mode": "competitive", "variant": "pairs"}, SeededRng(5))
    assert state["pending"]["type"] == "place_monster"  # two centre squares tie: the First Player picks
    dungeon_table.state = state
    dungeon_table.save()
    seat = engine.to_act(state)[0]
    squares = [a for a in engine.legal_actions(state) if a["seat"] == seat and ("square" in a or a["type"] == "enter")]
    assert len(squares) == 2
    pages = {}
    for index, member in enumerate([world.ann, world.ben]):
        client.force_login(member.user)
        pages[index] = client.get(seat_url(dungeon_table, index)).content.decode()
    assert pages[seat].count('class="square-tap') == len(squares)
    # each square's name starts with what it shows ("Enter here", "Choose this square"), then the move (issue 38)
    names = re.findall(r'class="square-tap[^"]*"[^>]*aria-label="([^"]*)">([^<]*)</button>', pages[seat])
    assert all(name.startswith(shown + ": ") for name, shown in names)
    assert sorted(name.split(": ", 1)[1] for name, _ in names) == sorted(a["label"] for a in squares)
    assert 'class="square-tap' not in pages[1 - seat]


def test_status_effects_show_on_the_mercenary_and_the_monster(client, world, dungeon_table):
    state = dungeon_table.state
    state["mercs"][0]["status"] = {"poison": {"amount": 1, "turns": 2}}
    if state["board"]:
        state["board"][0]["status"] = {"webbed": {"amount": 0, "turns": 1}}
    dungeon_table.state = state
    dungeon_table.save(update_fields=["state"])
    client.force_login(world.ann.user)
    html = client.get(seat_url(dungeon_table, 0)).content.decode()
    assert "poisoned (2 turns left)" in html
    assert not state["board"] or "webbed (1 turn left)" in html
