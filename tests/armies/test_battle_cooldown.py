"""The rematch lock follows the campaign's battle cooldown (the rulebook's 1 hour by default; ruling L1)."""

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest

from armies.models import Battle, Commander
from armies.services.battles import BattleLocked, battle_open, battle_open_check
from campaign.models import Campaign
from campaign.services import campaign_settings_update

from tests.armies.factories import CommanderFactory

pytestmark = pytest.mark.django_db

ENDED = datetime(2025, 5, 1, 13, 5, tzinfo=UTC)


@pytest.fixture
def armies(world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    battle = Battle.objects.create(campaign=world.campaign, attacker=vey, defender=marr, day=1)
    Battle.objects.filter(pk=battle.pk).update(started_at=ENDED - timedelta(minutes=40), ended_at=ENDED)
    return vey, marr


def cooldown(world, minutes: int) -> None:
    campaign_settings_update(campaign=world.campaign, gm=world.gm.user, battle_cooldown_minutes=minutes)


def locks(vey, marr, *, after: timedelta) -> list[str]:
    """The locks as the battle set-up page sees them, with the commanders read afresh."""
    attacker, defender = Commander.objects.get(pk=vey.pk), Commander.objects.get(pk=marr.pk)
    return battle_open_check(attacker=attacker, defender=defender, now=ENDED + after, day=1)


def test_the_default_is_the_rulebooks_hour(world, armies):
    assert Campaign.objects.get(pk=world.campaign.pk).battle_cooldown_minutes == 60
    assert locks(*armies, after=timedelta(minutes=59, seconds=59)) == [
        "Lady Vey and Lord Marr fought until 13:05 and may fight again at 14:05."
    ]
    assert locks(*armies, after=timedelta(hours=1)) == []


def test_a_longer_cooldown_holds_the_armies_longer_even_after_a_battle_already_fought(world, armies):
    cooldown(world, 90)
    assert locks(*armies, after=timedelta(minutes=89)) == [
        "Lady Vey and Lord Marr fought until 13:05 and may fight again at 14:35."
    ]
    assert locks(*armies, after=timedelta(minutes=90)) == []


def test_a_shorter_cooldown_frees_them_sooner(world, armies):
    cooldown(world, 15)
    assert locks(*armies, after=timedelta(minutes=14)) != []
    assert locks(*armies, after=timedelta(minutes=15)) == []


def test_no_cooldown_lets_them_fight_again_at_once(world, armies):
    cooldown(world, 0)
    assert locks(*armies, after=timedelta(0)) == []


def test_opening_a_battle_follows_the_setting(world, armies):
    vey, marr = armies
    with mock.patch("armies.services.battles.timezone.now", return_value=ENDED + timedelta(minutes=70)):
        cooldown(world, 90)
        with pytest.raises(BattleLocked, match="may fight again at 14:35"):
            battle_open(attacker=vey, defender=marr, day=1, opened_by=world.ann.user)
        cooldown(world, 60)
        assert battle_open(attacker=vey, defender=marr, day=1, opened_by=world.ann.user).override_reason == ""


def test_a_running_battle_still_blocks_whatever_the_cooldown(world, armies):
    vey, marr = armies
    running = Battle.objects.create(campaign=world.campaign, attacker=marr, defender=vey, day=1)
    cooldown(world, 0)
    assert locks(vey, marr, after=timedelta(hours=5)) == [
        f"Battle #{running.pk} between Lady Vey and Lord Marr is still in progress."
    ]
