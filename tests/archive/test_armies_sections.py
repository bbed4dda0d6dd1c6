"""The armies part of a campaign archive (archive/sections/armies.py, unit_cards.py, battles.py, issue 24).

A campaign is played with the real services (recruits from offers, a quest unit, training, a battle
fought to its end, a day end with a desertion taken back and ended again, a withdrawn offer, a dismissal,
a retired NPC, and a battle still being fought), exported, imported as a new campaign and exported again:
every armies record comes back equal apart from its ids (each id is compared by its place among its kind's
records, references included, inside a battle's result and a unit event's cause too).
"""

from __future__ import annotations

import gzip
import io
import json
from collections import defaultdict

import pytest
from django.apps import apps
from django.db import connection, models
from django.test.utils import CaptureQueriesContext

from archive.compare import archives_differences
from archive.export import campaign_export
from archive.format import ArchiveRefused, ArchiveWriter
from archive.importer import campaign_import
from archive.sections import kinds as armies_kinds
from archive.sections import section_for
from armies.models import ArmyUnit, Battle, Commander, DayEnd, RecruitOffer, Settlement, UnitCard, UnitEvent, UnitUse
from armies.rules import can_fight
from armies.services.battle_tables import battle_table_open, card_id
from armies.services.commander_edits import commander_retire
from armies.services.commanders import unit_dismiss
from armies.services.day_end import day_end_start
from armies.services.day_end_revert import day_end_revert
from armies.services.recruiting import offer_withdraw, quest_grant, recruit_buy
from armies.services.settlement import day_settle
from armies.services.training import unit_train
from campaign.models import Campaign
from tabletop.engines import get_engine
from tabletop.engines.army.choices import dice_needed
from tabletop.engines.kernel import GM
from tabletop.models import Table
from tabletop.services.tables import table_play

from tests.archive._helpers import CLAIMED, without_joins
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory

pytestmark = pytest.mark.django_db

ARMY = get_engine("army")

# Each armies model -> its archive kind. Fields a record names otherwise: the campaign is the new one, a
# day end's starting user travels by user name.
COVERED = {
    UnitCard: armies_kinds.UNIT_CARD,
    Commander: armies_kinds.COMMANDER,
    ArmyUnit: armies_kinds.ARMY_UNIT,
    UnitEvent: armies_kinds.UNIT_EVENT,
    RecruitOffer: armies_kinds.RECRUIT_OFFER,
    UnitUse: armies_kinds.UNIT_USE,
    Settlement: armies_kinds.SETTLEMENT,
    DayEnd: armies_kinds.DAY_END,
    Battle: armies_kinds.BATTLE,
}
NOT_IN_RECORD = {"campaign_id", "started_by_id", "kind"}  # a model's kind is "<model>_kind"

# A reference field of a record -> the kind it refers to (for comparing two exports by place).
REFERENCES = {
    "commander_id": "commander", "unit_id": "army_unit", "card_id": "unit_card", "membership_id": "member",
    "account_id": "account", "attacker_id": "commander", "defender_id": "commander", "routed_id": "commander",
    "winner_id": "commander", "first_battle_id": "battle", "table_id": "table",
}
ARMIES_KINDS = set(COVERED.values())


# ------------------------------------------------------------------------------------------ a campaign


def drive(table: Table, *, limit: int = 400) -> Table:
    """Play the first legal action of whoever decides until the battle ends (the GM's dice: Offense 6)."""
    for _ in range(limit):
        if table.is_finished:
            return table
        seat = ARMY.to_act(table.state)[0]
        if seat == GM:
            action = {"type": "roll",
                      "values": [6 if "(Offense)" in need["label"] else 1 for need in dice_needed(table.state)]}
        else:
            action = next(a for a in ARMY.legal_actions(table.state) if a["seat"] == seat)
            action = {k: v for k, v in action.items() if k != "seat"}
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    raise AssertionError("The battle did not end.")


def play(world, attacker, defender, **kwargs):
    units = [[u for u in c.units.filter(status="active") if can_fight(u)] for c in (attacker, defender)]
    return battle_table_open(attacker=attacker, defender=defender, attacker_units=units[0], defender_units=units[1],
                             opened_by=world.gm.user, seed=11, **kwargs)


@pytest.fixture
def played(world):
    """Two days of a campaign with every armies model and most of their histories."""
    gm = world.gm.user
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", progression=4, balance=200,
                           favors=2, influence_halves=3, weapons=12)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", balance=3)
    king = CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King", role="savant")
    pikemen = UnitCardFactory(name="Pikemen", strength=3, traits=["reach"], upkeep=2,
                              abilities=[{"kind": "discard_bonus", "amount": 1, "target": "either"}])
    golem = UnitCardFactory(name="Golem", strength=4, upkeep=5)
    ritual = UnitCardFactory(name="Courier", strength=None, role="equipment", path="nature", upkeep=0)
    offer = RecruitOfferFactory(campaign=world.campaign, card=pikemen, price=10, quantity=5)
    quest = RecruitOfferFactory(campaign=world.campaign, card=golem, price=0, quantity=1, quest="Slay the wyrm")
    withdrawn = RecruitOfferFactory(campaign=world.campaign, card=ritual, price=4, quantity=2)

    bought = recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    quest_grant(offer=quest, commander=marr, day=1, gm=gm)
    unit_train(unit=bought, day=1, pay_with="items", weapons=10, trained_by=world.ann.user)
    ArmyUnitFactory(commander=vey, card=golem, trained_on=1)
    ArmyUnitFactory(commander=marr, card=pikemen)
    ArmyUnitFactory(commander=marr, card=golem)
    ArmyUnitFactory(commander=king, card=ritual)
    ArmyUnitFactory(commander=king, card=pikemen)
    drive(play(world, vey, marr).table)
    day_settle(campaign=world.campaign, day=1)
    day_end_revert(campaign=world.campaign, day=1, gm=gm)
    day_end_start(campaign=world.campaign, day=1, started_by=gm)  # its task waits for a commit: settled here
    day_settle(campaign=world.campaign, day=1)

    offer_withdraw(offer=withdrawn, gm=gm)
    spare = ArmyUnitFactory(commander=vey, card=pikemen, joined_day=2)
    unit_dismiss(unit=spare, day=2, dismissed_by=world.ann.user, reason="Too many pikes")
    open_battle = play(world, vey, king)
    retired = CommanderFactory(membership=world.gm, kind="npc", name="Old Hob", role="healer")
    commander_retire(commander=retired, gm=gm, reason="Gone fishing")
    return {"campaign": world.campaign, "open_battle": open_battle, "vey": vey, "marr": marr}


def export_records(campaign: Campaign) -> list[dict]:
    buffer = io.BytesIO()
    campaign_export(campaign, buffer)
    lines = gzip.decompress(buffer.getvalue()).splitlines()
    return [json.loads(line) for line in lines[1:-1]]


def import_records(campaign: Campaign, importer) -> Campaign:
    buffer = io.BytesIO()
    campaign_export(campaign, buffer)
    buffer.seek(0)
    return campaign_import(buffer, importer=importer, by_operator=True)


def by_place(records: list[dict]) -> list[dict]:
    """The armies records with every id replaced by its place among its kind's records (both exports list
    each kind in id order, and an import writes them in that order)."""
    place: dict[str, dict] = defaultdict(dict)
    for record in records:
        if record["kind"] == "member":  # the importer's own membership comes first in the copy
            place["member"][record["id"]] = record["username"]
        elif "id" in record:
            place[record["kind"]][record["id"]] = len(place[record["kind"]])

    def ref(kind, old):
        return None if old is None else place[kind].get(old, ("missing", old))

    normal = []
    for record in records:
        if record["kind"] not in ARMIES_KINDS:
            continue
        record = dict(record)
        record["id"] = ref(record["kind"], record["id"])
        for name, kind in REFERENCES.items():
            if name in record:
                record[name] = ref(kind, record[name])
        if record["kind"] == "unit_event":
            kind = {"offer": "recruit_offer", "settlement": "settlement", "battle": "battle",
                    "commander": "commander", "gm": "activity", "day_end_revert": "activity"}.get(record["cause_type"])
            if kind:
                record["cause_id"] = ref(kind, record["cause_id"])
            record["cause"] = record["cause"].split("#")[0]
        if record["kind"] == "battle" and record["result"]:
            for side in record["result"]["sides"]:
                side["commander_id"] = ref("commander", side["commander_id"])
                for pile in ("killed", "used"):
                    side[pile] = [{**e, "unit": ref("army_unit", e["unit"])} for e in side[pile]]
        normal.append(record)
    return normal


# ------------------------------------------------------------------------------------------ tests


def test_every_armies_model_of_a_campaign_has_a_section_that_exports_every_field(played):
    """A new armies model (or field) that belongs to a campaign and is not archived fails here."""

    def reaches_campaign(model, seen=()) -> bool:
        for field in model._meta.concrete_fields:
            if isinstance(field, models.ForeignKey) and field.related_model not in seen:
                if field.related_model is Campaign or reaches_campaign(field.related_model, (*seen, model)):
                    return True
        return False

    armies_models = [m for m in apps.get_app_config("armies").get_models() if reaches_campaign(m)]
    assert set(armies_models) - set(COVERED) == set()
    records = export_records(played["campaign"])
    kinds = {record["kind"] for record in records}
    for model, kind in COVERED.items():
        assert section_for(kind) is not None, kind
        assert kind in kinds, f"the played campaign has no {kind}"
        keys = set().union(*(record.keys() for record in records if record["kind"] == kind))
        missing = {f.attname for f in model._meta.concrete_fields} - NOT_IN_RECORD - keys
        assert missing == set(), f"{kind} records lack {missing}"


# Ids inside data, which archive/compare.py takes for plain values: a battle result's commanders and units,
# the "battle #N" of a kill's cause, and the open battle's table (its cards are renumbered to the new units,
# so its config, logged actions and digests change with them). ``by_place`` compares the armies ones.
EMBEDDED_IDS = {("battle", "result"), ("unit_event", "cause"), ("table", "config"), ("table", "digest"),
                ("table_action", "action"), ("table_action", "digest")}


def test_every_armies_record_round_trips(played, world, archives):
    first = io.BytesIO()
    campaign_export(played["campaign"], first)
    copy = import_records(played["campaign"], world.gm.user)
    # Ann's and Ben's commanders wait for them (the GM runs them meanwhile) until they use their claims
    assert set(Commander.objects.filter(campaign=copy).values_list("membership__user__username", flat=True)) == {"gm"}
    assert sorted(copy.import_claims) == ["ann", "ben"]
    archives.use_claims(copy)
    second = io.BytesIO()
    campaign_export(copy, second)

    assert copy.pk != played["campaign"].pk
    second = io.BytesIO(archives.rewrite(second.getvalue(), without_joins))
    first.seek(0)
    assert archives_differences(first, second, ignore=EMBEDDED_IDS | CLAIMED) == []
    records = export_records(played["campaign"])
    assert by_place(export_records(copy)) == by_place(records)
    counts = defaultdict(int)
    for record in records:
        counts[record["kind"]] += 1
    assert counts["settlement"] >= 3 and counts["battle"] == 2 and counts["recruit_offer"] == 3
    assert any(r["kind"] == "settlement" and r["reverted_at"] for r in records)
    assert any(r["kind"] == "day_end" and r["started_by"] for r in records)
    causes = {r["cause_type"] for r in records if r["kind"] == "unit_event"}
    assert {"offer", "battle", "settlement", "day_end_revert", "dismissal", "training"} <= causes


def test_cards_are_matched_by_code_when_identical_and_copied_under_a_new_code_otherwise(played, world):
    before = set(UnitCard.objects.values_list("pk", flat=True))
    copy = import_records(played["campaign"], world.gm.user)
    assert set(UnitCard.objects.values_list("pk", flat=True)) == before
    assert set(ArmyUnit.objects.filter(commander__campaign=copy).values_list("card_id", flat=True)) <= before

    UnitCard.objects.filter(name="Golem").update(upkeep=6)  # an erratum here after the export
    golem = UnitCard.objects.get(name="Golem")
    buffer = io.BytesIO()
    campaign_export(played["campaign"], buffer)
    UnitCard.objects.filter(pk=golem.pk).update(upkeep=9)  # differs from the archive's 6 now
    buffer.seek(0)
    third = campaign_import(buffer, importer=world.gm.user, by_operator=True)
    made = UnitCard.objects.exclude(pk__in=before).get()
    assert (made.code, made.name, made.upkeep) == (f"{golem.code}-2", "Golem", 6)
    assert (made.active, made.source) == (False, "imported")  # offered to no GM until staff activate it
    assert UnitCard.objects.get(pk=golem.pk).upkeep == 9  # the card here is not changed
    assert ArmyUnit.objects.filter(commander__campaign=third, card=made).exists()
    buffer.seek(0)
    fourth = campaign_import(buffer, importer=world.gm.user, by_operator=True)
    assert UnitCard.objects.exclude(pk__in=before).count() == 1  # the copy is found again by its code
    assert ArmyUnit.objects.filter(commander__campaign=fourth, card=made).exists()


def test_an_imported_battle_in_progress_finishes_into_the_new_roster(played, world):
    copy = import_records(played["campaign"], world.gm.user)
    battle = Battle.objects.select_related("table").get(campaign=copy, ended_at__isnull=True)
    new_units = set(ArmyUnit.objects.filter(commander__campaign=copy).values_list("pk", flat=True))
    cards = [card["id"] for side in battle.table.config["units"] for card in side]
    assert cards and {card_id(pk) for pk in new_units} >= set(cards)

    drive(Table.objects.get(pk=battle.table_id))

    battle.refresh_from_db()
    assert battle.result is not None
    used = {entry["unit"] for side in battle.result["sides"] for entry in side["used"]}
    assert used and used <= new_units
    assert UnitUse.objects.filter(commander__campaign=copy, first_battle=battle).count() == len(used)


def test_a_battle_result_naming_a_unit_the_archive_lacks_is_refused(played, world):
    buffer = io.BytesIO()
    campaign_export(played["campaign"], buffer)
    lines = gzip.decompress(buffer.getvalue()).splitlines(keepends=True)
    records = [json.loads(line) for line in lines]
    for record in records:
        if record.get("kind") == "battle" and record["result"]:
            record["result"]["sides"][0]["killed"] = [{"unit": 999_999, "name": "Ghost"}]
    out = io.BytesIO()
    writer = ArchiveWriter(out, campaign=records[0]["campaign"], name="Changed")
    for record in records[1:-1]:
        writer.write(record)
    writer.close()
    out.seek(0)
    with pytest.raises(ArchiveRefused, match="army_unit 999999"):
        campaign_import(out, importer=world.gm.user, by_operator=True)


@pytest.mark.parametrize("kind", sorted(ARMIES_KINDS))
def test_each_export_section_makes_one_query_whatever_the_roster_size(played, world, kind):
    section = section_for(kind)
    campaign = played["campaign"]
    with CaptureQueriesContext(connection) as small:
        small_records = list(section.export(campaign))
    for commander in (played["vey"], played["marr"]):
        for _ in range(30):
            unit = ArmyUnitFactory(commander=commander, card=UnitCard.objects.get(name="Pikemen"))
            UnitUse.objects.create(unit=unit, commander=commander, day=1)
    for n in range(5):
        CommanderFactory(membership=world.ann, name=f"Extra {n}")
    with CaptureQueriesContext(connection) as big:
        big_records = list(section.export(campaign))
    assert small_records and len(big_records) >= len(small_records)
    assert len(small.captured_queries) == len(big.captured_queries) == 1
