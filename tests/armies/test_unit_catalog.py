"""The unit-card catalog (armies/catalog.py), its command and its admin, plus the campaign admin."""

import csv
import io
import json

import pytest
from django.contrib import admin
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from armies.catalog import UNIT_CARDS, unit_catalog_import, unit_catalog_load_starter
from armies.models import Battle, DayEnd, Settlement, UnitCard
from campaign.ledger import ledger_post
from campaign.models import Account, LedgerEntry
from tabletop.catalog import CatalogImportError, export_csv, read_upload
from tabletop.engines.army.starter import STARTER_UNITS
from tabletop.models import CatalogEntry

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

pytestmark = pytest.mark.django_db

HEADER = "code,name,strength,role,path,traits,abilities,upkeep,price,text,active"
GOOD_CSV = (
    f"{HEADER}\n"
    'pikes,Pikemen,3,guardian,steel,"[""reach""]",[],2,20,Hold the line,true\n'
    'rite,Rite of Mud,,ritual,nature,,"[{""kind"": ""ritual_disable""}]",1,15,,true\n'
)
CARD = {"code": "pikes", "name": "Pikemen", "strength": 3, "role": "guardian", "path": "steel", "traits": ["reach"],
        "abilities": [], "upkeep": 2, "price": 20, "text": "", "active": True}


def from_csv(text):
    parsed = read_upload(UNIT_CARDS, "units.csv", text.encode())
    return unit_catalog_import(rows=parsed.rows, unit=parsed.unit)


def problems(rows):
    with pytest.raises(CatalogImportError) as refused:
        unit_catalog_import(rows=list(enumerate(rows, start=1)), unit="row")
    return refused.value.errors


def test_a_csv_carries_lists_as_json_text_and_an_empty_strength_for_a_card_that_cannot_fight():
    report = from_csv(GOOD_CSV)

    assert (report.created, report.updated) == (2, 0)
    pikes, rite = UnitCard.objects.get(code="pikes"), UnitCard.objects.get(code="rite")
    assert (pikes.traits, pikes.abilities, pikes.strength, pikes.text, pikes.source) == (
        ["reach"], [], 3, "Hold the line", CatalogEntry.Source.IMPORTED)
    assert (rite.traits, rite.abilities, rite.strength) == ([], [{"kind": "ritual_disable"}], None)
    assert from_csv(GOOD_CSV).unchanged == 2  # the same file again changes nothing


def test_a_json_file_carries_real_lists():
    document = {"catalog": UNIT_CARDS.slug, "version": 1,
                "rows": [CARD, {**CARD, "code": "rite", "strength": None, "role": "ritual",
                                "abilities": [{"kind": "ritual_morale", "amount": 2}]}]}
    parsed = read_upload(UNIT_CARDS, "units.json", json.dumps(document).encode())

    unit_catalog_import(rows=parsed.rows, unit=parsed.unit)

    assert UnitCard.objects.get(code="rite").abilities == [{"kind": "ritual_morale", "amount": 2}]
    assert UnitCard.objects.get(code="rite").strength is None


def test_every_bad_row_is_listed_and_nothing_is_imported():
    errors = problems([
        {**CARD, "code": "a", "role": "wizard"},
        {**CARD, "code": "b", "path": "chaos"},
        {**CARD, "code": "c", "traits": "reach"},
        {**CARD, "code": "d", "traits": ["Reach", "two words"]},
        {**CARD, "code": "e", "abilities": [{"kind": "fly"}]},
        {**CARD, "code": "f", "abilities": ["charge"]},
        {**CARD, "code": "g", "traits": ["reach", "reach"]},
        {**CARD, "code": "h", "role": "ritual", "strength": None, "abilities": []},
        CARD,
    ])

    assert errors[0] == "row 1: role must be aggressor, guardian, healer, savant, equipment or ritual, got 'wizard'"
    assert errors[1].startswith("row 2: path must be steel, magic, faith, nature or mind")
    assert errors[2] == """row 3: traits must be JSON, such as ["a", "b"] or {"kind": "a"}, got 'reach'"""
    assert errors[3] == "row 4: traits must be lowercase words such as reach or undead, got ['Reach', 'two words']"
    assert errors[4].startswith("row 5: Card 'e': unknown ability kind 'fly'; Muster knows discard_bonus")
    assert errors[5] == "row 6: Card 'f': each ability must be a dict with a 'kind'."
    assert errors[6] == "row 7: traits lists a trait twice: ['reach', 'reach']"
    assert errors[7] == "row 8: Card 'h' is a Ritual without a ritual effect."
    assert len(errors) == 8
    assert not UnitCard.objects.exists()


def test_the_csv_export_writes_json_text_and_reads_back_unchanged():
    from_csv(GOOD_CSV)

    exported = export_csv(UNIT_CARDS, UnitCard.objects.all())

    rows = list(csv.DictReader(io.StringIO(exported)))
    assert [(row["code"], row["traits"], row["abilities"], row["strength"], row["active"]) for row in rows] == [
        ("pikes", '["reach"]', "[]", "3", "true"), ("rite", "[]", '[{"kind": "ritual_disable"}]', "", "true")]
    assert from_csv(exported).unchanged == 2


# --- the starter units ----------------------------------------------------------------------------


def test_the_starter_units_load_once_and_leave_granted_units_out():
    first = unit_catalog_load_starter()
    again = unit_catalog_load_starter()

    recruitable = [unit for unit in STARTER_UNITS if not unit.get("granted_by")]
    assert (first.created, again.unchanged, again.created, again.updated) == (len(recruitable),) * 2 + (0, 0)
    assert set(UnitCard.objects.values_list("source", flat=True)) == {CatalogEntry.Source.STARTER}
    assert not UnitCard.objects.filter(code__in=["alchemy_lab", "mediating_chaplain"]).exists()
    spearmen = UnitCard.objects.get(code="spearmen")
    assert (spearmen.strength, spearmen.traits, spearmen.upkeep, spearmen.price) == (3, ["reach"], 2, 20)


def test_reloading_the_starter_restores_edited_cards_keeps_active_and_leaves_others_alone():
    units = [{k: v for k, v in CARD.items() if k not in {"text", "active"}}]
    unit_catalog_load_starter(units)
    UnitCard.objects.filter(code="pikes").update(strength=9, active=False, source="custom")
    mine = UnitCardFactory(code="mine", name="Mine")

    report = unit_catalog_load_starter(units)

    pikes = UnitCard.objects.get(code="pikes")
    assert (report.updated, pikes.strength, pikes.active, pikes.source) == (1, 3, False, "starter")
    assert UnitCard.objects.get(pk=mine.pk).name == "Mine"


def test_the_command_prints_the_counts():
    out = io.StringIO()
    call_command("load_starter_units", stdout=out)
    call_command("load_starter_units", stdout=out)
    count = len([unit for unit in STARTER_UNITS if not unit.get("granted_by")])
    assert out.getvalue().splitlines() == [
        f"Unit cards: {count} created, 0 updated, 0 unchanged.",
        f"Unit cards: 0 created, 0 updated, {count} unchanged.",
    ]


def test_broken_starter_units_are_refused_with_every_problem_by_the_command_and_the_admin(monkeypatch, admin_client):
    """A ``CatalogImportError`` is a ``Refusal`` (issue 39), and its two users still say its sentence."""
    monkeypatch.setattr("armies.catalog.STARTER_UNITS", [{**CARD, "traits": ["UPPER"]}])
    sentence = "starter unit 1: traits must be lowercase words such as reach or undead, got ['UPPER']"

    with pytest.raises(CommandError) as refused:
        call_command("load_starter_units", stdout=io.StringIO())
    response = admin_client.post(reverse("admin:armies_unitcard_load_starter"), follow=True)

    assert str(refused.value) == f"The starter units are invalid: {sentence}"
    assert [str(message) for message in response.context["messages"]] == [
        f"The starter units cannot be loaded: {sentence}"
    ]
    assert not UnitCard.objects.exists()


# --- the admin ------------------------------------------------------------------------------------

CHANGELIST = reverse("admin:armies_unitcard_changelist")
IMPORT = reverse("admin:armies_unitcard_import")


def test_the_admin_imports_a_csv_and_says_how_many(admin_client):
    page = admin_client.get(IMPORT)
    assert page.status_code == 200
    assert ("strength", "a whole number; leave empty for a card that cannot fight (Rituals)") in page.context["columns"]
    assert b"Load or refresh the Army starter unit cards" in page.content

    response = admin_client.post(IMPORT, {"file": SimpleUploadedFile("units.csv", GOOD_CSV.encode())}, follow=True)

    assert [str(message) for message in response.context["messages"]] == ["Imported 2 unit cards (2 new, 0 updated)"]
    assert UnitCard.objects.get(code="pikes").traits == ["reach"]


def test_the_admin_lists_every_bad_row_of_a_json_upload(admin_client):
    document = {"catalog": UNIT_CARDS.slug, "rows": [{**CARD, "traits": ["UPPER"]}]}
    upload = SimpleUploadedFile("units.json", json.dumps(document).encode())

    response = admin_client.post(IMPORT, {"file": upload})

    assert response.status_code == 400
    assert response.context["errors"] == [
        "row 1: traits must be lowercase words such as reach or undead, got ['UPPER']"]


def test_the_admin_exports_csv_with_json_cells_and_json_with_lists(admin_client):
    UnitCardFactory(code="pikes", traits=["reach"])
    as_csv = admin_client.get(reverse("admin:armies_unitcard_export", args=["csv"]))
    as_json = admin_client.get(reverse("admin:armies_unitcard_export", args=["json"]))

    assert next(csv.DictReader(io.StringIO(as_csv.content.decode())))["traits"] == '["reach"]'
    assert json.loads(as_json.content)["rows"][0]["traits"] == ["reach"]


def test_the_admin_loads_the_starter_units_and_explains_errata(admin_client):
    response = admin_client.post(reverse("admin:armies_unitcard_load_starter"), follow=True)
    [message] = [str(message) for message in response.context["messages"]]
    assert message.startswith("Starter units loaded: ") and "created" in message
    assert UnitCard.objects.filter(source="starter").exists()
    assert "battle keeps its own snapshot" in admin_client.get(CHANGELIST).content.decode()


def test_units_and_their_history_are_read_only_in_the_admin(admin_client, world):
    unit = ArmyUnitFactory(commander=CommanderFactory(membership=world.ann))
    page = admin_client.get(reverse("admin:armies_armyunit_change", args=[unit.pk]))
    assert page.status_code == 200
    assert "Test" in page.content.decode()  # the JOINED event's cause, shown inline
    assert admin_client.get(reverse("admin:armies_armyunit_add")).status_code == 403


def test_the_ledger_is_read_only_in_the_admin_and_accounts_show_their_balance(admin_client, world):
    commander = CommanderFactory(membership=world.ann, name="Lady Vey", balance=40)
    entry = ledger_post(account=commander.account, amount=-15, kind="adjustment", reason="Fine", day=1)
    model_admin = admin.site._registry[LedgerEntry]

    request = admin_client.get(reverse("admin:campaign_ledgerentry_changelist")).wsgi_request
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, entry)
    assert not model_admin.has_delete_permission(request, entry)
    assert admin_client.post(reverse("admin:campaign_ledgerentry_delete", args=[entry.pk]), {"post": "yes"}
                             ).status_code == 403
    assert LedgerEntry.objects.filter(pk=entry.pk).exists()
    accounts = admin_client.get(reverse("admin:campaign_account_changelist"))
    assert accounts.status_code == 200
    [row] = [a for a in accounts.context["cl"].result_list if a.pk == commander.account.pk]
    assert admin.site._registry[Account].balance(row) == 25
    assert admin_client.get(reverse("admin:campaign_campaign_change", args=[world.campaign.pk])).status_code == 200


@pytest.mark.parametrize(
    "model",
    ["armies_unitcard", "armies_commander", "armies_armyunit", "armies_recruitoffer", "armies_settlement",
     "armies_dayend", "armies_battle", "campaign_campaign", "campaign_membership", "campaign_day", "campaign_account",
     "campaign_ledgerentry"],
)
def test_every_economy_changelist_renders(admin_client, world, model):
    commander = CommanderFactory(membership=world.ann, balance=10)
    Battle.objects.create(campaign=world.campaign, attacker=commander, defender=commander, day=1)
    assert admin_client.get(reverse(f"admin:{model}_changelist")).status_code == 200


def test_settlements_day_ends_and_battles_are_read_only_lists():
    for model in (Settlement, DayEnd, Battle):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(None)
        assert not model_admin.has_change_permission(None)
        assert not model_admin.has_delete_permission(None)
