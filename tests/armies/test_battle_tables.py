"""armies/services/battle_tables.py: a battle opened from two armies, played at its table, and its result
taken back into the rosters (rulings B1-B6 in docs/rulings.md)."""

import logging
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from armies.models import ArmyUnit, Battle, Commander, DayEnd, UnitEvent, UnitUse
from armies.services import ArmyError
from armies.services.battles import BattleLocked
from campaign.models import Campaign
from tabletop.engines.kernel import IllegalAction
from tabletop.models import Table, TableAction
from tabletop.services.tables import SeatSpec, table_create, table_play, table_undo

from tests.armies._battles import ARMY, army, drive, open_battle
from tests.armies.factories import ArmyUnitFactory, UnitCardFactory

pytestmark = pytest.mark.django_db

def pay_favor(legal):
    return next((a for a in legal if a["type"] == "save" and a["pay"] == "favor"), None)


# --- opening --------------------------------------------------------------------------------------


def test_opening_snapshots_the_cards_as_they_are_now_training_included(world, vey, marr):
    card = UnitCardFactory(name="Pikemen", strength=3, role="guardian", path="steel", traits=["reach"], upkeep=2,
                           abilities=[{"kind": "discard_bonus", "amount": 1, "target": "either"}])
    trained = ArmyUnitFactory(commander=vey, card=card, trained_on=1)
    plain = ArmyUnitFactory(commander=vey, card=card)
    enemy = army(marr, 2)

    battle = open_battle(world, vey, marr, [trained, plain], enemy)

    table = battle.table
    assert (table.game, table.campaign, table.title) == ("army", world.campaign, f"Battle #{battle.pk}: Lady Vey "
                                                                                  f"against Lord Marr")
    assert table.config["units"][0] == [
        {"id": f"u{trained.pk}", "name": "Pikemen", "strength": 4, "role": "guardian", "path": "steel",
         "traits": ["reach"], "abilities": [{"kind": "discard_bonus", "amount": 1, "target": "either"}], "upkeep": 2},
        {"id": f"u{plain.pk}", "name": "Pikemen", "strength": 3, "role": "guardian", "path": "steel",
         "traits": ["reach"], "abilities": [{"kind": "discard_bonus", "amount": 1, "target": "either"}], "upkeep": 2},
    ]
    assert table.config["commanders"][0] == {
        "name": "Lady Vey", "kind": "pc", "progression": 4, "favors": 0, "influence_halves": 0,
        "role": "aggressor", "path": "steel", "options": {"cleric_available": True}}
    assert table.state["commanders"][0]["morale"] == 5  # 3 + 4 // 2
    assert (battle.day, battle.ended_at, battle.result) == (1, None, None)

    card.strength, card.name = 9, "Errata Pikemen"  # errata after the battle began
    card.save()
    table.refresh_from_db()
    assert table.config["units"][0][0]["strength"] == 4
    assert table.state["cards"][f"u{trained.pk}"]["name"] == "Pikemen"


def test_seat_zero_is_the_attacker_and_an_npc_seat_is_the_gms(world, vey, king):
    army(vey, 3)
    army(king, 3)
    battle = open_battle(world, king, vey, dice="physical", defending="defender", base_morale=2)

    seats = list(battle.table.seats.order_by("index"))
    assert [(seat.index, seat.membership) for seat in seats] == [(0, world.gm), (1, world.ann)]
    config = battle.table.config
    assert (config["dice"], config["defender"], config["base_morale"]) == ("physical", 1, 2)
    assert battle.table.state["commanders"][1]["base"] == 2


def test_no_base_when_nobody_defends_one(world, vey, marr):
    army(vey, 3)
    army(marr, 3)
    battle = open_battle(world, vey, marr, defending=None, base_morale=3)
    assert "defender" not in battle.table.config
    assert battle.table.state["commanders"][1]["base"] == 0


@pytest.mark.parametrize("problem", ["other army", "left", "cannot fight", "none"])
def test_units_are_checked_and_nothing_is_saved_when_one_is_wrong(world, vey, marr, problem):
    mine, theirs = army(vey, 3), army(marr, 3)
    if problem == "other army":
        mine, message = mine + theirs, f"Unit #{theirs[0].pk} is not in Lady Vey's army."
    elif problem == "left":
        ArmyUnit.objects.filter(pk=mine[0].pk).update(status="dismissed", left_day=1)
        message = "left Lady Vey's army on day 1"
    elif problem == "cannot fight":
        mine += army(vey, None, role="equipment", name="Banner")
        message = "Banner .* has no Strength and is not a Ritual: it cannot fight."
    else:
        mine, message = [], "Choose at least one unit of Lady Vey's army."

    with pytest.raises(ArmyError, match=message):
        open_battle(world, vey, marr, mine, theirs)
    assert not Battle.objects.exists() and not Table.objects.exists()


def test_a_ritual_without_strength_may_fight(world, vey, marr):
    ritual = army(vey, None, role="ritual", path="steel",
                  abilities=[{"kind": "ritual_bonus", "amount": 1}])[0]
    battle = open_battle(world, vey, marr, [*army(vey, 3, 3), ritual], army(marr, 3))
    cards = {card["id"]: card for card in battle.table.config["units"][0]}
    assert (cards[f"u{ritual.pk}"]["role"], cards[f"u{ritual.pk}"]["strength"]) == ("ritual", None)


def test_locks_are_refused_with_their_reasons_and_the_gm_overrides_them_with_a_logged_reason(world, vey, marr,
                                                                                            caplog):
    army(vey, 3)
    army(marr, 3)
    first = open_battle(world, vey, marr)

    with pytest.raises(BattleLocked) as refused:
        open_battle(world, marr, vey)
    assert refused.value.reasons == [f"Battle #{first.pk} between Lord Marr and Lady Vey is still in progress."]
    assert Battle.objects.count() == Table.objects.count() == 1

    with caplog.at_level(logging.WARNING, logger="armies.services.battles"):
        second = open_battle(world, marr, vey, override_reason="A second front opened")
    assert second.override_reason == "A second front opened" and second.table is not None
    assert "despite" in caplog.text and "A second front opened" in caplog.text


def test_only_the_gm_may_override_and_a_player_opens_only_for_their_own_army(world, vey, marr):
    army(vey, 3)
    army(marr, 3)
    with pytest.raises(PermissionDenied):
        open_battle(world, vey, marr, opened_by=world.ben.user)
    open_battle(world, vey, marr, opened_by=world.ann.user)
    with pytest.raises(ArmyError, match="Only the GM can open a battle despite a lock."):
        open_battle(world, vey, marr, opened_by=world.ann.user, override_reason="Because")


def test_battles_open_only_before_the_day_end_starts(world, vey, marr):
    army(vey, 3)
    army(marr, 3)
    DayEnd.objects.create(campaign=world.campaign, day=1)
    with pytest.raises(ArmyError, match="Day 1 is being settled: battles can be fought again on day 2."):
        open_battle(world, vey, marr)
    assert not Battle.objects.exists()


# --- the end --------------------------------------------------------------------------------------


def test_a_battle_played_to_the_end_updates_the_rosters(world, vey, marr):
    mine, theirs = army(vey, 5, 5), army(marr, 1, 1)
    battle = open_battle(world, vey, marr, dice="physical")

    table = drive(battle.table)

    battle.refresh_from_db()
    result = battle.result
    assert battle.ended_at == table.finished_at and battle.winner == vey
    assert result["winner"] == 0 and result["reason"] == table.outcome["reason"]
    killed = {entry["unit"] for entry in result["sides"][1]["killed"]}
    assert killed == {unit.pk for unit in theirs}  # every 6 against 1 kills
    for unit in theirs:
        unit.refresh_from_db()
        assert (unit.status, unit.left_day) == ("killed", 1)
        event = unit.history.get(kind=UnitEvent.Kind.KILLED)
        assert (event.cause, event.cause_type, event.cause_id) == (f"Killed in battle #{battle.pk}", "battle",
                                                                   battle.pk)
    used = set(UnitUse.objects.filter(day=1).values_list("unit_id", flat=True))
    assert used == {unit.pk for unit in mine + theirs}
    assert set(UnitUse.objects.values_list("first_battle", flat=True)) == {battle.pk}
    assert battle.routed == (marr if result["sides"][1]["routed"] else None)


def test_the_routed_army_is_recorded_and_locked_for_the_day(world, vey, marr):
    army(vey, 5, 5, 5)
    army(marr, 1)
    Commander.objects.filter(pk=marr.pk).update(progression=0)  # 3 Morale: one Unopposed attack of 18 routs
    battle = open_battle(world, vey, marr, dice="physical")
    drive(battle.table, prefer=lambda legal: next((a for a in legal if a["type"] == "pass"
                                                   and a["seat"] == 1), None))

    battle.refresh_from_db()
    assert battle.routed == marr and battle.winner == vey
    assert battle.result["sides"][1]["routed"] is True and battle.result["sides"][1]["morale_left"] == 0
    with pytest.raises(BattleLocked, match="Lord Marr was routed today"):
        open_battle(world, vey, marr, override_reason="")


def test_a_second_battle_the_same_day_counts_a_unit_once_and_carries_morale(world, vey, marr, king):
    mine = army(vey, 5, 5)
    army(marr, 1)
    army(king, 1)
    first = open_battle(world, vey, marr, dice="physical")
    drive(first.table)
    first.refresh_from_db()
    left = first.result["sides"][0]["morale_left"]

    second = open_battle(world, vey, king, dice="physical")
    assert second.table.config["commanders"][0]["morale"] == left
    assert "morale" not in second.table.config["commanders"][1]
    drive(second.table)

    assert UnitUse.objects.filter(unit__in=mine).count() == 2  # one row per unit, not per battle
    assert set(UnitUse.objects.filter(unit__in=mine).values_list("first_battle", flat=True)) == {first.pk}


def test_the_cleric_once_a_day_is_carried(world, vey, marr, king):
    army(vey, 3)
    army(marr, 3)
    army(king, 3)
    first = open_battle(world, vey, marr)
    drive(first.table)
    first.refresh_from_db()
    first.result["sides"][0]["cleric_used"] = True  # as if Lady Vey had used the Cleric's power
    first.save(update_fields=["result"])

    second = open_battle(world, king, vey, d_units=army(vey, 3))
    assert second.table.config["commanders"][1]["options"] == {"cleric_available": False}
    assert second.table.config["commanders"][0]["options"] == {"cleric_available": True}


def test_a_kill_saved_with_a_favor_costs_the_commander_a_favor(world, vey, marr):
    army(vey, 5)
    saved = army(marr, 1)[0]
    Commander.objects.filter(pk=marr.pk).update(favors=2, influence_halves=1)
    battle = open_battle(world, vey, marr, dice="physical")

    drive(battle.table, prefer=pay_favor)

    battle.refresh_from_db()
    marr.refresh_from_db()
    side = battle.result["sides"][1]
    assert "Lord Marr pays a Favor: Test Unit" in " ".join(battle.table.state["events"])
    assert (side["spent_favors"], side["spent_influence_halves"], side["killed"]) == (1, 0, [])
    assert (marr.favors, marr.influence_halves) == (1, 1)
    saved.refresh_from_db()
    assert saved.status == "active"  # only Disabled, then survived the rout roll (a 1)
    assert UnitUse.objects.filter(unit=saved, day=1).exists()


def test_a_kill_saved_with_half_an_influence_costs_half_an_influence(world, vey, marr):
    army(vey, 5)
    army(marr, 1)
    Commander.objects.filter(pk=marr.pk).update(favors=1, influence_halves=3)
    battle = open_battle(world, vey, marr, dice="physical")

    drive(battle.table, prefer=lambda legal: next((a for a in legal if a.get("pay") == "influence"), None))

    marr.refresh_from_db()
    battle.refresh_from_db()
    assert (battle.result["sides"][1]["spent_influence_halves"], marr.influence_halves, marr.favors) == (1, 2, 1)


def test_a_result_after_the_day_moved_on_is_refused(world, vey, marr):
    army(vey, 5)
    army(marr, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    Campaign.objects.filter(pk=world.campaign.pk).update(current_day=2)
    with pytest.raises(IllegalAction, match="Day 1 is over \\(the campaign is on day 2\\)"):
        drive(battle.table)


def test_an_army_table_without_a_campaign_battle_finishes_without_touching_rosters(world):
    table = table_create(campaign=world.campaign, game="army", title="Practice", config=ARMY.starter_config(),
                         seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)], seed=3)
    assert drive(table).is_finished
    assert not Battle.objects.exists() and not UnitUse.objects.exists()


def test_spending_never_takes_a_commander_below_zero(world, vey, marr):
    """Favors spent at the table but lost from the row meanwhile (a GM edit) leave it at 0, not negative."""
    army(vey, 5)
    army(marr, 1)
    Commander.objects.filter(pk=marr.pk).update(favors=1)
    battle = open_battle(world, vey, marr, dice="physical")
    Commander.objects.filter(pk=marr.pk).update(favors=0)

    drive(battle.table, prefer=pay_favor)

    marr.refresh_from_db()
    assert marr.favors == 0


def test_undo_is_refused_once_the_result_is_in_the_rosters(world, vey, marr):
    army(vey, 5)
    army(marr, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    table = drive(battle.table)

    with pytest.raises(IllegalAction, match=f"Battle #{battle.pk}'s result is already in the rosters"):
        table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    table.refresh_from_db()
    assert table.is_finished
    assert not TableAction.objects.filter(table=table, kind=TableAction.Kind.UNDO).exists()


def test_undo_during_the_battle_still_works(world, vey, marr):
    army(vey, 5, 5)
    army(marr, 1, 1)
    table = open_battle(world, vey, marr).table
    first = ARMY.legal_actions(table.state)[0]
    table = table_play(table_id=table.pk, seat=first["seat"], action=first, version=table.version).table
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert table.version == 2 and not table.is_finished


def test_a_result_for_a_day_settled_meanwhile_is_refused_and_nothing_is_saved(world, vey, marr):
    army(vey, 5)
    army(marr, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    table = battle.table
    DayEnd.objects.create(campaign=world.campaign, day=1)

    with pytest.raises(IllegalAction, match=f"Battle #{battle.pk} cannot be recorded. Day 1 is being settled"):
        drive(table)

    last = Table.objects.get(pk=table.pk)
    assert not last.is_finished and last.outcome is None
    assert TableAction.objects.filter(table=table).count() == last.version
    battle.refresh_from_db()
    assert battle.ended_at is None and battle.result is None
    assert not UnitUse.objects.exists()


def test_a_unit_removed_during_the_battle_is_not_killed_twice(world, vey, marr):
    army(vey, 5)
    gone = army(marr, 1)[0]
    battle = open_battle(world, vey, marr, dice="physical")
    ArmyUnit.objects.filter(pk=gone.pk).update(status="dismissed", left_day=1)

    drive(battle.table)

    gone.refresh_from_db()
    assert gone.status == "dismissed" and not gone.history.filter(kind="killed").exists()
    assert UnitUse.objects.filter(unit=gone).exists()


def test_the_rematch_hour_counts_from_the_tables_end(world, vey, marr):
    army(vey, 5)
    army(marr, 1, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    drive(battle.table)
    battle.refresh_from_db()
    assert timezone.now() - battle.ended_at < timedelta(minutes=1)
    with pytest.raises(BattleLocked, match="may fight again at"):
        open_battle(world, marr, vey)
