"""armies/services/training.py and selectors/training.py."""

import itertools

import pytest
from django.core.exceptions import PermissionDenied

from armies import selectors
from armies.models import ArmyUnit, UnitEvent
from armies.rules import exact_item_mix, items_worth
from armies.services import ArmyError
from armies.services.commanders import unit_set_status
from armies.services.training import unit_train

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", weapons=6, shields=3, alchemy=3, build_points=35)


@pytest.fixture
def spearmen(vey):
    return ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", strength=3))


def train(unit, *, by=None, day=3, **payment):
    return unit_train(unit=unit, day=day, trained_by=by or unit.commander.membership.user, **payment)


def test_ten_item_cards_train_a_unit_for_good(vey, spearmen):
    train(spearmen, pay_with="items", weapons=4, shields=2, alchemy=2)

    vey.refresh_from_db()
    spearmen.refresh_from_db()
    assert (vey.weapons, vey.shields, vey.alchemy, vey.build_points) == (2, 1, 1, 35)
    assert (spearmen.trained, spearmen.strength) == (True, 4)
    event = spearmen.history.get(kind=UnitEvent.Kind.TRAINED)
    assert (event.day, event.cause, event.cause_type) == (3, "Trained with 4 weapons, 2 shields and 2 alchemy",
                                                          "training")
    assert [line.strength for line in selectors.roster(vey)] == [4]


def test_fifty_build_points_train_a_unit(world, spearmen):
    vey = spearmen.commander
    vey.build_points = 60
    vey.save()

    train(spearmen, pay_with="build_points", by=world.gm.user)

    vey.refresh_from_db()
    assert (vey.build_points, vey.weapons) == (10, 6)
    assert spearmen.history.get(kind="trained").cause == "Trained with 50 build points"


@pytest.mark.parametrize(
    ("payment", "message"),
    [
        ({"pay_with": "items", "weapons": 6, "alchemy": 1},
         "Training needs 10 item cards; you offered 8 (alchemy counts as 2)."),
        ({"pay_with": "items", "weapons": 4, "shields": 3, "alchemy": 2},
         "Training needs 10 item cards; you offered 11 (alchemy counts as 2). Offer exactly 10 so no card is wasted."),
        ({"pay_with": "items", "weapons": 7, "shields": 3}, "Lady Vey holds 6 weapons; you offered 7."),
        ({"pay_with": "items", "weapons": -1, "alchemy": 5}, "You cannot offer a negative number of weapons (-1)."),
        ({"pay_with": "build_points"}, "Training needs 50 build points; Lady Vey has 35."),
        ({"pay_with": "build_points", "weapons": 1}, "Pay with item cards or with build points, not both."),
        ({"pay_with": "gold"}, "Pay for training with 'items' or 'build_points', not 'gold'."),
    ],
)
def test_a_short_wasteful_or_unknown_payment_is_refused_and_nothing_is_spent(vey, spearmen, payment, message):
    with pytest.raises(ArmyError) as refused:
        train(spearmen, **payment)

    assert str(refused.value) == message
    vey.refresh_from_db()
    spearmen.refresh_from_db()
    assert (vey.weapons, vey.shields, vey.alchemy, vey.build_points) == (6, 3, 3, 35)
    assert not spearmen.trained
    assert not spearmen.history.filter(kind="trained").exists()


def test_a_unit_is_trained_once_only(vey, spearmen):
    train(spearmen, pay_with="items", alchemy=3, weapons=4)
    with pytest.raises(ArmyError) as refused:
        train(spearmen, day=5, pay_with="items", weapons=2, shields=3, alchemy=0)
    assert str(refused.value) == "Spearmen were trained on day 3 already."
    vey.refresh_from_db()
    assert (vey.weapons, vey.shields, vey.alchemy) == (2, 3, 0)


def test_a_unit_that_left_or_cannot_fight_is_not_trained(vey, spearmen):
    unit_set_status(unit=spearmen, status="killed", day=2, cause="Killed in battle #1")
    with pytest.raises(ArmyError, match="Spearmen left Lady Vey's army on day 2 and cannot be trained."):
        train(spearmen, pay_with="items", weapons=6, alchemy=2)
    ritual = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Rite of Blessing", role="ritual",
                                                                 strength=None))
    with pytest.raises(ArmyError, match="Rite of Blessing cannot fight, so there is no Strength to train."):
        train(ritual, pay_with="items", weapons=6, alchemy=2)


def test_another_player_cannot_train_my_units(world, spearmen):
    with pytest.raises(PermissionDenied, match="You can train units only for your own commanders."):
        train(spearmen, by=world.ben.user, pay_with="items", weapons=6, alchemy=2)
    spearmen.refresh_from_db()
    assert not spearmen.trained


def test_any_holding_worth_ten_or_more_can_make_exactly_ten():
    """Ruling E7 holds: asking for exactly 10 never forces anyone to waste a card."""
    for weapons, shields, alchemy in itertools.product(range(12), range(4), range(8)):
        mix = exact_item_mix(weapons=weapons, shields=shields, alchemy=alchemy)
        if items_worth(weapons=weapons, shields=shields, alchemy=alchemy) < 10:
            assert mix is None
        else:
            assert items_worth(**mix) == 10
            assert mix["weapons"] <= weapons and mix["shields"] <= shields and mix["alchemy"] <= alchemy


def test_training_options_say_whether_and_how_each_untrained_unit_can_be_trained(vey, spearmen):
    ArmyUnitFactory(commander=vey, trained_on=1)  # already trained
    gone = ArmyUnitFactory(commander=vey)
    unit_set_status(unit=gone, status="deserted", day=2, cause="Unpaid")
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(role="ritual", strength=None))  # cannot fight

    [option] = selectors.training_options(vey)

    assert option.unit == spearmen
    assert (option.by_items, option.by_build_points, option.possible) == (True, False, True)
    assert option.item_mix == {"weapons": 4, "shields": 0, "alchemy": 3}
    assert option.reason == "Can be trained with 10 item cards."


def test_training_options_explain_what_is_missing(world):
    poor = CommanderFactory(membership=world.ann, weapons=3, alchemy=2, build_points=20)
    ArmyUnitFactory(commander=poor)

    [option] = selectors.training_options(poor)

    assert not option.possible
    assert option.item_mix is None
    assert option.reason == (
        "Needs 10 item cards (held: 7, alchemy counts as 2) or 50 build points (held: 20)."
    )
    assert ArmyUnit.objects.filter(trained=True).count() == 0


def test_training_from_a_page_of_a_day_that_was_taken_back_is_refused(world, vey, spearmen):
    """A page made on day 2 posts after the GM took the end of day 1 back: nothing is written on day 2."""
    from armies.models import DayEnd
    from armies.services import ArmyError

    DayEnd.objects.create(campaign=world.campaign, day=1, status=DayEnd.Status.REVERTED)
    with pytest.raises(ArmyError, match="Day 2 was taken back: the campaign is on day 1 again."):
        train(spearmen, day=2, pay_with="build_points")
    spearmen.refresh_from_db()
    vey.refresh_from_db()
    assert not spearmen.trained and vey.build_points == 35
    assert not spearmen.history.filter(kind=UnitEvent.Kind.TRAINED).exists()
