"""Taking back the latest day end (armies/services/day_end_revert.py; rulings R1-R4).

The day is ended with the real ``day_settle``; a snapshot of everything the issue names
(balances, rosters, the day, the Day rows, the open offers, the locks) is compared before and after.
"""

from __future__ import annotations

import pytest
from django.db.models import Sum
from django.urls import reverse

from armies.models import ArmyUnit, Battle, DayEnd, Settlement, UnitEvent, UnitUse
from armies.services import ArmyError
from armies.services.battles import battle_day_refusal, battle_open_check
from armies.services.day_end import day_end_report, day_end_start
from armies.services.day_end_revert import AlreadyTakenBack, day_end_revert, day_end_revert_preview
from armies.services.recruiting import recruit_buy
from armies.services.settlement import day_settle
from campaign.ledger import balance_of
from campaign.models import Activity, Campaign, Day, LedgerEntry
from campaign.services import ledger_adjust
from campaign.submissions import AlreadyDone, new_token
from tabletop.models import Stake
from tabletop.services.abandon import table_abandon

from tests.armies._day_end import Day1, settled
from tests.armies.factories import CommanderFactory, RecruitOfferFactory
from tests.concurrency import race
from tests.counted import counted_get
from tests.tabletop._stakes import open_staked

pytestmark = pytest.mark.django_db


def ledger(campaign) -> list[tuple]:
    return list(
        LedgerEntry.objects.filter(account__campaign=campaign).order_by("pk").values_list("pk", "amount", "day")
    )


@pytest.fixture
def siege(world):
    return Day1(world)


# --- the test -----------------------------------------------------------------------------


def test_revert_puts_every_balance_roster_day_and_offer_back_and_ending_again_settles_the_same(siege):
    before = siege.snapshot()
    assert before["offers"] == [siege.pikemen.pk]

    siege.end()
    ended = siege.snapshot()
    assert ended["day"] == 2
    assert ended["balances"] == {"Lady Vey": 95, "Lord Marr": 4, "Cara": 7}
    assert ArmyUnit.objects.get(pk=siege.golem.pk).status == ArmyUnit.Status.DESERTED
    assert ended["offers"] == []
    first_settlement = ended["settlements"]
    assert first_settlement == [("Lady Vey", 1, 5, 5, []), ("Lord Marr", 1, 9, 1, ["Golem"])]

    activity = siege.revert()

    after = siege.snapshot()
    assert after == {**before, "days": [(1, None)]}  # the day list: day 1 open again, no day 2
    assert before["days"] == [(1, None)]
    assert activity.kind == Activity.Kind.DAY_END_REVERT
    assert activity.summary == "Day 1 end taken back: 2 commanders refunded 6 coins, 1 unit returned"
    assert DayEnd.objects.get().status == DayEnd.Status.REVERTED

    siege.end()
    assert siege.snapshot()["settlements"] == first_settlement
    assert siege.snapshot()["balances"] == ended["balances"]
    assert ArmyUnit.objects.get(pk=siege.golem.pk).status == ArmyUnit.Status.DESERTED
    assert DayEnd.objects.get().status == DayEnd.Status.DONE


def test_the_ledger_is_append_only_refunds_are_correction_entries_caused_by_the_activity(siege):
    siege.end()
    written = ledger(siege.campaign)

    activity = siege.revert()

    now = ledger(siege.campaign)
    assert now[: len(written)] == written  # nothing changed, nothing removed
    corrections = LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).order_by("account__name")
    assert [(e.account.name, e.amount, e.day, e.reason, e.cause_type, e.cause_id) for e in corrections] == [
        ("Lady Vey", 5, 1, "Day 1 end taken back: upkeep of 5 refunded", "day_end_revert", activity.pk),
        ("Lord Marr", 1, 1, "Day 1 end taken back: upkeep of 1 refunded", "day_end_revert", activity.pk),
    ]
    assert len(now) == len(written) + 2


def test_deserters_come_back_as_they_were_with_a_returned_event(siege):
    siege.end()
    activity = siege.revert()

    golem = ArmyUnit.objects.get(pk=siege.golem.pk)
    assert (golem.status, golem.left_day, golem.trained) == (ArmyUnit.Status.ACTIVE, None, False)
    returned = golem.history.last()
    assert (returned.kind, returned.day, returned.cause, returned.cause_type, returned.cause_id) == (
        UnitEvent.Kind.RETURNED,
        1,
        "Back in the army: the end of day 1 was taken back",
        "day_end_revert",
        activity.pk,
    )
    militia = ArmyUnit.objects.get(pk=siege.militia.pk)
    assert (militia.status, militia.trained) == (ArmyUnit.Status.ACTIVE, True)
    assert not UnitEvent.objects.filter(kind=UnitEvent.Kind.RETURNED).exclude(unit=golem).exists()
    assert Settlement.objects.filter(reverted_at__isnull=False).count() == 2  # kept for the history
    assert activity.details["commanders"] == [
        {"id": siege.vey.pk, "name": "Lady Vey", "refund": 5, "units": []},
        {"id": siege.marr.pk, "name": "Lord Marr", "refund": 1, "units": [{"id": golem.pk, "name": "Golem"}]},
    ]
    assert activity.target_type == "dayend"


def test_an_offer_whose_last_day_was_taken_back_is_buyable_again_and_the_routed_are_locked_again(siege):
    siege.end()
    with pytest.raises(ArmyError, match="ended on day 1"):
        recruit_buy(offer=siege.pikemen, commander=siege.vey, day=2, bought_by=siege.world.ann.user)
    later = battle_open_check(attacker=siege.vey, defender=siege.marr, now=siege.pikemen.created_at, day=2)
    assert not any("routed" in reason for reason in later)

    siege.revert()

    reasons = battle_open_check(attacker=siege.vey, defender=siege.marr, now=siege.pikemen.created_at, day=1)
    assert any("Lord Marr was routed" in reason for reason in reasons)
    assert battle_day_refusal(campaign_id=siege.campaign.pk, day=1, current_day=1) is None  # battles again
    unit = recruit_buy(offer=siege.pikemen, commander=siege.vey, day=1, bought_by=siege.world.ann.user)
    assert unit.joined_day == 1


def test_allow_credit_negative_balances_come_back(world):
    siege = Day1(world, allow_credit=True)
    before = siege.snapshot()
    siege.end()
    assert siege.snapshot()["balances"]["Lord Marr"] == -4
    siege.revert()
    assert siege.snapshot() == before


def test_a_day_where_nobody_used_units_is_taken_back_with_nothing_to_refund(world):
    CommanderFactory(membership=world.ann, name="Idle", balance=3)
    day_settle(campaign=world.campaign, day=1)
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 2

    activity = day_end_revert(campaign=world.campaign, day=1, gm=world.gm.user)

    assert activity.summary == "Day 1 end taken back: no upkeep to refund, no unit to return"
    assert Campaign.objects.get(pk=world.campaign.pk).current_day == 1
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.CORRECTION).exists()
    assert list(Day.objects.values_list("number", "closed_at")) == [(1, None)]


def test_ending_the_day_again_through_day_end_start_reuses_the_taken_back_row(
    siege, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        day_end_start(campaign=siege.campaign, day=1, started_by=siege.world.gm.user)
    siege.revert()
    report = day_end_report(campaign_id=siege.campaign.pk, day=1)
    assert (report.tone, report.sentence) == (
        "info",
        "The end of day 1 was taken back: the campaign is on day 1 again.",
    )

    with django_capture_on_commit_callbacks(execute=True):
        day_end_start(campaign=siege.campaign, day=1, started_by=siege.world.gm.user)

    assert DayEnd.objects.values_list("status", flat=True).get() == DayEnd.Status.DONE
    assert Campaign.objects.get(pk=siege.campaign.pk).current_day == 2
    assert settled(siege.campaign) == [("Lady Vey", 1, 5, 5, []), ("Lord Marr", 1, 9, 1, ["Golem"])]


def test_two_day_ends_can_be_taken_back_one_after_the_other(siege):
    """Ruling R2: what a take-back wrote on day 2 (and the day 2 upkeep it undid) is not in the way."""
    before = siege.snapshot()
    siege.end()
    UnitUse.objects.create(unit=siege.spearmen, commander=siege.vey, day=2)
    siege.end()
    assert siege.snapshot()["balances"]["Lady Vey"] == 92

    siege.revert(day=2)
    siege.revert(day=1)

    assert siege.snapshot() == before


# --- refusals -------------------------------------------------------------------------------------


def refused(siege, day=1) -> str:
    ledger_before = ledger(siege.campaign)
    with pytest.raises(ArmyError) as refusal:
        siege.revert(day=day)
    assert ledger(siege.campaign) == ledger_before
    assert not Activity.objects.filter(kind=Activity.Kind.DAY_END_REVERT).exists()
    assert day_end_revert_preview(siege.campaign, day).refusal == str(refusal.value)
    return str(refusal.value)


def test_a_purchase_on_the_new_day_is_in_the_way(siege):
    siege.end()
    offer = RecruitOfferFactory(campaign=siege.campaign, card=siege.pikemen.card, price=4)
    recruit_buy(offer=offer, commander=siege.vey, day=2, bought_by=siege.world.ann.user)

    assert refused(siege) == (
        "Day 1 cannot be taken back: on day 2 Lady Vey has a recruitment entry (Recruited Pikemen, -4) and "
        "Lady Vey's Pikemen joined. Undo those first."
    )
    assert Campaign.objects.get(pk=siege.campaign.pk).current_day == 2


def test_an_adjustment_on_the_new_day_is_in_the_way(siege):
    siege.end()
    ledger_adjust(account=siege.cara.account, amount=2, reason="Found a purse", gm=siege.world.gm.user)
    assert refused(siege) == (
        "Day 1 cannot be taken back: on day 2 Cara has a GM adjustment entry (Found a purse, +2). Undo those first."
    )


def test_a_battle_of_the_new_day_is_in_the_way_open_or_ended(siege):
    siege.end()
    battle = Battle.objects.create(campaign=siege.campaign, attacker=siege.vey, defender=siege.cara, day=2)
    assert refused(siege) == f"Day 1 cannot be taken back: on day 2 battle #{battle.pk} was opened. Undo those first."


def test_a_side_event_with_stakes_opened_since_is_in_the_way(siege, table):
    """The stakes' entries are dated day 2 too; a staked table counts even when its pot is refunded."""
    siege.end()
    table.created_at = DayEnd.objects.get().finished_at
    table.save(update_fields=["created_at"])
    Stake.objects.create(table=table, entry_fee=3)
    assert refused(siege) == (
        f"Day 1 cannot be taken back: on day 2 the side event “{table.title}” was opened with stakes. Undo those first."
    )


def test_a_staked_side_event_opened_since_and_abandoned_is_no_longer_in_the_way(siege):
    """The GM undoes it the only way there is, abandoning it (fees refunded): then the day can be taken back."""
    siege.end()
    ledger_adjust(account=siege.cara.account, amount=20, reason="Prize", gm=siege.world.gm.user)
    purses = [siege.vey.account, siege.marr.account]
    staked = open_staked(siege.world, [siege.world.ann, siege.world.ben], purses, fee=3)
    assert "the side event “Gridaris at the Inn” was opened with stakes" in refused(siege)
    staked.refresh_from_db()
    table_abandon(table_id=staked.pk, version=staked.version, gm=siege.world.gm.user, reason="Wrong day")
    assert "Gridaris" not in refused(siege)  # the adjustment is still in the way, the abandoned table is not
    LedgerEntry.objects.create(
        account=siege.cara.account, amount=-20, day=2, kind=LedgerEntry.Kind.ADJUSTMENT, reason="Prize taken back"
    )
    assert "Prize" in refused(siege)  # an adjustment that cancels out is still the GM's to explain (R1)


def test_a_table_opened_before_the_day_end_is_not_in_the_way(siege, table):
    Stake.objects.create(table=table, entry_fee=3)
    siege.end()
    siege.revert()
    assert Campaign.objects.get(pk=siege.campaign.pk).current_day == 1


def test_many_things_in_the_way_are_named_in_one_sentence(siege):
    siege.end()
    for amount in range(1, 7):
        ledger_adjust(account=siege.cara.account, amount=amount, reason=f"Gift {amount}", gm=siege.world.gm.user)
    sentence = refused(siege)
    assert sentence.startswith("Day 1 cannot be taken back: on day 2 Cara has a GM adjustment entry (Gift 1, +1), ")
    assert sentence.endswith("(Gift 4, +4) (and more). Undo those first.")


def test_only_the_latest_day_end_can_be_taken_back(siege):
    siege.end()
    siege.end()
    assert refused(siege, day=1) == (
        "Only the latest day end can be taken back: that is day 2, not day 1 (the campaign is on day 3)."
    )


def test_nothing_ended_yet(siege):
    assert refused(siege, day=1) == "Day 1 has not ended: the campaign is on day 1, so there is nothing to take back."
    assert day_end_revert_preview(siege.campaign).refusal == "No day has ended yet: the campaign is on day 1."


def test_a_running_or_failed_day_end_cannot_be_taken_back(siege):
    DayEnd.objects.create(campaign=siege.campaign, day=1, status=DayEnd.Status.RUNNING)
    assert refused(siege) == "Day 1 is still being settled: let it finish, then take it back if you must."
    DayEnd.objects.filter(day=1).update(status=DayEnd.Status.FAILED)
    assert refused(siege) == (
        "The end of day 1 failed and did not finish, so there is nothing to take back: press End day 1 to finish it."
    )


def test_a_day_end_underway_on_the_new_day_is_in_the_way(siege):
    siege.end()
    DayEnd.objects.create(campaign=siege.campaign, day=2, status=DayEnd.Status.QUEUED)
    assert refused(siege) == "Day 1 cannot be taken back: on day 2 day 2 has been ended too (queued). Undo those first."


def test_a_second_revert_is_refused_as_already_taken_back(siege):
    siege.end()
    siege.revert()
    ledger_before = ledger(siege.campaign)
    with pytest.raises(AlreadyTakenBack, match="^Already taken back: the end of day 1 was taken back; the campaign"):
        siege.revert()
    assert ledger(siege.campaign) == ledger_before
    assert day_end_revert_preview(siege.campaign, 1).already


def test_a_repeated_token_reverts_once_even_after_the_day_was_ended_again(siege):
    token = new_token()
    siege.end()
    first = siege.revert(submission=token)
    siege.end()
    with pytest.raises(AlreadyDone) as done:
        siege.revert(submission=token)
    assert done.value.result == first
    assert Campaign.objects.get(pk=siege.campaign.pk).current_day == 2


def test_the_preview_says_what_would_be_refunded_and_changes_nothing(siege):
    siege.end()
    written = ledger(siege.campaign)
    preview = day_end_revert_preview(siege.campaign)
    assert (preview.day, preview.refusal, preview.total_refund, preview.returned) == (1, "", 6, 1)
    assert [(r.name, r.refund, r.units) for r in preview.refunds] == [
        ("Lady Vey", 5, ()),
        ("Lord Marr", 1, ((siege.golem.pk, "Golem"),)),
    ]
    assert ledger(siege.campaign) == written
    assert Campaign.objects.get(pk=siege.campaign.pk).current_day == 2


def test_the_preview_reads_a_fixed_number_of_queries(client, siege, django_assert_max_num_queries):
    """The preview's reads are pinned, and so is its page, which shows what the preview says."""
    siege.end()
    with django_assert_max_num_queries(12):
        preview = day_end_revert_preview(siege.campaign)
    assert (preview.day, preview.total_refund, [r.name for r in preview.refunds]) == (1, 6, ["Lady Vey", "Lord Marr"])
    client.force_login(siege.world.gm.user)
    page = reverse("armies:day_end_revert", args=[siege.campaign.slug]) + "?day=1"
    counted_get(client, page, queries=14, contains=["Take back the end of day 1?", "Lady Vey", "Lord Marr", "Golem"])


# --- concurrency ----------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_revert_racing_a_purchase_on_the_new_day_applies_exactly_one(world):
    siege = Day1(world)
    siege.end()
    offer = RecruitOfferFactory(campaign=siege.campaign, card=siege.pikemen.card, price=4)
    vey_after_day_1 = balance_of(siege.vey.account)

    results = race(
        [
            lambda: siege.revert(),
            lambda: recruit_buy(offer=offer, commander=siege.vey, day=2, bought_by=world.ann.user),
        ]
    )

    reverted, bought = (not isinstance(result, Exception) for result in results)
    day = Campaign.objects.get(pk=siege.campaign.pk).current_day
    assert reverted != bought, results
    if reverted:
        assert day == 1
        assert balance_of(siege.vey.account) == 100
        assert not LedgerEntry.objects.filter(day=2).exists()
        assert isinstance(results[1], ArmyError)
    else:
        assert day == 2
        assert balance_of(siege.vey.account) == vey_after_day_1 - 4
        assert "Lady Vey has a recruitment entry (Recruited Pikemen, -4)" in str(results[0])
    total = LedgerEntry.objects.filter(account__campaign=siege.campaign).aggregate(s=Sum("amount"))["s"]
    assert total == sum(siege.snapshot()["balances"].values())


def test_a_side_table_without_stakes_opened_since_is_not_in_the_way(siege, table):
    """Ruling R1: a game played for nothing does not depend on the day number."""
    siege.end()
    table.created_at = DayEnd.objects.get().finished_at
    table.save(update_fields=["created_at"])
    siege.revert()
    assert Campaign.objects.get(pk=siege.campaign.pk).current_day == 1


def test_the_schedule_leaves_a_taken_back_day_to_the_gm(siege):
    """Ruling R3: the clock does not end again at once a day the GM has just taken back."""
    from datetime import time, timedelta

    from django.utils import timezone

    from armies.schedule import due_day_ends

    siege.campaign.day_end_time = time(20, 0)
    siege.campaign.save(update_fields=["day_end_time"])
    siege.end()
    siege.revert()
    assert due_day_ends(now=timezone.now() + timedelta(days=2)) == []
