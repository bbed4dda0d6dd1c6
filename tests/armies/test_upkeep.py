"""Upkeep and day-end settlement (armies/services/upkeep.py and settlement.py; rulings U1-U8 in docs/rulings.md).

The data is made directly with the ORM (``CampaignArmies`` in tests/armies/_upkeep.py), so these tests do
not depend on the recruiting and battle services; the other day-end test modules use the same helpers.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armies.models import ArmyUnit, Commander, DayEnd, Settlement, UnitCard, UnitEvent, UnitUse
from armies.services import ArmyError, settlement, upkeep
from armies.services.settlement import day_settle
from armies.services.upkeep import UsedUnit, bill_for, day_end_preview
from campaign.models import Campaign, Day, LedgerEntry

from tests.armies._upkeep import CampaignArmies, assert_charged_once, balance, many_commanders, upkeep_entries

MOST_EXPENSIVE, CHEAPEST, ALL_USED = (
    Campaign.Desertion.MOST_EXPENSIVE,
    Campaign.Desertion.CHEAPEST,
    Campaign.Desertion.ALL_USED,
)


# --- a small campaign with worked numbers ---------------------------------------------------------


@pytest.fixture
def siege(db):
    """Ann can pay; Ben cannot; Cara has an army but used none of it today.

    Ann (20 coins) fought twice with Knights (3), Archers (2), Militia (1): owes 6, once.
    Ben (6 coins) fought with Dragon (5), Archers (2), Militia (1): owes 8.
    """
    world = CampaignArmies(slug="siege")
    ann, ben, cara = world.commander("Ann", 20), world.commander("Ben", 6), world.commander("Cara", 1)
    knights, ann_archers, ann_militia, ann_dragon = world.units(
        ann, ("Knights", 3), ("Archers", 2), ("Militia", 1), ("Dragon", 5)
    )
    dragon, archers, militia = world.units(ben, ("Dragon", 5), ("Archers", 2), ("Militia", 1))
    world.units(cara, ("Knights", 3))
    world.battle(ann, ben, [knights, ann_archers, dragon, archers, militia])
    world.battle(ann, ben, [knights, ann_militia, dragon])  # a second battle the same day
    world.ann, world.ben, world.cara = ann, ben, cara
    world.ben_units = {"Dragon": dragon, "Archers": archers, "Militia": militia}
    return world


def test_a_unit_used_in_several_battles_is_charged_once_that_day(siege):
    assert UnitUse.objects.filter(commander=siege.ann, day=1).count() == 3

    assert day_end_preview(campaign=siege.campaign, day=1).for_commander(siege.ann).owed == 6
    day_settle(campaign=siege.campaign, day=1)

    assert Settlement.objects.get(commander=siege.ann, day=1).owed == 6
    assert balance(siege.ann) == 14


def test_only_commanders_who_used_units_that_day_are_charged(siege):
    elsewhere = CampaignArmies(slug="elsewhere")
    stranger = elsewhere.commander("Stranger", 10)
    foe = elsewhere.commander("Foe")
    elsewhere.battle(stranger, foe, elsewhere.units(stranger, ("Pikes", 2)))  # day 1 of another campaign
    tomorrow = siege.units(siege.cara, ("Scouts", 1))
    siege.battle(siege.cara, siege.ann, tomorrow, day=2)  # Cara's units fight on day 2 only

    preview = day_end_preview(campaign=siege.campaign, day=1)
    day_settle(campaign=siege.campaign, day=1)

    assert {bill.commander_name for bill in preview.bills} == {"Ann", "Ben"}
    assert set(Settlement.objects.values_list("commander__name", flat=True)) == {"Ann", "Ben"}
    assert balance(siege.cara) == 1 and balance(stranger) == 10


def test_the_preview_shows_owed_balance_who_deserts_and_what_is_paid(siege, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        preview = day_end_preview(campaign=siege.campaign, day=1)

    ann, ben = preview.for_commander(siege.ann), preview.for_commander(siege.ben)
    assert (ann.owed, ann.balance, ann.can_pay, ann.paid, ann.deserters) == (6, 20, True, 6, ())
    assert (ben.owed, ben.balance, ben.can_pay, ben.paid) == (8, 6, False, 3)
    assert [unit.name for unit in ben.deserters] == ["Dragon"]
    assert (preview.total_owed, preview.total_paid, preview.deserting) == (14, 9, 1)
    assert not Settlement.objects.exists() and not upkeep_entries(siege.ben).exists()  # a preview writes nothing


@pytest.mark.parametrize(
    ("policy", "deserters", "paid"),
    [
        # owes 8 with 6 coins: the Dragon (5) goes, the rest (3) is affordable
        (MOST_EXPENSIVE, ["Dragon"], 3),
        # Militia (1) goes: 7 > 6; Archers (2) go: 5 <= 6, paid; the Dragon stays
        (CHEAPEST, ["Militia", "Archers"], 5),
        # everyone who fought goes, nothing is paid
        (ALL_USED, ["Dragon", "Archers", "Militia"], 0),
    ],
)
def test_each_desertion_policy_with_worked_numbers(siege, policy, deserters, paid):
    Campaign.objects.filter(pk=siege.campaign.pk).update(desertion=policy)
    siege.campaign.refresh_from_db()

    assert [u.name for u in day_end_preview(campaign=siege.campaign, day=1).for_commander(siege.ben).deserters] == (
        deserters
    )
    day_settle(campaign=siege.campaign, day=1)

    settlement = Settlement.objects.get(commander=siege.ben, day=1)
    assert (settlement.owed, settlement.paid, settlement.deserted) == (8, paid, deserters)
    assert balance(siege.ben) == 6 - paid
    statuses = {name: ArmyUnit.objects.get(pk=unit.pk).status for name, unit in siege.ben_units.items()}
    assert {name for name, status in statuses.items() if status == ArmyUnit.Status.DESERTED} == set(deserters)
    assert balance(siege.ann) == 14  # the one who could pay pays in full under every policy


def test_with_credit_nobody_deserts_and_the_balance_goes_negative(siege):
    Campaign.objects.filter(pk=siege.campaign.pk).update(allow_credit=True)
    siege.campaign.refresh_from_db()

    bill = day_end_preview(campaign=siege.campaign, day=1).for_commander(siege.ben)
    assert (bill.can_pay, bill.paid, bill.deserters, bill.balance_after) == (True, 8, (), -2)
    day_settle(campaign=siege.campaign, day=1)

    assert balance(siege.ben) == -2
    assert not ArmyUnit.objects.filter(status=ArmyUnit.Status.DESERTED).exists()
    assert not UnitEvent.objects.filter(kind=UnitEvent.Kind.DESERTED).exists()


def test_settlement_writes_the_ledger_entry_and_the_desertion_history(siege):
    day_settle(campaign=siege.campaign, day=1)

    settlement = Settlement.objects.get(commander=siege.ben, day=1)
    [entry] = upkeep_entries(siege.ben)
    assert (entry.amount, entry.day, entry.cause_type, entry.cause_id) == (-3, 1, "settlement", settlement.pk)
    assert entry.reason == "Upkeep for day 1: 8 owed, 3 paid; could not pay, so Dragon deserted"
    dragon = ArmyUnit.objects.get(pk=siege.ben_units["Dragon"].pk)
    assert (dragon.status, dragon.left_day) == (ArmyUnit.Status.DESERTED, 1)
    [event] = UnitEvent.objects.filter(unit=dragon)
    assert (event.kind, event.day, event.cause) == (UnitEvent.Kind.DESERTED, 1, "Deserted: unpaid upkeep on day 1")
    assert (event.cause_type, event.cause_id) == ("settlement", settlement.pk)
    assert ArmyUnit.objects.filter(commander=siege.ben, status=ArmyUnit.Status.ACTIVE).count() == 2
    [ann_entry] = upkeep_entries(siege.ann)
    assert (ann_entry.amount, ann_entry.reason) == (-6, "Upkeep for day 1: 6 owed")


def test_the_day_closes_and_the_next_opens(siege):
    day_end = day_settle(campaign=siege.campaign, day=1)

    siege.campaign.refresh_from_db()
    assert siege.campaign.current_day == 2
    assert Day.objects.get(campaign=siege.campaign, number=1).closed_at is not None
    assert Day.objects.get(campaign=siege.campaign, number=2).closed_at is None
    assert (day_end.status, day_end.total, day_end.done, day_end.finished_at is not None) == ("done", 2, 2, True)


def test_running_the_settlement_twice_charges_nobody_twice(siege):
    day_settle(campaign=siege.campaign, day=1)
    again = day_settle(campaign=siege.campaign, day=1)  # a retry after success: the day is closed

    assert again.status == DayEnd.Status.DONE
    assert_charged_once(siege)
    assert (balance(siege.ann), balance(siege.ben)) == (14, 3)
    assert Day.objects.filter(campaign=siege.campaign).count() == 2
    assert Campaign.objects.get(pk=siege.campaign.pk).current_day == 2


def test_a_second_run_of_an_unfinished_day_skips_those_already_settled(db):
    world = many_commanders(5)
    day_end = DayEnd.objects.create(campaign=world.campaign, day=1)
    settlement._settle_chunk(
        campaign=world.campaign,
        day=1,
        day_end_id=day_end.pk,
        commander_ids=list(Commander.objects.filter(name__in=["C0000", "C0001"]).values_list("pk", flat=True)),
    )
    # the same chunk again, as a concurrent run would send it: nobody in it is settled twice
    assert (
        settlement._settle_chunk(
            campaign=world.campaign,
            day=1,
            day_end_id=day_end.pk,
            commander_ids=list(Commander.objects.filter(name__in=["C0000", "C0001"]).values_list("pk", flat=True)),
        )
        == 0
    )

    day_settle(campaign=world.campaign, day=1)

    assert_charged_once(world)
    assert Settlement.objects.filter(day=1).count() == 5


@pytest.mark.django_db(transaction=True)
def test_a_crash_mid_run_then_a_rerun_charges_everyone_exactly_once(monkeypatch):
    world = many_commanders(7)
    calls = {"n": 0}

    def third_one_fails_once(**kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("worker lost its marbles")
        return bill_for(**kwargs)

    monkeypatch.setattr(upkeep, "bill_for", third_one_fails_once)
    with pytest.raises(RuntimeError, match="marbles"):
        day_settle(campaign=world.campaign, day=1, chunk_size=2)

    day_end = DayEnd.objects.get(campaign=world.campaign, day=1)
    assert (day_end.status, day_end.done, day_end.total) == ("failed", 2, 7)
    assert "marbles" in day_end.error
    assert Settlement.objects.count() == 2  # the first chunk committed, the second rolled back whole
    assert LedgerEntry.objects.filter(kind="upkeep").count() == 2
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 1

    day_end = day_settle(campaign=world.campaign, day=1, chunk_size=2)

    assert (day_end.status, day_end.done, day_end.total, day_end.error) == ("done", 7, 7, "")
    assert_charged_once(world)
    assert Settlement.objects.count() == 7
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2
    assert Day.objects.get(campaign=world.campaign, number=1).closed_at is not None


def test_progress_is_written_chunk_by_chunk(db):
    world = many_commanders(5)
    seen = []

    def watch(settled: int) -> None:
        row = DayEnd.objects.get(campaign=world.campaign, day=1)
        seen.append((settled, row.status, row.done, row.total))

    day_settle(campaign=world.campaign, day=1, chunk_size=2, after_chunk=watch)

    assert seen == [(2, "running", 2, 5), (4, "running", 4, 5), (5, "running", 5, 5)]


def _settle_queries(count: int) -> int:
    world = many_commanders(count)
    with CaptureQueriesContext(connection) as captured:
        day_settle(campaign=world.campaign, day=1)
    assert_charged_once(world)
    assert ArmyUnit.objects.filter(commander__campaign=world.campaign, status="deserted").exists()
    return sum(1 for query in captured if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT")))


def test_the_settlement_does_a_fixed_number_of_queries(db):
    few, many = _settle_queries(5), _settle_queries(50)

    assert few == many
    assert many <= 23  # 5 to start, 10 for the (one) chunk, 7 to close the day, 1 to reread the DayEnd


@pytest.mark.parametrize("count", [5, 50])
def test_the_preview_does_a_fixed_number_of_queries(db, count, django_assert_max_num_queries):
    world = many_commanders(count)

    with django_assert_max_num_queries(3):
        preview = day_end_preview(campaign=world.campaign, day=1)

    assert len(preview.bills) == count
    assert sum(1 for bill in preview.bills if bill.deserters) == len(range(0, count, 3))


def test_errata_to_a_cards_upkeep_apply_to_the_days_settlement(siege):
    UnitCard.objects.filter(pk=siege.cards["Knights"].pk).update(upkeep=4)  # errata after the battles

    day_settle(campaign=siege.campaign, day=1)

    assert Settlement.objects.get(commander=siege.ann).owed == 7


def test_a_unit_killed_that_day_is_charged_and_cannot_desert(db):
    world = CampaignArmies()
    dora, foe = world.commander("Dora", 2), world.commander("Foe")
    ogre, goblin = world.units(dora, ("Ogre", 4), ("Goblin", 1))
    world.battle(dora, foe, [ogre, goblin])
    ArmyUnit.objects.filter(pk=ogre.pk).update(status=ArmyUnit.Status.KILLED, left_day=1)

    day_settle(campaign=world.campaign, day=1)

    # owes 5 with 2 coins: only the Goblin can desert, the Ogre's 4 is more than she has:
    # she pays what she has and the rest is waived (ruling U5)
    settlement = Settlement.objects.get(commander=dora)
    assert (settlement.owed, settlement.paid, settlement.deserted) == (5, 2, ["Goblin"])
    assert balance(dora) == 0
    assert ArmyUnit.objects.get(pk=ogre.pk).status == ArmyUnit.Status.KILLED


def test_only_the_current_day_can_be_settled(siege):
    with pytest.raises(ArmyError, match="has not begun"):
        day_settle(campaign=siege.campaign, day=2)
    assert not DayEnd.objects.exists()


def test_a_day_without_battles_still_closes(db):
    world = CampaignArmies()
    world.commander("Idle", 5)

    day_end = day_settle(campaign=world.campaign, day=1)

    assert (day_end.status, day_end.total) == ("done", 0)
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2
    assert not Settlement.objects.exists()


# --- the bill itself ------------------------------------------------------------------------------


def _bill(units, *, owed=None, balance, policy=MOST_EXPENSIVE, allow_credit=False):
    owed = sum(u.upkeep for u in units) if owed is None else owed
    return bill_for(
        commander_id=1,
        commander_name="X",
        account_id=1,
        owed=owed,
        balance=balance,
        units=units,
        policy=policy,
        allow_credit=allow_credit,
    )


def test_among_equally_expensive_units_the_latest_recruit_deserts_first():
    units = [UsedUnit(1, "Old guard", 3, True), UsedUnit(2, "New blood", 3, True), UsedUnit(3, "Page", 1, True)]

    assert [u.name for u in _bill(units, balance=4).deserters] == ["New blood"]
    assert [u.name for u in _bill(units, balance=4, policy=CHEAPEST).deserters] == ["Page", "New blood"]


def test_units_without_upkeep_do_not_desert_to_save_money():
    units = [UsedUnit(1, "Volunteer", 0, True), UsedUnit(2, "Knight", 3, True)]

    bill = _bill(units, balance=1, policy=CHEAPEST)

    assert ([u.name for u in bill.deserters], bill.paid) == (["Knight"], 0)


def test_a_negative_balance_pays_nothing_and_owes_nothing_more():
    units = [UsedUnit(1, "Knight", 3, True)]

    bill = _bill(units, balance=-4)

    assert (bill.can_pay, bill.paid, [u.name for u in bill.deserters]) == (False, 0, ["Knight"])


def test_exactly_enough_money_pays_in_full():
    units = [UsedUnit(1, "Knight", 3, True), UsedUnit(2, "Page", 1, True)]

    bill = _bill(units, balance=4)

    assert (bill.can_pay, bill.paid, bill.deserters, bill.balance_after) == (True, 4, (), 0)
