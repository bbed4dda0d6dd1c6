"""An army battle's table abandoned (armies/services/battle_tables.py ``battle_table_abandoned``, rulings T3-T6)."""

import pytest
from django.utils import timezone

from armies.models import ArmyUnit, Battle, Commander, DayEnd, UnitEvent, UnitUse
from armies.services.battles import BattleLocked, battle_open_check
from campaign.models import Activity
from tabletop.engines.kernel import IllegalAction
from tabletop.models import Table
from tabletop.services.abandon import table_abandon
from tabletop.services.tables import table_play

from tests.armies._battles import ARMY, army, open_battle
from tests.tables import next_move

pytestmark = pytest.mark.django_db


def abandon(world, battle, **kwargs):
    table = Table.objects.get(pk=battle.table_id)
    return table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Wrong armies", **kwargs)


def play_until_killed(table: Table, limit=300) -> Table:
    """Physical dice, every Offense die a 6: play until a card lies in a Killed pile (the battle goes on)."""
    from tabletop.engines.army.choices import dice_needed
    from tabletop.engines.kernel import GM

    for _ in range(limit):
        if any(table.state["piles"][seat]["killed"] for seat in (0, 1)) and not table.is_finished:
            return table
        seat = ARMY.to_act(table.state)[0]
        if seat == GM:
            action = {"type": "roll",
                      "values": [6 if "(Offense)" in n["label"] else 1 for n in dice_needed(table.state)]}
        else:
            seat, action = next_move(table)
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
        assert not table.is_finished, "the battle ended before a kill could be left on the table"
    raise AssertionError("No kill happened.")


def rosters(*commanders):
    return {
        c.pk: sorted(ArmyUnit.objects.filter(commander=c).values_list("pk", "status", "left_day")) for c in commanders
    }


def test_abandoned_with_nothing_written_releases_the_units_and_lifts_the_lock(world, vey, marr):
    army(vey, 5, 5)
    army(marr, 1, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    play_until_killed(Table.objects.get(pk=battle.table_id))
    before = rosters(vey, marr)
    favors = list(Commander.objects.order_by("pk").values_list("favors", "influence_halves"))
    assert battle_open_check(attacker=vey, defender=marr, now=timezone.now(), day=1)  # still in progress

    abandon(world, battle)

    battle.refresh_from_db()
    assert battle.abandoned_at is not None and battle.ended_at == battle.abandoned_at
    assert (battle.result, battle.winner, battle.routed) == (None, None, None)
    assert rosters(vey, marr) == before
    assert not UnitUse.objects.exists() and not UnitEvent.objects.filter(kind=UnitEvent.Kind.KILLED).exists()
    assert list(Commander.objects.order_by("pk").values_list("favors", "influence_halves")) == favors
    reasons = battle_open_check(attacker=vey, defender=marr, now=timezone.now(), day=1)
    assert not any("still in progress" in reason for reason in reasons)
    line = Activity.objects.get(kind=Activity.Kind.TABLE_ABANDON)
    assert line.summary.endswith(f"Battle #{battle.pk}'s units were released: nothing was written to the rosters.")


def test_abandoned_keeping_the_result_so_far_writes_kills_and_uses(world, vey, marr):
    mine, theirs = army(vey, 5, 5), army(marr, 1, 1, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    table = play_until_killed(Table.objects.get(pk=battle.table_id))
    killed = {int(card[1:]) for seat in (0, 1) for card in table.state["piles"][seat]["killed"]}
    used = {int(card[1:]) for seat in (0, 1) for card in table.state["used"][seat]} | killed
    assert killed and used

    abandon(world, battle, keep_result=True)

    battle.refresh_from_db()
    assert battle.abandoned_at is not None and battle.ended_at == battle.abandoned_at
    assert (battle.winner, battle.routed, battle.result["winner"], battle.result["how"]) == (None, None, None,
                                                                                            "abandoned")
    assert not any(side["routed"] or side["winner"] for side in battle.result["sides"])
    for unit in ArmyUnit.objects.filter(pk__in=killed):
        assert (unit.status, unit.left_day) == ("killed", 1)
        event = unit.history.get(kind=UnitEvent.Kind.KILLED)
        assert (event.cause, event.cause_type, event.cause_id) == (
            f"Killed in battle #{battle.pk} (abandoned)", "battle", battle.pk)
    survivors = ArmyUnit.objects.filter(pk__in=[u.pk for u in mine + theirs]).exclude(pk__in=killed)
    assert set(survivors.values_list("status", flat=True)) == {"active"}
    assert set(UnitUse.objects.filter(day=1).values_list("unit_id", flat=True)) == used
    assert set(UnitUse.objects.values_list("first_battle", flat=True)) == {battle.pk}
    assert Table.objects.get(pk=table.pk).outcome is None  # the table itself never ended
    line = Activity.objects.get(kind=Activity.Kind.TABLE_ABANDON)
    assert f"Battle #{battle.pk}'s result so far was kept" in line.summary and line.details["keep_result"] is True


def test_keeping_the_result_on_a_day_being_settled_is_refused_and_nothing_is_saved(world, vey, marr):
    army(vey, 5)
    army(marr, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    DayEnd.objects.create(campaign=world.campaign, day=1)

    with pytest.raises(IllegalAction, match=f"The result so far of battle #{battle.pk} cannot be kept. "
                                            f"Day 1 is being settled"):
        abandon(world, battle, keep_result=True)

    battle.refresh_from_db()
    assert battle.ended_at is None and battle.abandoned_at is None
    assert Table.objects.get(pk=battle.table_id).status == Table.Status.ACTIVE
    assert not Activity.objects.filter(kind=Activity.Kind.TABLE_ABANDON).exists()

    abandon(world, battle)  # plain abandon writes nothing: allowed (ruling B1 does not stand in the way)
    battle.refresh_from_db()
    assert battle.abandoned_at is not None and not UnitUse.objects.exists()


def test_an_abandoned_battle_starts_the_rematch_cooldown_and_routs_nobody(world, vey, marr):
    """Ruling T4/T5: the cooldown counts from the abandon; the GM may override it with a reason."""
    army(vey, 5)
    army(marr, 1)
    battle = open_battle(world, vey, marr)
    abandon(world, battle)

    with pytest.raises(BattleLocked, match="may fight again at") as locked:
        open_battle(world, marr, vey)
    assert not any("Routed" in reason or "routed" in reason for reason in locked.value.reasons)
    again = open_battle(world, marr, vey, override_reason="Reopened: battle abandoned by mistake")
    assert again.pk != battle.pk
    assert Battle.objects.filter(routed__isnull=False).count() == 0


def test_an_army_table_without_a_campaign_battle_is_abandoned_without_touching_rosters(world):
    from tests.factories import army_table

    table = army_table(world.campaign, [world.ann, world.ben])
    table_abandon(table_id=table.pk, version=0, gm=world.gm.user, reason="Practice over", keep_result=True)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED and not UnitUse.objects.exists()


def test_the_result_page_and_the_commander_page_say_abandoned_not_in_progress(client, world, vey, marr):
    from django.urls import reverse

    army(vey, 5, 5)
    army(marr, 1, 1)
    battle = open_battle(world, vey, marr, dice="physical")
    abandon(world, battle)

    client.force_login(world.ann.user)
    result = client.get(reverse("armies:battle_result", args=[world.campaign.slug, battle.pk])).content.decode()
    assert "<h2>Abandoned</h2>" in result and "nothing was written to the rosters" in result
    assert "In progress" not in result
    page = client.get(reverse("armies:commander", args=[world.campaign.slug, vey.pk])).content.decode()
    assert "abandoned" in page and "in progress" not in page
    client.force_login(world.gm.user)
    overview = client.get(reverse("armies:list", args=[world.campaign.slug])).content.decode()
    assert "Abandoned" in overview and "<strong>In progress</strong>" not in overview
