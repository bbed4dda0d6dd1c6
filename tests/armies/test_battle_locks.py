"""armies/services/battles.py: the locks on opening a battle, the GM's override, and a battle's end."""

import logging
from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from armies.models import ArmyUnit, Battle, UnitUse
from armies.services import ArmyError
from armies.services.battles import BattleLocked, battle_finish, battle_open, battle_open_check

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

ENDED = datetime(2025, 5, 1, 13, 5, tzinfo=UTC)


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey")


@pytest.fixture
def marr(world):
    return CommanderFactory(membership=world.ben, name="Lord Marr")


@pytest.fixture
def king(world):
    return CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King")


def fought(attacker, defender, *, day=1, ended_at=ENDED, routed=None):
    """A battle that already happened (or, with ``ended_at=None``, is still going on)."""
    battle = Battle.objects.create(campaign=attacker.campaign, attacker=attacker, defender=defender, day=day,
                                   routed=routed)
    started = (ended_at or ENDED) - timedelta(minutes=40)
    Battle.objects.filter(pk=battle.pk).update(started_at=started, ended_at=ended_at)
    battle.refresh_from_db()
    return battle


def check(attacker, defender, *, now=ENDED + timedelta(hours=5), day=1):
    return battle_open_check(attacker=attacker, defender=defender, now=now, day=day)


# --- the locks ------------------------------------------------------------------------------------


def test_armies_that_never_fought_may_fight(vey, marr):
    assert check(vey, marr) == []


@pytest.mark.parametrize("swap", [False, True])
def test_the_same_armies_wait_an_hour_after_a_battle_in_either_order(vey, marr, swap):
    fought(*((marr, vey) if swap else (vey, marr)))

    assert check(vey, marr, now=ENDED + timedelta(minutes=30)) == [
        "Lady Vey and Lord Marr fought until 13:05 and may fight again at 14:05."]
    assert check(vey, marr, now=ENDED + timedelta(minutes=59, seconds=59)) != []
    assert check(vey, marr, now=ENDED + timedelta(hours=1)) == []


def test_the_hour_counts_from_the_latest_battle_between_them(vey, marr):
    fought(vey, marr, ended_at=ENDED - timedelta(hours=3))
    fought(marr, vey, ended_at=ENDED)
    assert check(vey, marr, now=ENDED + timedelta(minutes=10)) == [
        "Lady Vey and Lord Marr fought until 13:05 and may fight again at 14:05."]


def test_other_armies_are_not_held_by_the_hour(vey, marr, king):
    fought(vey, marr)
    assert check(vey, king, now=ENDED + timedelta(minutes=5)) == []


def test_a_routed_army_cannot_be_engaged_again_that_day_by_anyone(vey, marr, king):
    fought(vey, marr, day=2, routed=marr)

    assert check(king, marr, day=2) == ["Lord Marr was routed today and cannot be engaged again until tomorrow."]
    assert check(vey, king, day=2) == []
    assert check(king, marr, day=3) == []


def test_a_battle_in_progress_between_them_blocks_another(vey, marr):
    running = fought(vey, marr, ended_at=None)
    assert check(marr, vey) == [f"Battle #{running.pk} between Lord Marr and Lady Vey is still in progress."]


def test_every_reason_is_given(vey, marr):
    fought(vey, marr, day=1, routed=vey, ended_at=ENDED)
    running = fought(marr, vey, ended_at=None)

    assert check(vey, marr, now=ENDED + timedelta(minutes=1)) == [
        f"Battle #{running.pk} between Lady Vey and Lord Marr is still in progress.",
        "Lady Vey and Lord Marr fought until 13:05 and may fight again at 14:05.",
        "Lady Vey was routed today and cannot be engaged again until tomorrow.",
    ]


# --- opening --------------------------------------------------------------------------------------


def test_a_player_opens_a_battle_for_their_own_army(world, vey, marr):
    battle = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.ann.user)
    assert (battle.campaign, battle.attacker, battle.defender, battle.day, battle.override_reason) == (
        world.campaign, vey, marr, 1, "")
    assert battle.ended_at is None


def test_a_player_cannot_open_a_battle_for_someone_elses_army(world, vey, marr):
    with pytest.raises(PermissionDenied, match="You can open battles only for your own commanders."):
        battle_open(attacker=vey, defender=marr, day=1, opened_by=world.ben.user)
    assert not Battle.objects.exists()


def test_a_locked_battle_is_refused_with_all_its_reasons(world, vey, marr):
    fought(vey, marr, day=1, routed=marr, ended_at=timezone.now() - timedelta(minutes=10))

    with pytest.raises(BattleLocked) as refused:
        battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user)

    assert len(refused.value.reasons) == 2
    assert "may fight again at" in refused.value.reasons[0]
    assert refused.value.reasons[1] == "Lord Marr was routed today and cannot be engaged again until tomorrow."
    assert str(refused.value) == " ".join(refused.value.reasons)
    assert Battle.objects.count() == 1


def test_the_gm_overrides_a_lock_with_a_reason_that_is_stored_and_logged(world, vey, marr, caplog):
    fought(vey, marr, day=1, routed=marr, ended_at=timezone.now() - timedelta(minutes=10))

    with caplog.at_level(logging.WARNING, logger="armies.services.battles"):
        battle = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user,
                             override_reason="  The bandits cornered them at the ford  ")

    assert battle.override_reason == "The bandits cornered them at the ford"
    assert f"Battle #{battle.pk}" in caplog.text
    assert "routed today" in caplog.text and "cornered them at the ford" in caplog.text


def test_only_the_gm_may_override(world, vey, marr):
    fought(vey, marr, ended_at=timezone.now())
    with pytest.raises(ArmyError, match="Only the GM can open a battle despite a lock."):
        battle_open(attacker=vey, defender=marr, day=1, opened_by=world.ann.user, override_reason="Please")
    assert Battle.objects.count() == 1


def test_an_override_reason_without_a_lock_is_not_stored(world, vey, marr):
    battle = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user, override_reason="Just because")
    assert battle.override_reason == ""


def test_an_army_cannot_fight_itself_or_another_campaign(world, vey):
    with pytest.raises(ArmyError, match="A commander cannot fight their own army."):
        battle_open(attacker=vey, defender=vey, day=1, opened_by=world.gm.user)
    stranger = CommanderFactory(membership__campaign=CampaignFactory(), name="Stranger")
    with pytest.raises(ArmyError, match="Lady Vey and Stranger are in different campaigns."):
        battle_open(attacker=vey, defender=stranger, day=1, opened_by=world.gm.user, override_reason="Force it")


# --- the end of a battle --------------------------------------------------------------------------


@pytest.fixture
def armies(vey, marr):
    card = UnitCardFactory(name="Spearmen")
    return ArmyUnitFactory.create_batch(3, commander=vey, card=card), ArmyUnitFactory.create_batch(2, commander=marr,
                                                                                                   card=card)


def finish(battle, **overrides):
    arguments = {"ended_at": timezone.now(), "winner": None, "routed": None, "used_units": [], "killed_units": []}
    return battle_finish(battle=battle, **{**arguments, **overrides})


def test_finishing_records_the_result_the_dead_and_the_units_used(world, vey, marr, armies):
    (v1, v2, v3), (m1, m2) = armies
    battle = battle_open(attacker=vey, defender=marr, day=2, opened_by=world.gm.user)
    ended = timezone.now()

    finish(battle, ended_at=ended, winner=vey, routed=marr, used_units=[v1, v2, m1], killed_units=[m1, m2])

    battle.refresh_from_db()
    assert (battle.ended_at, battle.winner, battle.routed) == (ended, vey, marr)
    for dead in (m1, m2):
        dead.refresh_from_db()
        assert (dead.status, dead.left_day) == ("killed", 2)
        event = dead.history.get(kind="killed")
        assert (event.cause, event.cause_type, event.cause_id, event.day) == (
            f"Killed in battle #{battle.pk}", "battle", battle.pk, 2)
    uses = UnitUse.objects.order_by("unit_id").values_list("unit_id", "commander_id", "day", "first_battle_id")
    assert list(uses) == [(v1.pk, vey.pk, 2, battle.pk), (v2.pk, vey.pk, 2, battle.pk),
                          (m1.pk, marr.pk, 2, battle.pk), (m2.pk, marr.pk, 2, battle.pk)]
    assert ArmyUnit.objects.get(pk=v3.pk).status == "active"


def test_a_unit_used_in_two_battles_the_same_day_is_used_once(world, vey, marr, king, armies):
    (v1, v2, _), _ = armies
    first = battle_open(attacker=vey, defender=marr, day=2, opened_by=world.gm.user)
    finish(first, used_units=[v1])
    second = battle_open(attacker=vey, defender=king, day=2, opened_by=world.gm.user)
    finish(second, used_units=[v1, v2])
    third = battle_open(attacker=king, defender=vey, day=3, opened_by=world.gm.user, override_reason="Next day")
    finish(third, used_units=[v1])

    uses = UnitUse.objects.order_by("day", "unit_id").values_list("unit_id", "day", "first_battle_id")
    assert list(uses) == [(v1.pk, 2, first.pk), (v2.pk, 2, second.pk), (v1.pk, 3, third.pk)]


def test_a_battle_ends_once(world, vey, marr):
    battle = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user)
    finish(battle, ended_at=datetime(2099, 1, 1, 16, 30, tzinfo=UTC))
    with pytest.raises(ArmyError, match=rf"^Battle #{battle.pk} ended at 16:30 already.$"):
        finish(battle)


def test_the_winner_and_the_routed_army_are_the_battle_s_commanders(world, vey, marr, king):
    battle = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user)
    with pytest.raises(ArmyError, match="The winner must be one of the battle's two commanders, not The Bandit King."):
        finish(battle, winner=king)
    with pytest.raises(ArmyError, match="The routed army must be one of the battle's two commanders"):
        finish(battle, routed=king)
    battle.refresh_from_db()
    assert battle.ended_at is None


def test_units_of_other_armies_and_units_already_dead_are_refused_and_nothing_is_recorded(world, vey, marr, king,
                                                                                          armies):
    (v1, _, _), (m1, _) = armies
    outsider = ArmyUnitFactory(commander=king, card=UnitCardFactory(name="Brigands"))
    battle = battle_open(attacker=vey, defender=marr, day=1, opened_by=world.gm.user)
    with pytest.raises(ArmyError, match=rf"Brigands \(unit #{outsider.pk}\) did not fight in battle #{battle.pk}."):
        finish(battle, used_units=[v1, outsider])

    m1.status, m1.left_day = "killed", 1
    m1.save()
    with pytest.raises(ArmyError, match="Spearmen already left Lord Marr's army on day 1"):
        finish(battle, used_units=[v1], killed_units=[m1])

    battle.refresh_from_db()
    assert battle.ended_at is None
    assert not UnitUse.objects.exists()


def test_a_retired_commander_cannot_be_led_into_battle_even_by_a_gm_override(world, vey, marr):
    """Ruling K3: a retired commander is out of play; the battle service refuses it, not only the picker."""
    marr.retired_day = 1
    marr.save(update_fields=["retired_day"])
    with pytest.raises(ArmyError, match="Lord Marr was retired on day 1 and cannot lead an army into battle."):
        battle_open(attacker=vey, defender=marr, day=1, override_reason="The GM insists", opened_by=world.gm.user)
    assert not Battle.objects.exists()
