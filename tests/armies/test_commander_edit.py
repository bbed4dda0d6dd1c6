"""armies/services/commander_edits.py: the GM edits, retires and returns a commander (rulings K1-K3)."""

import pytest
from django.core.exceptions import PermissionDenied

from armies import selectors
from armies.models import Battle, Commander
from armies.selectors import battles as battle_selectors
from armies.services import ArmyError
from armies.services.commander_edits import (
    StaleEdit,
    commander_edit,
    commander_fingerprint,
    commander_retire,
    commander_return,
)
from armies.services.commanders import commander_create, commander_update_items, unit_add
from armies.services.recruiting import quest_grant, recruit_buy
from armies.services.training import unit_train
from campaign.models import Activity
from campaign.submissions import AlreadyDone, new_token

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", progression=4, favors=1, influence_halves=3,
                            role="guardian", path="steel")


def edit(world, commander, **fields):
    return commander_edit(commander=commander, gm=world.gm.user, **fields)


def activities(kind):
    return list(Activity.objects.filter(kind=kind).order_by("id"))


def test_the_gm_edits_every_value_and_one_activity_says_what_changed(world, vey):
    edited = edit(world, vey, name="Lady Vey the Bold", role="healer", path="faith", progression=6, favors=3,
                  influence_halves=5)

    assert (edited.name, edited.role, edited.path, edited.progression, edited.favors, edited.influence) == (
        "Lady Vey the Bold", "healer", "faith", 6, 3, 2.5)
    [line] = activities(Activity.Kind.COMMANDER_EDIT)
    assert line.summary == (
        "Edited Lady Vey: name Lady Vey → Lady Vey the Bold; class Guardian → Healer; path Steel → Faith; "
        "progression 4 → 6; Favors 1 → 3; Influence 1.5 → 2.5.")
    assert line.details["before"]["progression"] == 4 and line.details["after"]["progression"] == 6
    assert (line.actor, line.target_type, line.target_id) == (world.gm.user, "commander", vey.pk)
    edited.account.refresh_from_db()
    assert edited.account.name == "Lady Vey the Bold"


def test_changing_the_player_moves_the_treasury_owner(world, vey):
    edited = edit(world, vey, membership=world.ben)

    edited.account.refresh_from_db()
    assert (edited.membership, edited.account.owner) == (world.ben, world.ben)
    assert list(selectors.commanders_for(world.ann)) == []
    assert list(selectors.commanders_for(world.ben)) == [edited]
    assert "player Ann the Bold → Ben the Sly" in activities(Activity.Kind.COMMANDER_EDIT)[0].summary


def test_a_pc_becomes_an_npc_of_the_gm_and_its_account_has_no_owner_then_back(world, vey):
    npc = edit(world, vey, kind="npc", membership=world.gm)
    npc.account.refresh_from_db()
    assert (npc.kind, npc.membership, npc.account.owner) == ("npc", world.gm, None)

    pc = edit(world, npc, kind="pc", membership=world.ann)
    pc.account.refresh_from_db()
    assert pc.account.owner == world.ann


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "npc"}, "An NPC commander belongs to the GM, not to Ann the Bold."),
        ({"membership": "gm"}, "A PC commander belongs to a player; the GM's commanders are NPCs."),
        ({"progression": 1001}, "Progression"),
        ({"favors": -1}, "Favors cannot be negative (got -1)."),
        ({"influence_halves": 2001}, "Influence (in halves)"),
        ({"role": "ritual"}, "A commander's class must be aggressor, guardian, healer or savant, not 'ritual'."),
        ({"path": "fire"}, "A commander's path must be steel, magic, faith, nature or mind, not 'fire'."),
        ({"name": "  "}, "A commander needs a name."),
        ({"name": "lord marr"}, "already has a commander called lord marr."),
        ({"progression": 4, "name": "Lady Vey"}, "Nothing to change"),
    ],
)
def test_refusals_leave_everything_as_it_was(world, vey, fields, message):
    CommanderFactory(membership=world.ben, name="Lord Marr")
    if fields.get("membership") == "gm":
        fields = {**fields, "membership": world.gm}
    with pytest.raises(ArmyError) as refused:
        edit(world, vey, **fields)
    assert message in str(refused.value)
    vey.refresh_from_db()
    assert (vey.name, vey.kind, vey.progression, vey.favors, vey.role) == ("Lady Vey", "pc", 4, 1, "guardian")
    assert not Activity.objects.exists()


def test_a_member_of_another_campaign_cannot_run_it(world, vey):
    from tests.factories import MembershipFactory

    stranger = MembershipFactory()
    with pytest.raises(ArmyError, match="is not a member"):
        edit(world, vey, membership=stranger)


def test_only_the_gm_edits(world, vey):
    with pytest.raises(PermissionDenied):
        commander_edit(commander=vey, gm=world.ann.user, progression=9)


def test_a_stale_form_is_refused_and_a_fresh_one_passes(world, vey):
    made_from = commander_fingerprint(vey)
    edit(world, vey, progression=5)  # another tab saved meanwhile

    with pytest.raises(StaleEdit, match="was changed meanwhile"):
        edit(world, vey, based_on=made_from, favors=7)
    vey.refresh_from_db()
    assert (vey.progression, vey.favors) == (5, 1)
    edit(world, vey, based_on=commander_fingerprint(vey), favors=7)
    vey.refresh_from_db()
    assert vey.favors == 7


def test_a_token_is_applied_once(world, vey):
    token = new_token()
    edit(world, vey, progression=5, submission=token)
    with pytest.raises(AlreadyDone):
        edit(world, vey, progression=6, submission=token)
    vey.refresh_from_db()
    assert vey.progression == 5
    assert len(activities(Activity.Kind.COMMANDER_EDIT)) == 1


def open_battle(attacker, defender):
    return Battle.objects.create(campaign=attacker.campaign, attacker=attacker, defender=defender, day=1)


def test_in_an_unfinished_battle_the_player_stays_but_numbers_may_change(world, vey):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    battle = open_battle(vey, marr)

    with pytest.raises(ArmyError, match=f"is in battle #{battle.pk}, which has not ended"):
        edit(world, vey, membership=world.ben)
    edit(world, vey, progression=8)
    Battle.objects.filter(pk=battle.pk).update(abandoned_at="2026-01-01T00:00Z")
    edit(world, vey, membership=world.ben)


# --- retiring -------------------------------------------------------------------------------------


def test_retiring_keeps_the_commander_out_of_play_and_one_activity(world, vey):
    world.campaign.current_day = 3
    world.campaign.save()
    retired = commander_retire(commander=vey, gm=world.gm.user, reason="Fell from grace")

    assert retired.retired_day == 3
    [line] = activities(Activity.Kind.COMMANDER_RETIRE)
    assert line.summary == "Retired Lady Vey on day 3: Fell from grace"
    assert vey.pk not in [c.pk for c in battle_selectors.battle_commanders(world.campaign.pk)]
    assert Commander.objects.filter(pk=vey.pk).exists()  # kept with its history


def test_a_retired_commander_cannot_recruit_train_or_be_granted(world, vey):
    card = UnitCardFactory(name="Spearmen", strength=3)
    unit = ArmyUnitFactory(commander=vey, card=card)
    sale = RecruitOfferFactory(campaign=world.campaign, card=card, price=0)
    quest = RecruitOfferFactory(campaign=world.campaign, card=card, price=0, quest="Slay the wyrm")
    commander_update_items(commander=vey, gm=world.gm.user, build_points=50)
    commander_retire(commander=vey, gm=world.gm.user, reason="Gone")
    vey.refresh_from_db()

    with pytest.raises(ArmyError, match="Lady Vey was retired on day 1 and cannot recruit."):
        recruit_buy(offer=sale, commander=vey, day=1, bought_by=world.ann.user)
    with pytest.raises(ArmyError, match="cannot be granted units"):
        quest_grant(offer=quest, commander=vey, day=1, gm=world.gm.user)
    with pytest.raises(ArmyError, match="cannot train units"):
        unit_train(unit=unit, day=1, pay_with="build_points", trained_by=world.gm.user)
    with pytest.raises(ArmyError, match="cannot take new units"):
        unit_add(commander=vey, card=card, day=1, cause="Test")
    sale.refresh_from_db()
    assert sale.sold == 0


@pytest.mark.parametrize("reason", ["", "   "])
def test_retiring_needs_a_reason(world, vey, reason):
    with pytest.raises(ArmyError, match="Say why the commander retires."):
        commander_retire(commander=vey, gm=world.gm.user, reason=reason)


def test_retiring_is_refused_twice_and_during_an_unfinished_battle(world, vey):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    battle = open_battle(vey, marr)
    with pytest.raises(ArmyError, match=f"Lady Vey is in battle #{battle.pk}, which has not ended"):
        commander_retire(commander=vey, gm=world.gm.user, reason="Gone")
    Battle.objects.filter(pk=battle.pk).update(ended_at="2026-01-01T00:00Z")
    commander_retire(commander=vey, gm=world.gm.user, reason="Gone")
    with pytest.raises(ArmyError, match="was retired on day 1 already"):
        commander_retire(commander=vey, gm=world.gm.user, reason="Gone")


def test_returning_to_service_puts_it_back_in_play(world, vey):
    with pytest.raises(ArmyError, match="Lady Vey is not retired."):
        commander_return(commander=vey, gm=world.gm.user)
    commander_retire(commander=vey, gm=world.gm.user, reason="Gone")
    returned = commander_return(commander=vey, gm=world.gm.user)

    assert returned.retired_day is None
    assert vey.pk in [c.pk for c in battle_selectors.battle_commanders(world.campaign.pk)]
    lines = activities(Activity.Kind.COMMANDER_RETIRE)
    assert [line.summary for line in lines][-1] == "Returned Lady Vey to service (retired since day 1)."


def test_only_the_gm_retires(world, vey):
    with pytest.raises(PermissionDenied):
        commander_retire(commander=vey, gm=world.ann.user, reason="Me")


# --- activity lines of the existing services ----------------------------------------------------


def test_creating_a_commander_and_setting_items_record_activity(world):
    commander = commander_create(
        campaign=world.campaign, membership=world.ann, name="Lady Vey", kind="pc", progression=2, role="guardian",
        path="steel", opening_balance=20, created_by=world.gm.user,
    )
    commander_update_items(commander=commander, gm=world.gm.user, weapons=4, shields=0)

    [new] = activities(Activity.Kind.COMMANDER_NEW)
    assert new.summary == "Created Lady Vey (Player character of Ann the Bold) with 20 coins."
    [items] = activities(Activity.Kind.COMMANDER_EDIT)
    assert items.summary == "Lady Vey's items: weapons 0 → 4."  # shields did not change
    commander_update_items(commander=commander, gm=world.gm.user, weapons=4)
    assert len(activities(Activity.Kind.COMMANDER_EDIT)) == 1  # nothing changed, nothing logged


def test_a_retired_commanders_page_offers_no_recruiting_or_training(world, vey):
    ArmyUnitFactory(commander=vey)
    RecruitOfferFactory(campaign=world.campaign, price=0)
    commander_update_items(commander=vey, gm=world.gm.user, build_points=50)
    vey.refresh_from_db()
    assert len(selectors.offers_affordable(vey)) == 1 and len(selectors.training_options(vey)) == 1
    commander_retire(commander=vey, gm=world.gm.user, reason="Gone")
    vey.refresh_from_db()
    assert selectors.offers_affordable(vey) == [] and selectors.training_options(vey) == []
