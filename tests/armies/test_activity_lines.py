"""Issue 25: the activity log holds a line for recruiting, training, grants, and opening and finishing
battles and tables (ruling L3), one line per act, written in the act's own transaction.

The older acts (day ends, adjustments, overrides) are pinned in test_activity_wiring.py.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from armies.services.battle_tables import battle_table_open
from armies.services.recruiting import quest_grant, recruit_buy
from armies.services.training import unit_train
from campaign.ledger import InsufficientFunds
from campaign.models import Activity
from tabletop.engines import army
from tabletop.services.forks import table_fork
from tabletop.services.tables import SeatSpec, table_create

from tests.armies._battles import drive
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.forms import once

pytestmark = pytest.mark.django_db

Kind = Activity.Kind


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=30, role="aggressor", path="steel")


@pytest.fixture
def marr(world):
    return CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")


def lines(**filters) -> list[Activity]:
    return list(Activity.objects.filter(**filters).order_by("pk"))


def one_line() -> Activity:
    found = lines()
    assert len(found) == 1, [line.summary for line in found]
    return found[0]


# --- recruiting, training, grants ------------------------------------------------------------------------


def test_a_purchase_writes_one_line_naming_who_bought_what_for_whom(world, vey):
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikemen"), price=10)
    unit = recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    line = one_line()
    assert (line.kind, line.actor, line.day) == (Kind.RECRUIT, world.ann.user, 1)
    assert line.summary == f"Recruited Pikemen for Lady Vey from offer #{offer.pk} for 10 coins."
    assert (line.target_type, line.target_id) == ("commander", vey.pk)
    assert line.details.pop("said")  # its words (issue 41); the rest as before
    assert line.details == {"offer": offer.pk, "unit": unit.pk, "price": 10}


def test_the_gms_purchase_for_a_commander_and_a_free_one_say_so(world, vey):
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Militia"), price=0)
    recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.gm.user)
    line = one_line()
    assert line.actor == world.gm.user
    assert line.summary == f"Recruited Militia for Lady Vey from offer #{offer.pk} for free."


def test_a_refused_purchase_writes_nothing(world, vey):
    offer = RecruitOfferFactory(campaign=world.campaign, price=99)
    with pytest.raises(InsufficientFunds):
        recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    assert lines() == []


def test_the_recruit_page_writes_the_line(client, world, vey):
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikemen"), price=1)
    client.force_login(world.ann.user)
    client.post(reverse("armies:buy", args=[world.campaign.slug, vey.pk, offer.pk]), once(price=1))
    assert one_line().summary.startswith("Recruited Pikemen for Lady Vey")


def test_training_writes_one_line_with_what_it_cost(world, vey):
    vey.build_points = 60
    vey.save()
    unit = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Archers", strength=2))
    unit_train(unit=unit, day=1, pay_with="build_points", trained_by=world.ann.user)
    line = one_line()
    assert (line.kind, line.actor, line.target_type, line.target_id) == (
        Kind.TRAINING, world.ann.user, "commander", vey.pk
    )
    assert line.summary == "Trained Archers of Lady Vey's army with 50 build points."


def test_a_quest_grant_writes_one_line(world, vey):
    quest = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Treant"), price=0,
                                quest="Find the grove")
    quest_grant(offer=quest, commander=vey, day=1, gm=world.gm.user)
    assert (one_line().kind, one_line().summary) == (
        Kind.QUEST_GRANT, "Granted Treant to Lady Vey for the quest: Find the grove"
    )


# --- battles and tables -------------------------------------------------------------------------------


def open_battle(world, vey, marr, **kwargs):
    mine = [ArmyUnitFactory(commander=vey, card=UnitCardFactory(strength=5))]
    theirs = [ArmyUnitFactory(commander=marr, card=UnitCardFactory(strength=1))]
    return battle_table_open(attacker=vey, defender=marr, attacker_units=mine, defender_units=theirs,
                             opened_by=world.gm.user, seed=11, dice="physical", **kwargs)


def test_opening_a_battle_writes_one_line_about_the_battle_not_two(world, vey, marr):
    battle = open_battle(world, vey, marr)
    line = one_line()
    assert (line.kind, line.actor, line.target_type, line.target_id) == (
        Kind.BATTLE_NEW, world.gm.user, "battle", battle.pk
    )
    assert line.summary == f"Opened battle #{battle.pk}, Lady Vey against Lord Marr."


def test_finishing_a_battle_writes_one_line_with_its_result(world, vey, marr):
    battle = open_battle(world, vey, marr)
    table = drive(battle.table)
    finished = lines(kind=Kind.TABLE_END)
    assert len(finished) == 1
    line = finished[0]
    assert (line.target_type, line.target_id) == ("table", table.pk)
    assert line.summary == f"Finished Battle #{battle.pk}: Lady Vey against Lord Marr: {table.outcome['reason']}"
    assert line.details.pop("said")  # its words (issue 41); the rest as before
    assert line.details == {"game": "army", "winners": table.outcome["winners"], "version": table.version}


def side_table(world, title="Friday skirmish"):
    config = army.starter_config(players=["Ann", "Ben"], dice="physical")
    return table_create(campaign=world.campaign, game="army", title=title, config=config,
                        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                        created_by=world.gm.user)


def test_opening_a_table_writes_one_line(world):
    table = side_table(world)
    line = one_line()
    assert (line.kind, line.actor, line.target_type, line.target_id) == (
        Kind.TABLE_NEW, world.gm.user, "table", table.pk
    )
    assert line.summary == "Opened Friday skirmish (Army Rules battle): Ann the Bold and Ben the Sly."


def test_a_what_if_finishing_says_what_if_and_that_nothing_counts(world):
    table = side_table(world)
    fork = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    fork = drive(fork)
    line = lines(kind=Kind.TABLE_END)[0]
    assert line.summary.startswith("Finished What-if: Friday skirmish from move 0 (nothing there counts): ")
