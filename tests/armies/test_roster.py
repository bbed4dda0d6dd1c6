"""Rosters: units joining and leaving (armies/services/commanders.py) and the reads (armies/selectors/rosters.py)."""

import pytest
from django.core.exceptions import PermissionDenied

from armies import selectors
from armies.models import ArmyUnit, UnitEvent
from armies.services import ArmyError
from armies.services.commanders import unit_add, unit_dismiss, unit_set_status
from campaign.ledger import ledger_post
from campaign.models import LedgerEntry

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey")


@pytest.fixture
def spearmen(db):
    return UnitCardFactory(code="spearmen", name="Spearmen", strength=3, upkeep=2, traits=["reach"])


def test_a_unit_joins_with_its_first_event(vey, spearmen):
    unit = unit_add(commander=vey, card=spearmen, day=2, cause="Hired at the fair", cause_type="gm", cause_id=9)

    assert (unit.commander, unit.card, unit.joined_day, unit.status, unit.left_day) == (
        vey, spearmen, 2, "active", None)
    [event] = unit.history.all()
    assert (event.kind, event.day, event.cause, event.cause_type, event.cause_id) == ("joined", 2, "Hired at the fair",
                                                                                      "gm", 9)


def test_a_unit_needs_a_cause_to_join(vey, spearmen):
    with pytest.raises(ArmyError, match="Say why the unit joins"):
        unit_add(commander=vey, card=spearmen, day=1, cause=" ")
    assert not ArmyUnit.objects.exists()


@pytest.mark.parametrize("status", ["killed", "deserted", "dismissed"])
def test_a_leaving_unit_gets_its_status_left_day_and_event(vey, spearmen, status):
    unit = ArmyUnitFactory(commander=vey, card=spearmen)

    unit_set_status(unit=unit, status=status, day=3, cause="Because", cause_type="test", cause_id=4)

    unit.refresh_from_db()
    assert (unit.status, unit.left_day) == (status, 3)
    assert list(unit.history.values_list("kind", "day", "cause", "cause_type", "cause_id")) == [
        ("joined", 1, "Test", "", None), (status, 3, "Because", "test", 4)]


def test_a_unit_that_already_left_cannot_change_again(vey, spearmen):
    unit = ArmyUnitFactory(commander=vey, card=spearmen)
    unit_set_status(unit=unit, status="killed", day=3, cause="Killed in battle #1")

    with pytest.raises(ArmyError) as refused:
        unit_set_status(unit=unit, status="deserted", day=4, cause="Unpaid")

    assert str(refused.value) == "Spearmen already left Lady Vey's army on day 3 (killed)."
    assert unit.history.count() == 2


def test_only_leaving_statuses_are_accepted_and_not_before_joining(vey, spearmen):
    unit = ArmyUnitFactory(commander=vey, card=spearmen, joined_day=5)
    with pytest.raises(ArmyError, match="A unit leaves as killed, deserted or dismissed, not 'active'."):
        unit_set_status(unit=unit, status="active", day=6, cause="Back")
    with pytest.raises(ArmyError, match="Spearmen joined on day 5 and cannot leave on day 4."):
        unit_set_status(unit=unit, status="killed", day=4, cause="Oops")
    unit.refresh_from_db()
    assert unit.status == "active"


def test_the_player_or_the_gm_dismisses_but_not_another_player(world, vey, spearmen):
    mine, theirs = ArmyUnitFactory.create_batch(2, commander=vey, card=spearmen)

    with pytest.raises(PermissionDenied, match="You can dismiss units only for your own commanders."):
        unit_dismiss(unit=mine, day=2, dismissed_by=world.ben.user)
    unit_dismiss(unit=mine, day=2, dismissed_by=world.ann.user)
    unit_dismiss(unit=theirs, day=2, dismissed_by=world.gm.user)

    causes = UnitEvent.objects.filter(kind="dismissed").order_by("unit_id").values_list("cause", flat=True)
    assert list(causes) == ["Dismissed by Ann the Bold", "Dismissed by the GM"]


# --- selectors ------------------------------------------------------------------------------------


def test_roster_shows_active_units_with_trained_strength_upkeep_and_the_current_card(vey, spearmen):
    plain = ArmyUnitFactory(commander=vey, card=spearmen)
    drilled = ArmyUnitFactory(commander=vey, card=spearmen, trained_on=2)
    dead = ArmyUnitFactory(commander=vey, card=spearmen)
    unit_set_status(unit=dead, status="killed", day=2, cause="Killed")
    ArmyUnitFactory(card=spearmen)  # someone else's
    spearmen.strength = 4  # errata: the roster follows the card
    spearmen.save()

    lines = selectors.roster(vey)

    shown = [(line.unit.pk, line.strength, line.upkeep, line.status, line.trained, line.trained_day) for line in lines]
    assert shown == [(plain.pk, 4, 2, "active", False, None), (drilled.pk, 5, 2, "active", True, 2)]
    assert lines[0].name == "Spearmen"


def test_roster_on_day_is_the_army_at_the_end_of_that_day(vey, spearmen):
    veteran = ArmyUnitFactory(commander=vey, card=spearmen, joined_day=1, trained_on=4)
    fell_on_3 = ArmyUnitFactory(commander=vey, card=spearmen, joined_day=1)
    unit_set_status(unit=fell_on_3, status="killed", day=3, cause="Killed")
    fell_on_4 = ArmyUnitFactory(commander=vey, card=spearmen, joined_day=2)
    unit_set_status(unit=fell_on_4, status="deserted", day=4, cause="Unpaid")
    ArmyUnitFactory(commander=vey, card=spearmen, joined_day=4)  # joined later

    day_3 = selectors.roster_on_day(vey, 3)
    day_4 = selectors.roster_on_day(vey, 4)

    assert [(line.unit.pk, line.strength, line.trained) for line in day_3] == [
        (veteran.pk, 3, False), (fell_on_4.pk, 3, False)]
    assert [line.unit.pk for line in day_4][:1] == [veteran.pk]
    assert (day_4[0].strength, day_4[0].trained_day) == (4, 4)
    assert fell_on_4.pk not in [line.unit.pk for line in day_4]
    assert len(day_4) == 2  # the veteran and the newcomer


@pytest.mark.parametrize("size", [10, 200])
def test_rosters_take_one_query_whatever_their_size(vey, django_assert_num_queries, size):
    cards = UnitCardFactory.create_batch(5)
    for number in range(size):
        ArmyUnitFactory(commander=vey, card=cards[number % 5], trained_on=2 if number % 3 == 0 else None)

    with django_assert_num_queries(1):
        now = selectors.roster(vey)
        sum(line.strength + line.upkeep for line in now)
    with django_assert_num_queries(1):
        then = selectors.roster_on_day(vey, 1)
        sum(line.strength + line.upkeep for line in then)

    assert len(now) == len(then) == size
    assert sum(line.trained for line in now) == len(range(0, size, 3))
    assert not any(line.trained for line in then)  # trained on day 2, after day 1


def test_a_player_sees_their_own_commanders_and_the_gm_sees_all(world, vey):
    bens = CommanderFactory(membership=world.ben, name="Marr")
    king = CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King")

    assert list(selectors.commanders_for(world.ann)) == [vey]
    assert list(selectors.commanders_for(world.ben)) == [bens]
    assert set(selectors.commanders_for(world.gm)) == {vey, bens, king}


def test_treasury_has_the_balance_and_entries_newest_first(vey):
    for amount, reason in ((50, "Opening"), (-20, "Spearmen"), (5, "Loot")):
        ledger_post(account=vey.account, amount=amount, kind=LedgerEntry.Kind.ADJUSTMENT, reason=reason, day=1)

    purse = selectors.treasury(vey.account)

    assert purse.balance == 35
    assert [entry.reason for entry in purse.entries] == ["Loot", "Spearmen", "Opening"]
