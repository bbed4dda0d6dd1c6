"""Catalog import/export (tabletop/catalog/) and the starter loader (tabletop/catalog/starter.py)."""

import csv
import io
import json

import pytest
from django.core.management import call_command

from tabletop.catalog import (
    CATALOGS,
    GRIDARIS_CARDS,
    GRIDARIS_SCENARIOS,
    CatalogImportError,
    catalog_import,
    describe_choices,
    export_csv,
    export_json,
    export_rows,
    parse_upload,
    read_upload,
)
from tabletop.catalog.starter import catalog_load_starter
from tabletop.engines.gridaris.starter import SCENARIOS, STARTER_CARDS
from tabletop.models import CatalogEntry, GridarisCard, GridarisScenario

from tests.factories import GridarisCardFactory

HEADER = "code,name,card_class,tier,stars,top,right,bottom,left,active"


def import_file(spec, filename: str, text: str | bytes):
    content = text.encode() if isinstance(text, str) else text
    upload = read_upload(spec, filename, content)
    return catalog_import(spec=spec, rows=upload.rows, unit=upload.unit)


def import_errors(spec, filename: str, text: str | bytes) -> list[str]:
    with pytest.raises(CatalogImportError) as caught:
        import_file(spec, filename, text)
    return caught.value.errors


def card_snapshot() -> list[tuple]:
    return list(GridarisCard.objects.order_by("code").values_list(*GRIDARIS_CARDS.fields, "source"))


# --- export and round trips -----------------------------------------------------------


@pytest.mark.django_db
def test_csv_export_has_header_and_one_line_per_row():
    GridarisCardFactory(code="s01", name="Brie, Sentry", top="5", active=False)
    text = export_csv(GRIDARIS_CARDS, GridarisCard.objects.all())
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == HEADER.split(",")
    assert rows[1] == ["s01", "Brie, Sentry", "Mops", "silver", "1", "5", "2", "3", "A", "false"]


@pytest.mark.django_db
def test_json_export_is_the_documented_object():
    GridarisCardFactory(code="s01")
    document = json.loads(export_json(GRIDARIS_CARDS, GridarisCard.objects.all()))
    assert document["catalog"] == "gridaris-cards"
    assert document["version"] == 1
    assert document["rows"] == [
        {"code": "s01", "name": document["rows"][0]["name"], "card_class": "Mops", "tier": "silver", "stars": 1,
         "top": "1", "right": "2", "bottom": "3", "left": "A", "active": True}
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("fmt, exporter", [("csv", export_csv), ("json", export_json)])
@pytest.mark.parametrize("spec", [GRIDARIS_CARDS, GRIDARIS_SCENARIOS], ids=lambda spec: spec.slug)
def test_round_trip_into_an_empty_database_gives_the_same_rows(spec, fmt, exporter):
    catalog_load_starter()
    first = spec.model.objects.order_by(spec.key_field).first()
    first.active = False  # a non-default value must survive the trip too
    first.save()
    before = export_rows(spec, spec.model.objects.all())
    text = exporter(spec, spec.model.objects.all())
    spec.model.objects.all().delete()

    report = import_file(spec, f"export.{fmt}", text)

    assert report.created == len(before) and report.updated == 0
    assert export_rows(spec, spec.model.objects.all()) == before
    assert set(spec.model.objects.values_list("source", flat=True)) == {CatalogEntry.Source.IMPORTED}


@pytest.mark.django_db
def test_multiline_text_survives_a_csv_round_trip():
    GridarisScenario.objects.create(key="odd", name="Odd, one", text='Line one\nLine "two"')
    text = export_csv(GRIDARIS_SCENARIOS, GridarisScenario.objects.all())
    GridarisScenario.objects.all().delete()
    import_file(GRIDARIS_SCENARIOS, "s.csv", text)
    assert GridarisScenario.objects.get(key="odd").text == 'Line one\nLine "two"'


# --- importing -------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_creates_updates_and_leaves_absent_rows_alone():
    GridarisCardFactory(code="keep", name="Not in the file")
    GridarisCardFactory(code="s01", name="Old name", source=CatalogEntry.Source.STARTER)
    GridarisCardFactory(code="same", name="Same", source=CatalogEntry.Source.STARTER)
    text = "\n".join([
        HEADER,
        "s01,New name,Mops,silver,1,1,2,3,A,true",
        "same,Same,Mops,silver,1,1,2,3,A,true",
        "new,Fresh,Wizards,gold,3,9,a,8,7,yes",  # case-insensitive choices and booleans
    ])

    report = import_file(GRIDARIS_CARDS, "cards.csv", text)

    assert (report.created, report.updated, report.unchanged) == (1, 1, 1)
    assert report.summary("cards") == "Imported 3 cards (1 new, 1 updated, 1 unchanged)"
    assert GridarisCard.objects.get(code="keep").name == "Not in the file"
    updated = GridarisCard.objects.get(code="s01")
    assert (updated.name, updated.source) == ("New name", CatalogEntry.Source.IMPORTED)
    assert GridarisCard.objects.get(code="same").source == CatalogEntry.Source.STARTER
    fresh = GridarisCard.objects.get(code="new")
    assert (fresh.card_class, fresh.right, fresh.stars, fresh.active) == ("Wizards", "A", 3, True)


@pytest.mark.django_db
def test_several_bad_rows_are_each_reported_and_nothing_changes():
    GridarisCardFactory(code="s01", name="Untouched")
    before = card_snapshot()
    text = "\n".join([
        HEADER,
        "s01,Renamed,Mops,silver,1,1,2,3,4,true",  # valid, but must not be applied
        "s02,Too High,Mops,silver,1,11,2,3,4,true",
        "s03,Bad Class,Elves,silver,1,1,2,3,4,true",
        "",
        "s04,Bad Stars,Mops,gold,many,1,2,3,4,true",
        "s05,Zero Stars,Mops,gold,0,1,2,3,4,maybe",
        "bad code!,,Mops,platinum,1,1,2,3,4,true",
    ])

    errors = import_errors(GRIDARIS_CARDS, "cards.csv", text)

    assert errors == [
        "line 3: top must be 1–9 or A, got '11'",
        "line 4: card_class must be Cheese People, Mops, Wizards, Monsters, Voidlings or Business Drones, got 'Elves'",
        "line 6: stars must be a whole number, got 'many'",
        "line 7: stars must be 1–9, got 0",
        "line 7: active must be true or false, got 'maybe'",
        "line 8: code: Enter a valid “slug” consisting of letters, numbers, underscores or hyphens. (got 'bad code!')",
        "line 8: name is required",
        "line 8: tier must be silver or gold, got 'platinum'",
    ]
    assert card_snapshot() == before


@pytest.mark.django_db
def test_row_validator_rejects_stars_out_of_range():
    errors = import_errors(GRIDARIS_CARDS, "c.csv", f"{HEADER}\ns01,Zero,Mops,silver,0,1,2,3,4,true\n")
    assert errors == ["line 2: stars must be 1–9, got 0"]
    assert not GridarisCard.objects.exists()


@pytest.mark.django_db
def test_duplicate_keys_in_a_file_name_both_lines():
    text = "\n".join([
        HEADER,
        "s01,One,Mops,silver,1,1,2,3,4,true",
        "s02,Two,Mops,silver,1,1,2,3,4,true",
        "s01,Again,Mops,silver,1,1,2,3,4,true",
    ])
    assert import_errors(GRIDARIS_CARDS, "c.csv", text) == ["line 4: code 's01' appears twice (first on line 2)"]
    assert not GridarisCard.objects.exists()


@pytest.mark.django_db
def test_json_rows_are_numbered_by_row_and_checked_for_columns():
    rows = [
        {"key": "a", "name": "A", "text": "fine", "active": True},
        {"key": "b", "name": "B", "text": "t", "active": "true", "colour": "red"},
        {"key": "c", "name": "C", "active": 1},
        {"key": "a", "name": "A again", "text": "dup", "active": False},
    ]
    document = json.dumps({"catalog": "gridaris-scenarios", "version": 1, "rows": rows})
    assert import_errors(GRIDARIS_SCENARIOS, "s.json", document) == [
        "row 2: the row has unknown column 'colour'.",
        "row 3: the row is missing column 'text'.",
        "row 4: key 'a' appears twice (first on row 1)",
    ]
    assert not GridarisScenario.objects.exists()


@pytest.mark.django_db
def test_an_import_does_a_fixed_number_of_queries(django_assert_max_num_queries):
    catalog_load_starter()
    exported = export_rows(GRIDARIS_CARDS, GridarisCard.objects.all())
    rows = [(n, {**row, "name": row["name"] + " II"}) for n, row in enumerate(exported, start=2)]
    rows += [(99, {**rows[0][1], "code": "new1"}), (100, {**rows[0][1], "code": "new2"})]
    with django_assert_max_num_queries(5):  # savepoint, select existing, insert, update, release
        report = catalog_import(spec=GRIDARIS_CARDS, rows=rows)
    assert (report.created, report.updated) == (2, 49)


@pytest.mark.django_db
def test_import_without_rows_is_refused():
    with pytest.raises(CatalogImportError, match="no rows"):
        catalog_import(spec=GRIDARIS_CARDS, rows=[])


# --- malformed files -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "filename, content, message",
    [
        ("cards.csv", b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x00junk", "not UTF-8 text"),
        ("cards.csv", b"code,name\x00\x01\x02", "binary, not text"),
        ("cards.csv", b"", "The file is empty."),
        ("cards.csv", b"  \n\n", "The file is empty."),
        ("cards.xlsx", b"code,name", "neither .csv nor .json"),
        ("cards.json", b"{not json", "not valid JSON"),
        ("cards.json", b'[{"code": "s01"}]', "The JSON must be an object like"),
        ("cards.json", b'{"catalog": "gridaris-cards", "version": 1, "cards": []}', "The JSON must be an object like"),
        ("cards.json", b'{"catalog": "gridaris-scenarios", "version": 1, "rows": [{}]}', "not 'gridaris-cards'"),
        ("cards.json", b'{"catalog": "gridaris-cards", "version": 2, "rows": [{}]}', "format version 2"),
        ("cards.json", b'{"catalog": "gridaris-cards", "version": 1, "rows": []}', "no rows"),
        ("cards.csv", HEADER.encode() + b"\n", "a header row but no data rows"),
    ],
)
def test_a_malformed_file_gets_one_clear_error(filename, content, message):
    with pytest.raises(CatalogImportError) as caught:
        parse_upload(GRIDARIS_CARDS, filename, content)
    assert len(caught.value.errors) == 1
    assert message in caught.value.errors[0]


def test_a_csv_header_missing_a_column_is_refused_naming_it():
    text = "code,name,card_class,tier,stars,top,right,bottom,active,colour\ns01,A,Mops,silver,1,1,2,3,true,red\n"
    with pytest.raises(CatalogImportError) as caught:
        parse_upload(GRIDARIS_CARDS, "cards.csv", text.encode())
    (error,) = caught.value.errors
    assert error.startswith("line 1: the header row (column names) has unknown column 'colour' and is missing")
    assert "'left'" in error


def test_csv_rows_with_the_wrong_number_of_values_are_each_reported():
    text = f"{HEADER}\ns01,A,Mops,silver,1,1,2,3,4,true\ns02,B,Mops\ns03,C,Mops,silver,1,1,2,3,4,true,extra\n"
    with pytest.raises(CatalogImportError) as caught:
        parse_upload(GRIDARIS_CARDS, "cards.csv", text.encode())
    assert caught.value.errors == [
        "line 3: 3 values but the header has 10 columns.",
        "line 4: 11 values but the header has 10 columns.",
    ]


def test_json_rows_that_are_not_objects_are_reported():
    content = json.dumps({"rows": [{"code": "s01"}, ["s02"], 3]}).encode()
    with pytest.raises(CatalogImportError) as caught:
        parse_upload(GRIDARIS_CARDS, "cards.json", content)
    assert [error.split(":")[0] for error in caught.value.errors] == ["row 2", "row 3"]


def test_format_is_detected_from_content_when_the_extension_does_not_say():
    document = json.dumps({"rows": [{"key": "x"}]}).encode()
    assert read_upload(GRIDARIS_SCENARIOS, "upload", document).unit == "row"
    assert read_upload(GRIDARIS_SCENARIOS, "upload.txt", b"key,name,text,active\nx,X,t,true\n").unit == "line"
    assert parse_upload(GRIDARIS_SCENARIOS, "s.csv", "\ufeffkey,name,text,active\nx,X,t,true\n".encode()) == [
        (2, {"key": "x", "name": "X", "text": "t", "active": "true"})  # the Excel BOM is dropped
    ]


def test_describe_choices_collapses_number_runs():
    assert describe_choices([str(n) for n in range(1, 10)] + ["A"]) == "1–9 or A"
    assert describe_choices(["silver", "gold"]) == "silver or gold"
    assert describe_choices(["1", "2", "x"]) == "1, 2 or x"


def test_catalog_registry_by_slug():
    assert CATALOGS["gridaris-cards"] is GRIDARIS_CARDS and CATALOGS["gridaris-scenarios"] is GRIDARIS_SCENARIOS
    assert {"mercenarium-cards", "mercenarium-hymns"} <= set(CATALOGS)
    assert all(slug == spec.slug for slug, spec in CATALOGS.items())


# --- the starter catalog ---------------------------------------------------------------------


@pytest.mark.django_db
def test_starter_loader_is_idempotent_and_labels_rows_as_starter():
    first = catalog_load_starter()
    second = catalog_load_starter()

    assert (first.cards.created, first.scenarios.created) == (49, 12)
    assert (second.cards.created, second.cards.updated, second.cards.unchanged) == (0, 0, 49)
    assert (second.scenarios.created, second.scenarios.updated) == (0, 0)
    assert GridarisCard.objects.count() == 49 == len({code for code, in GridarisCard.objects.values_list("code")})
    assert GridarisScenario.objects.count() == 12
    assert set(GridarisCard.objects.values_list("source", flat=True)) == {CatalogEntry.Source.STARTER}
    assert set(GridarisScenario.objects.values_list("source", flat=True)) == {CatalogEntry.Source.STARTER}
    assert [card.as_engine_card() for card in GridarisCard.objects.order_by("code")] == sorted(
        STARTER_CARDS, key=lambda card: card["id"]
    )
    assert sorted(GridarisScenario.objects.values_list("key", flat=True)) == sorted(s["key"] for s in SCENARIOS)


@pytest.mark.django_db
def test_starter_loader_restores_edited_cards_but_keeps_active_and_other_cards():
    catalog_load_starter()
    GridarisCard.objects.filter(code="s01").update(name="Hacked", source=CatalogEntry.Source.CUSTOM, active=False)
    GridarisCardFactory(code="house1", name="House card")

    report = catalog_load_starter()

    assert (report.cards.updated, report.cards.created) == (1, 0)
    restored = GridarisCard.objects.get(code="s01")
    assert (restored.name, restored.source, restored.active) == ("Brie Sentry", CatalogEntry.Source.STARTER, False)
    assert GridarisCard.objects.get(code="house1").source == CatalogEntry.Source.CUSTOM


@pytest.mark.django_db
def test_load_starter_catalogs_command_says_what_it_did():
    out = io.StringIO()
    call_command("load_starter_catalogs", stdout=out)
    call_command("load_starter_catalogs", stdout=out)
    printed = out.getvalue()
    assert "Gridaris cards: 49 created, 0 updated, 0 unchanged." in printed
    assert "Gridaris cards: 0 created, 0 updated, 49 unchanged." in printed
    assert "Gridaris scenarios: 12 created" in printed
    assert GridarisCard.objects.count() == 49
