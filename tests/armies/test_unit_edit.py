"""The GM removes a unit (dismissed or released, ruling K4) or corrects its training (ruling K5)."""

import pytest
from django.core.exceptions import PermissionDenied

from armies import selectors
from armies.models import ArmyUnit, Battle, UnitEvent
from armies.services import ArmyError
from armies.services.battle_tables import card_id
from armies.services.commander_edits import unit_remove
from armies.services.commanders import commander_update_items, unit_dismiss, unit_set_status
from armies.services.training import unit_train, unit_training_correct
from campaign.models import Activity, LedgerEntry
from campaign.submissions import AlreadyDone, new_token
from tabletop.models import Table

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    world.campaign.current_day = 4
    world.campaign.save()
    return CommanderFactory(membership=world.ann, name="Lady Vey")


@pytest.fixture
def spearmen(vey):
    return ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", strength=3))


@pytest.mark.parametrize(
    ("how", "status", "kind", "cause"),
    [
        ("dismissed", ArmyUnit.Status.DISMISSED, UnitEvent.Kind.DISMISSED, "Dismissed by the GM: Looted a temple"),
        ("released", ArmyUnit.Status.RELEASED, UnitEvent.Kind.RELEASED, "Released by the GM: Went home to the harvest"),
    ],
)
def test_the_gm_removes_a_unit_with_a_reason_that_points_at_the_activity(world, spearmen, how, status, kind, cause):
    reason = cause.split(": ", 1)[1]
    unit = unit_remove(unit=spearmen, gm=world.gm.user, how=how, reason=reason)

    assert (unit.status, unit.left_day) == (status, 4)
    event = UnitEvent.objects.filter(unit=spearmen).order_by("-id").first()
    [line] = Activity.objects.filter(kind=Activity.Kind.UNIT_REMOVE)
    assert (event.kind, event.day, event.cause, event.cause_type, event.cause_id) == (kind, 4, cause, "gm", line.pk)
    assert line.summary == f"{cause.split(' by')[0]} Spearmen from Lady Vey's army: {reason}"
    assert selectors.roster(spearmen.commander) == []
    assert not LedgerEntry.objects.exists()


@pytest.mark.parametrize("reason", ["", "  "])
def test_a_reason_is_required(world, spearmen, reason):
    with pytest.raises(ArmyError, match="Say why the unit leaves"):
        unit_remove(unit=spearmen, gm=world.gm.user, how="dismissed", reason=reason)
    spearmen.refresh_from_db()
    assert spearmen.status == ArmyUnit.Status.ACTIVE
    assert not Activity.objects.exists()


def test_a_unit_that_left_is_refused(world, spearmen):
    unit_set_status(unit=spearmen, status="killed", day=3, cause="Killed in battle #1")
    with pytest.raises(ArmyError, match="Spearmen already left Lady Vey's army on day 3 \\(killed\\)."):
        unit_remove(unit=spearmen, gm=world.gm.user, how="released", reason="Story")
    assert not Activity.objects.exists()


def test_a_unit_in_an_unfinished_battle_is_refused_but_not_its_comrade_at_home(world, vey, spearmen):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    at_home = ArmyUnitFactory(commander=vey)
    table = Table.objects.create(
        campaign=world.campaign, game="army", state={}, config={"units": [[{"id": card_id(spearmen.pk)}], []]}
    )
    battle = Battle.objects.create(campaign=world.campaign, attacker=vey, defender=marr, day=4, table=table)

    with pytest.raises(ArmyError, match=f"Spearmen are in battle #{battle.pk}, which has not ended"):
        unit_remove(unit=spearmen, gm=world.gm.user, how="dismissed", reason="Coward")
    unit_remove(unit=at_home, gm=world.gm.user, how="dismissed", reason="Not needed")
    Battle.objects.filter(pk=battle.pk).update(abandoned_at="2026-01-01T00:00Z")
    unit_remove(unit=spearmen, gm=world.gm.user, how="dismissed", reason="Coward")


def test_only_the_gm_removes_and_a_token_is_applied_once(world, spearmen):
    with pytest.raises(PermissionDenied):
        unit_remove(unit=spearmen, gm=world.ann.user, how="dismissed", reason="Mine")
    token = new_token()
    unit_remove(unit=spearmen, gm=world.gm.user, how="dismissed", reason="Once", submission=token)
    with pytest.raises(AlreadyDone):
        unit_remove(unit=spearmen, gm=world.gm.user, how="dismissed", reason="Once", submission=token)
    assert Activity.objects.filter(kind=Activity.Kind.UNIT_REMOVE).count() == 1


def test_a_player_still_dismisses_their_own_unit_with_or_without_a_reason(world, vey):
    plain, reasoned = ArmyUnitFactory(commander=vey), ArmyUnitFactory(commander=vey)
    unit_dismiss(unit=plain, day=4, dismissed_by=world.ann.user)
    unit_dismiss(unit=reasoned, day=4, dismissed_by=world.ann.user, reason="Too costly")

    dismissals = UnitEvent.objects.filter(kind=UnitEvent.Kind.DISMISSED).order_by("id")
    causes = list(dismissals.values_list("cause", flat=True))
    assert causes == ["Dismissed by Ann the Bold", "Dismissed by Ann the Bold: Too costly"]


# --- training corrections -----------------------------------------------------------------------


def test_correcting_training_on_moves_nothing_and_blocks_training(world, vey, spearmen):
    commander_update_items(commander=vey, gm=world.gm.user, build_points=50)
    unit = unit_training_correct(unit=spearmen, gm=world.gm.user, trained=True, reason="Trained at the fort")

    assert unit.trained
    event = UnitEvent.objects.filter(unit=spearmen).order_by("-id").first()
    [line] = Activity.objects.filter(kind=Activity.Kind.UNIT_TRAINING)
    assert (event.kind, event.day, event.cause, event.cause_type, event.cause_id) == (
        UnitEvent.Kind.CORRECTED, 4, "Training corrected by the GM (now trained): Trained at the fort", "gm", line.pk)
    vey.refresh_from_db()
    assert vey.build_points == 50 and not LedgerEntry.objects.exists()
    [rl] = selectors.roster(vey)
    assert (rl.trained, rl.strength, rl.trained_day) == (True, 4, 4)
    with pytest.raises(ArmyError, match="Spearmen were trained already \\(set by the GM on day 4\\)."):
        unit_train(unit=spearmen, day=4, pay_with="build_points", trained_by=world.ann.user)


def test_a_unit_corrected_off_can_be_trained_again(world, vey):
    unit = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Archers", strength=2), trained_on=2)
    commander_update_items(commander=vey, gm=world.gm.user, build_points=50)
    unit_training_correct(unit=unit, gm=world.gm.user, trained=False, reason="Paid with items it never had")

    assert [o.unit.pk for o in selectors.training_options(vey)] == [unit.pk]
    retrained = unit_train(unit=unit, day=4, pay_with="build_points", trained_by=world.ann.user)
    assert retrained.trained
    # the roster as of past days follows the recorded history: trained on 2 and 3, corrected off then on again on 4
    assert [line.trained for line in selectors.roster_on_day(vey, 3)] == [True]
    assert [line.trained for line in selectors.roster_on_day(vey, 4)] == [True]
    assert [line.trained for line in selectors.roster_on_day(vey, 1)] == [False]


def test_the_roster_of_the_day_of_a_correction_off_shows_it_untrained(world, vey):
    unit = ArmyUnitFactory(commander=vey, trained_on=2)
    unit_training_correct(unit=unit, gm=world.gm.user, trained=False, reason="Mistake")
    assert [line.trained for line in selectors.roster_on_day(vey, 4)] == [False]
    assert [line.trained for line in selectors.roster_on_day(vey, 3)] == [True]


@pytest.mark.parametrize(
    ("trained", "message"),
    [(True, "Nothing to change: Spearmen are trained already."),
     (False, "Nothing to change: Spearmen are not trained")],
)
def test_a_no_op_correction_is_refused(world, vey, trained, message):
    unit = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen"), trained_on=1 if trained else None)
    with pytest.raises(ArmyError, match=message):
        unit_training_correct(unit=unit, gm=world.gm.user, trained=trained, reason="Why")
    assert not Activity.objects.exists()


def test_corrections_need_a_reason_an_active_unit_with_strength_and_the_gm(world, vey, spearmen):
    ritual = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Rite", strength=None, role="ritual"))
    with pytest.raises(ArmyError, match="Say why the training is corrected"):
        unit_training_correct(unit=spearmen, gm=world.gm.user, trained=True, reason=" ")
    with pytest.raises(ArmyError, match="Rite cannot fight"):
        unit_training_correct(unit=ritual, gm=world.gm.user, trained=True, reason="Why")
    with pytest.raises(PermissionDenied):
        unit_training_correct(unit=spearmen, gm=world.ann.user, trained=True, reason="Why")
    unit_set_status(unit=spearmen, status="deserted", day=4, cause="Unpaid")
    with pytest.raises(ArmyError, match="left Lady Vey's army on day 4: its training stays as it was"):
        unit_training_correct(unit=spearmen, gm=world.gm.user, trained=True, reason="Why")
