"""Catalog files and hand edits are checked for everything an engine reads; CSV exports hold no formulas."""

import csv
import io
import json

import pytest
from django.urls import reverse

from armies.catalog import UNIT_CARDS, unit_catalog_import
from tabletop.catalog import (
    DUNGEON_CARDS,
    GRIDARIS_SCENARIOS,
    MERCENARIUM_HYMNS,
    CatalogImportError,
    catalog_import,
    export_csv,
    export_rows,
    read_upload,
)
from tabletop.catalog.starter_dungeon import dungeon_catalog_load_starter
from tabletop.models import DungeonCard, GridarisScenario, MercenariumHymn, Table

from tests.forms import once

pytestmark = pytest.mark.django_db
DUNGEON_HEADER = "code,kind,name,stats,text,active"


def import_file(spec, filename: str, text: str):
    upload = read_upload(spec, filename, text.encode())
    return catalog_import(spec=spec, rows=upload.rows, unit=upload.unit)


def import_errors(spec, filename: str, text: str) -> list[str]:
    with pytest.raises(CatalogImportError) as caught:
        import_file(spec, filename, text)
    return caught.value.errors


def dungeon_csv_line(code: str, stats: dict, kind: str = "monster") -> str:
    out = io.StringIO()
    csv.writer(out).writerow([code, kind, code.title(), json.dumps(stats), "", "true"])
    return out.getvalue().strip()


GOBLIN = {"type": "melee", "champion": False, "health": 2, "melee": 2, "ranged": 0, "defence": 0, "exp": 1, "mvp": 1}


# --- dungeon cards: every stat the engine reads ------------------------------------------------


@pytest.mark.parametrize("copies, reason", [("lots", "copies"), (200_000, "copies"), (-1, "copies"), (2.5, "copies")])
def test_a_dungeon_card_with_bad_copies_is_refused_naming_the_line_and_field(copies, reason):
    text = f"{DUNGEON_HEADER}\n{dungeon_csv_line('goblin', {**GOBLIN, 'copies': copies})}\n"
    errors = import_errors(DUNGEON_CARDS, "cards.csv", text)
    assert len(errors) == 1 and errors[0].startswith("line 2:") and reason in errors[0]
    assert not DungeonCard.objects.exists()


@pytest.mark.parametrize("stats, reason", [
    ({**GOBLIN, "health": "two"}, "health"),
    ({**GOBLIN, "type": ["melee"]}, "type"),
    ({**GOBLIN, "champion": "yes"}, "champion"),
    ({**GOBLIN, "secret": "x" * 100}, "secret"),
    ({k: v for k, v in GOBLIN.items() if k != "mvp"}, "mvp"),
])
def test_a_dungeon_card_with_a_stat_of_the_wrong_kind_is_refused(stats, reason):
    errors = import_errors(DUNGEON_CARDS, "cards.csv", f"{DUNGEON_HEADER}\n{dungeon_csv_line('goblin', stats)}\n")
    assert len(errors) == 1 and "line 2" in errors[0] and reason in errors[0]


def test_an_ambush_must_summon_a_list_of_codes():
    line = dungeon_csv_line("ambush-x", {"summons": "goblin", "copies": 1}, kind="ambush")
    errors = import_errors(DUNGEON_CARDS, "cards.csv", f"{DUNGEON_HEADER}\n{line}\n")
    assert "summons" in errors[0]


def test_the_starter_dungeon_catalog_still_imports_and_round_trips_through_csv():
    dungeon_catalog_load_starter()
    before = export_rows(DUNGEON_CARDS, DungeonCard.objects.all())
    text = export_csv(DUNGEON_CARDS, DungeonCard.objects.all())
    DungeonCard.objects.all().delete()
    import_file(DUNGEON_CARDS, "cards.csv", text)
    assert export_rows(DUNGEON_CARDS, DungeonCard.objects.all()) == before


def test_a_dungeon_card_broken_in_the_admin_makes_new_tables_refuse_with_a_sentence(client, world):
    dungeon_catalog_load_starter()
    DungeonCard.objects.filter(code="goblin").update(stats={**GOBLIN, "health": "two", "copies": 18})
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "dungeon"])
    response = client.post(url, {"title": "Mansion", "members": [world.ann.pk, world.ben.pk],
                                 "mode": "competitive", "variant": "pairs", **once()})
    assert response.status_code == 200
    assert "goblin" in response.content.decode() and "health" in response.content.decode()
    assert not Table.objects.exists()


def test_a_dungeon_card_missing_from_the_active_catalog_is_named(client, world):
    dungeon_catalog_load_starter()
    DungeonCard.objects.filter(code="orc-champion").update(active=False)
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "dungeon"])
    response = client.post(url, {"title": "Mansion", "members": [world.ann.pk, world.ben.pk],
                                 "mode": "competitive", "variant": "pairs", **once()})
    assert response.status_code == 200 and "orc-champion" in response.content.decode()


def test_the_admin_refuses_a_hand_edit_that_breaks_a_dungeon_card(admin_client):
    dungeon_catalog_load_starter()
    card = DungeonCard.objects.get(code="goblin")
    url = reverse("admin:tabletop_dungeoncard_change", args=[card.pk])
    response = admin_client.post(url, {"code": "goblin", "kind": "monster", "name": "Goblin", "text": "",
                                       "stats": json.dumps({**GOBLIN, "copies": "lots"}), "active": "on"})
    assert response.status_code == 200 and "copies" in response.content.decode()
    card.refresh_from_db()
    assert card.stats["copies"] == 20  # the starter goblins, unchanged


# --- hymns and unit cards --------------------------------------------------------------------


def test_a_hymn_effect_with_a_number_of_the_wrong_kind_is_refused():
    row = {"code": "H01", "number": 1, "name": "I. Fireyes", "text": "Draw.", "active": True,
           "effect": {"primitive": "draw", "count": "many"}}
    text = json.dumps({"catalog": "mercenarium-hymns", "version": 1, "rows": [row]})
    errors = import_errors(MERCENARIUM_HYMNS, "hymns.json", text)
    assert errors[0].startswith("row 1:") and "count" in errors[0]
    assert not MercenariumHymn.objects.exists()


def test_each_imported_row_runs_the_model_validators():
    rows = [(1, {"code": "big", "number": 99, "name": "Big", "text": "Big.", "active": True,
                 "effect": {"primitive": "salvage"}})]
    with pytest.raises(CatalogImportError) as caught:
        catalog_import(spec=MERCENARIUM_HYMNS, rows=rows, unit="row")
    assert caught.value.errors[0].startswith("row 1:") and "number" in caught.value.errors[0]


def test_a_unit_card_with_a_huge_price_is_refused():
    row = {"code": "rich", "name": "Rich", "strength": 2, "role": "soldier", "path": "", "traits": [],
           "abilities": [], "upkeep": 1, "price": 10**15, "text": "", "active": True}
    with pytest.raises(CatalogImportError) as caught:
        unit_catalog_import(rows=[(1, row)], unit="row")
    assert "price" in " ".join(caught.value.errors)
    assert UNIT_CARDS.model.objects.filter(code="rich").count() == 0


# --- deeply nested JSON ------------------------------------------------------------------------


def test_a_deeply_nested_json_upload_gets_one_clear_error():
    errors = import_errors(DUNGEON_CARDS, "cards.json", "[" * 100_000 + "]" * 100_000)
    assert errors == [errors[0]] and "nested too deeply" in errors[0]


def test_a_deeply_nested_json_cell_in_a_csv_gets_a_clear_error_on_its_line():
    line = f'goblin,monster,Goblin,"{"[" * 50_000}",,true'
    errors = import_errors(DUNGEON_CARDS, "cards.csv", f"{DUNGEON_HEADER}\n{line}\n")
    assert len(errors) == 1 and errors[0].startswith("line 2:") and "nested too deeply" in errors[0]


def test_a_moderately_nested_json_upload_is_refused_before_any_row_is_read():
    rows = [{"code": "goblin", "kind": "monster", "name": "Goblin", "text": "", "active": True,
             "stats": {**GOBLIN, "copies": [[[[[[[[[[[[1]]]]]]]]]]]]}}]
    errors = import_errors(DUNGEON_CARDS, "cards.json", json.dumps({"rows": rows}))
    assert "nested too deeply" in errors[0]


# --- CSV formula neutralisation (ruling C1) ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "'=quoted"]
    + ["＝1+1", "＋1", "－2", "＠SUM(A1)", "'＝quoted"],  # full-width look-alikes (NFKC)
)
def test_a_csv_export_neutralises_formula_cells_and_imports_back_unchanged(text):
    GridarisScenario.objects.create(key="evil", name=text, text="fine")
    exported = export_csv(GRIDARIS_SCENARIOS, GridarisScenario.objects.all())
    cells = list(csv.reader(io.StringIO(exported)))[1]
    assert cells[1] == "'" + text
    GridarisScenario.objects.all().delete()
    import_file(GRIDARIS_SCENARIOS, "scenarios.csv", exported)
    assert GridarisScenario.objects.get(key="evil").name == text


def test_a_cell_starting_with_a_tab_or_carriage_return_is_neutralised_too():
    GridarisScenario.objects.create(key="tab", name="\t=1", text="\r=2")
    cells = list(csv.reader(io.StringIO(export_csv(GRIDARIS_SCENARIOS, GridarisScenario.objects.all()))))[1]
    assert cells[1:3] == ["'\t=1", "'\r=2"]


def test_numbers_are_exported_as_numbers_even_when_negative():
    dungeon_catalog_load_starter()
    exported = export_csv(DUNGEON_CARDS, DungeonCard.objects.filter(code="foul-fungus-patch"))
    row = list(csv.DictReader(io.StringIO(exported)))[0]
    assert json.loads(row["stats"])["amount"] == -1
    assert not row["stats"].startswith("'")


def test_a_plain_text_starting_with_a_quote_is_left_alone():
    GridarisScenario.objects.create(key="quote", name="'Tis the season", text="fine")
    exported = export_csv(GRIDARIS_SCENARIOS, GridarisScenario.objects.all())
    assert list(csv.reader(io.StringIO(exported)))[1][1] == "'Tis the season"
    GridarisScenario.objects.all().delete()
    import_file(GRIDARIS_SCENARIOS, "scenarios.csv", exported)
    assert GridarisScenario.objects.get(key="quote").name == "'Tis the season"


def test_a_hymn_broken_in_the_database_makes_new_mercenarium_tables_refuse_with_a_sentence(client, world):
    MercenariumHymn.objects.filter(number=12).update(effect={"primitive": "draw", "count": "many"})
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_new", args=[world.campaign.slug, "mercenarium"])
    response = client.post(url, {"title": "Night", "members": [world.ann.pk, world.ben.pk], **once()})
    assert response.status_code == 200
    assert "Encore" in response.content.decode() and "count" in response.content.decode()
    assert not Table.objects.exists()


def test_a_nul_character_escaped_in_a_json_upload_is_refused_with_a_sentence():
    rows = [{"key": "nul", "name": "Bad\u0000name", "text": "x", "active": True}]
    errors = import_errors(GRIDARIS_SCENARIOS, "s.json", json.dumps({"rows": rows}))
    assert "NUL" in errors[0]
    assert not GridarisScenario.objects.filter(key="nul").exists()


def test_a_nul_character_escaped_in_a_csv_json_cell_is_refused_on_its_line():
    line = dungeon_csv_line("goblin", {**GOBLIN, "copies": 1, "type": "melee\u0000"})
    errors = import_errors(DUNGEON_CARDS, "cards.csv", f"{DUNGEON_HEADER}\n{line}\n")
    assert errors[0].startswith("line 2:") and ("NUL" in errors[0] or "type" in errors[0])


def test_the_admin_answers_deeply_nested_stats_with_a_form_error(admin_client):
    dungeon_catalog_load_starter()
    card = DungeonCard.objects.get(code="goblin")
    url = reverse("admin:tabletop_dungeoncard_change", args=[card.pk])
    response = admin_client.post(url, {"code": "goblin", "kind": "monster", "name": "Goblin", "text": "",
                                       "stats": "[" * 100_000, "active": "on"})
    assert response.status_code == 200 and "nested too deeply" in response.content.decode()
