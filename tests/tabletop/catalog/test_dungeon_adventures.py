"""Dungeon adventures as catalog data: the starter adventure, import/export, the form's choice, and a
second adventure made by import that plays a whole game (ruling D25)."""

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from tabletop.catalog import DUNGEON_ADVENTURES, DUNGEON_CARDS, CatalogImportError, catalog_import, export_json
from tabletop.catalog.files import read_upload
from tabletop.engines import get_engine
from tabletop.engines.dungeon.adventure import STARTER_ADVENTURE, reserve_problems
from tabletop.engines.dungeon.cards import starter_cards
from tabletop.engines.kernel import SeededRng
from tabletop.forms import DungeonTableForm
from tabletop.models import DungeonAdventure
from tabletop.services.tables import SeatSpec, table_create

from tests.forms import once

pytestmark = pytest.mark.django_db

SPIDER = {"code": "giant-spider", "kind": "monster", "name": "Giant Spider", "text": "Poisons what it bites.",
          "stats": {"type": "melee", "champion": False, "health": 3, "melee": 2, "ranged": 0, "defence": 0,
                    "exp": 1, "mvp": 1, "copies": 8, "status": "poison", "status_amount": 1, "status_turns": 2}}
SPIDER_AMBUSH = {"code": "ambush-spider", "kind": "ambush", "name": "Ambush!! – Spiders!", "text": "",
                 "stats": {"summons": ["giant-spider", "giant-spider"], "copies": 1}}
CELLAR = {
    "code": "spider-cellar", "name": "The Spider Cellar", "text": "A small adventure made in the admin.",
    "monster_table": {key: {"giant-spider": 3, "goblin": 3} for key in
                      ("competitive-4", "competitive-3", "cooperative-4", "cooperative-3")},
    "ambush_top": ["ambush-spider"], "ambush_bottom": [], "champion": "",
    "starting_deck": [["basic-melee", 6], ["basic-block", 4], ["healing-potion", 2]],
    "resource": ["basic-melee", "advanced-melee", "basic-block", "healing-potion"],
    "area_features": {"empty-area": 2, "tripwire": 1},
}


def upload(spec, rows):
    document = json.loads(export_json(spec, spec.model.objects.none()))
    document["rows"] = [{**row, "active": True} for row in rows]
    parsed = read_upload(spec, "rows.json", json.dumps(document).encode())
    return catalog_import(spec=spec, rows=parsed.rows, unit=parsed.unit)


def form(world, **extra):
    data = once(title="Below", members=[world.ann.pk, world.ben.pk], guests="Cid", mode="competitive", **extra)
    return DungeonTableForm(data, campaign=world.campaign)


def test_the_starter_reserve_covers_every_ambush_in_every_game_type():
    # "To form the Reserve Monster Deck, take all the remaining Monster cards": 3 Goblin ambushes of two goblins
    # and 2 Goblin Archer ambushes with one need 8 goblins left after the co-operative table's 12.
    catalog = {c["code"]: c for c in starter_cards()}
    assert reserve_problems(STARTER_ADVENTURE, catalog) == []
    catalog["goblin"] = {**catalog["goblin"], "stats": {**catalog["goblin"]["stats"], "copies": 18}}
    problems = reserve_problems(STARTER_ADVENTURE, catalog)
    assert problems and problems[0].startswith("cooperative-4: the ambushes summon 8 Goblin but the reserve holds 6")


def test_the_starter_adventure_is_labelled_and_reloads_idempotently():
    call_command("load_starter_dungeon", verbosity=0)
    adventure = DungeonAdventure.objects.get()
    assert adventure.name == "The Distelblute Mansion" and adventure.source == "starter"
    assert adventure.text.startswith("STARTER DATA")
    call_command("load_starter_dungeon", verbosity=0)
    assert DungeonAdventure.objects.count() == 1


def test_with_one_adventure_the_form_asks_nothing_and_snapshots_it(world):
    call_command("load_starter_dungeon", verbosity=0)
    new = form(world)
    assert "adventure" not in new.fields and new.is_valid(), new.errors
    config = new.engine_config()
    assert config["adventure"]["name"] == "The Distelblute Mansion"
    state = get_engine("dungeon").setup({**config, "players": ["A", "B", "C"]}, SeededRng(1))
    assert state["adventure"] == "The Distelblute Mansion"


def test_a_second_adventure_made_by_import_is_chosen_in_the_form_and_plays_a_game(world):
    call_command("load_starter_dungeon", verbosity=0)
    upload(DUNGEON_CARDS, [SPIDER, SPIDER_AMBUSH])
    report = upload(DUNGEON_ADVENTURES, [CELLAR])
    assert report.created == 1 and DungeonAdventure.objects.get(code="spider-cellar").source == "imported"
    new = form(world, adventure="spider-cellar")
    assert dict(new.fields["adventure"].choices) == {
        "distelblute-mansion": "The Distelblute Mansion", "spider-cellar": "The Spider Cellar"}
    assert new.is_valid(), new.errors
    config = new.engine_config()
    table = table_create(campaign=world.campaign, game="dungeon", title="Below", seats=new.seat_specs(),
                         config=config, seed=4)
    engine, state, chooser = get_engine("dungeon"), table.state, SeededRng("cellar")
    assert state["adventure"] == "The Spider Cellar" and "The Spider Cellar: 3 mercenaries" in state["events"][0]
    dealt = {card.split("#")[0] for card in state["monster_deck"] + [m["id"] for m in state["board"]]}
    assert dealt <= {"giant-spider", "goblin", "ambush-spider"} and "giant-spider" in dealt
    assert set(state["stacks"]) == set(CELLAR["resource"])
    for _ in range(5000):
        if engine.outcome(state):
            break
        state = engine.apply(state, chooser.choice(engine.legal_actions(state)), SeededRng(len(state["events"])))
    assert engine.outcome(state) is not None


def test_an_adventure_of_the_wrong_shape_is_refused_at_import():
    broken = {**CELLAR, "monster_table": {"competitive-4": {"goblin": 3}}}
    with pytest.raises(CatalogImportError) as caught:
        upload(DUNGEON_ADVENTURES, [broken])
    assert "monster_table must hold exactly" in " ".join(caught.value.errors)
    assert not DungeonAdventure.objects.exists()


def test_an_adventure_dealing_cards_the_catalog_lacks_is_refused_when_the_table_opens(client, world):
    call_command("load_starter_dungeon", verbosity=0)
    upload(DUNGEON_ADVENTURES, [CELLAR])  # the spider cards were never imported
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "dungeon"])
    page = client.get(url).content.decode()
    assert "The Spider Cellar" in page and "The Distelblute Mansion" in page
    data = once(title="Below", members=[world.ann.pk, world.ben.pk], guests="Cid", mode="competitive",
                adventure="spider-cellar")
    response = client.post(url, data)
    assert response.status_code == 200
    assert "giant-spider" in response.content.decode() and "which the catalog does not hold" in \
        response.content.decode()


def test_the_admin_lists_and_exports_adventures(client, admin_user):
    call_command("load_starter_dungeon", verbosity=0)
    client.force_login(admin_user)
    listing = client.get(reverse("admin:tabletop_dungeonadventure_changelist"))
    assert listing.status_code == 200 and "The Distelblute Mansion" in listing.content.decode()
    exported = client.get(reverse("admin:tabletop_dungeonadventure_export", args=["json"]))
    rows = json.loads(exported.content)["rows"]
    assert rows[0]["code"] == "distelblute-mansion" and rows[0]["champion"] == "orc-champion"
    assert rows[0]["monster_table"]["cooperative-4"]["goblin"] == 12


def test_a_table_keeps_its_snapshot_when_the_adventure_is_edited(world):
    call_command("load_starter_dungeon", verbosity=0)
    new = form(world)
    assert new.is_valid()
    table = table_create(campaign=world.campaign, game="dungeon", title="Mansion",
                         seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                         config=new.engine_config(), seed=2)
    DungeonAdventure.objects.update(name="Renamed")
    table.refresh_from_db()
    assert table.config["adventure"]["name"] == "The Distelblute Mansion"


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_starter_adventure_survives_an_export_and_import_round_trip(fmt):
    from tabletop.catalog import export_csv, export_rows

    call_command("load_starter_dungeon", verbosity=0)
    exporter = export_csv if fmt == "csv" else export_json
    before = export_rows(DUNGEON_ADVENTURES, DungeonAdventure.objects.all())
    text = exporter(DUNGEON_ADVENTURES, DungeonAdventure.objects.all())
    DungeonAdventure.objects.all().delete()
    parsed = read_upload(DUNGEON_ADVENTURES, f"adventures.{fmt}", text.encode())
    catalog_import(spec=DUNGEON_ADVENTURES, rows=parsed.rows, unit=parsed.unit)
    assert export_rows(DUNGEON_ADVENTURES, DungeonAdventure.objects.all()) == before


def test_the_admin_button_loads_the_starter_adventure(client, admin_user):
    client.force_login(admin_user)
    response = client.post(reverse("admin:tabletop_dungeonadventure_load_starter"), follow=True)
    assert response.status_code == 200 and "Starter adventure loaded" in response.content.decode()
    assert DungeonAdventure.objects.get().code == "distelblute-mansion"
