"""armies/services/commanders.py (commanders and their items) and armies/demo.py."""

import pytest
from django.core.exceptions import PermissionDenied

from armies.demo import demo_armies
from armies.models import ArmyUnit, Commander, RecruitOffer
from armies.services import ArmyError
from armies.services.commanders import commander_create, commander_update_items
from campaign.ledger import balance_of
from campaign.models import LedgerEntry, Membership

from tests.armies.factories import CommanderFactory, UnitCardFactory
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def create(world, **overrides):
    arguments = {
        "campaign": world.campaign,
        "membership": world.ann,
        "name": "Lady Vey",
        "kind": "pc",
        "progression": 4,
        "role": "guardian",
        "path": "steel",
        "created_by": world.gm.user,
    }
    return commander_create(**{**arguments, **overrides})


def test_a_pc_gets_a_treasury_of_its_player_and_an_opening_entry(world):
    commander = create(world, opening_balance=50, favors=2, influence_halves=3)

    assert (commander.account.name, commander.account.owner, commander.account.campaign) == (
        "Lady Vey", world.ann, world.campaign)
    assert (commander.favors, commander.influence, commander.progression) == (2, 1.5, 4)
    [entry] = LedgerEntry.objects.filter(account=commander.account)
    assert (entry.amount, entry.kind, entry.day, entry.cause_type, entry.cause_id, entry.created_by) == (
        50, LedgerEntry.Kind.OPENING, 1, "commander", commander.pk, world.gm.user)
    assert balance_of(commander.account) == 50


def test_an_npc_belongs_to_the_gm_and_its_account_has_no_owner(world):
    commander = create(world, membership=world.gm, kind="npc", name="The Bandit King", role="savant", path="mind")

    assert commander.membership == world.gm
    assert commander.account.owner is None


def test_no_opening_balance_means_no_entry(world):
    commander = create(world)
    assert not LedgerEntry.objects.filter(account=commander.account).exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"role": "ritual"}, "A commander's role must be aggressor, guardian, healer or savant, not 'ritual'."),
        ({"path": "chaos"}, "A commander's path must be steel, magic, faith, nature or mind, not 'chaos'."),
        ({"kind": "god"}, "A commander is a PC or an NPC, not 'god'."),
        ({"name": "  "}, "A commander needs a name."),
        ({"opening_balance": -5}, "The opening balance cannot be negative (got -5)."),
        ({"kind": "npc"}, "An NPC commander belongs to the GM, not to Ann the Bold."),
        ({"kind": "pc", "membership": "gm"}, "A PC commander belongs to a player; the GM's commanders are NPCs."),
    ],
)
def test_bad_commanders_are_refused_with_a_reason_and_nothing_is_saved(world, overrides, message):
    if overrides.get("membership") == "gm":
        overrides["membership"] = world.gm
    with pytest.raises(ArmyError) as refused:
        create(world, **overrides)
    assert str(refused.value) == message
    assert not Commander.objects.exists()


def test_a_member_of_another_campaign_cannot_command_here(world):
    stranger = MembershipFactory(campaign=CampaignFactory(name="Elsewhere"), character_name="Zed")
    with pytest.raises(ArmyError, match="^Zed is not a member of Campaign"):
        create(world, membership=stranger)


def test_names_are_unique_within_a_campaign(world):
    create(world)
    with pytest.raises(ArmyError, match="already has a commander called lady vey"):
        create(world, name="lady vey", membership=world.ben)


def test_only_the_gm_creates_commanders(world):
    with pytest.raises(PermissionDenied, match="Only the GM can create commanders."):
        create(world, created_by=world.ann.user)
    assert not Commander.objects.exists()


def test_the_gm_sets_item_counts_and_none_leaves_a_count_alone(world):
    commander = CommanderFactory(membership=world.ann, weapons=2, shields=3)

    commander_update_items(commander=commander, gm=world.gm.user, weapons=7, alchemy=1, build_points=40)

    commander.refresh_from_db()
    assert (commander.weapons, commander.shields, commander.alchemy, commander.build_points) == (7, 3, 1, 40)


def test_players_cannot_change_items_and_counts_cannot_go_negative(world):
    commander = CommanderFactory(membership=world.ann, weapons=2)
    with pytest.raises(PermissionDenied, match="Only the GM can change a commander's items."):
        commander_update_items(commander=commander, gm=world.ann.user, weapons=9)
    with pytest.raises(ArmyError, match=r"^Build points cannot be negative \(got -1\)\.$"):
        commander_update_items(commander=commander, gm=world.gm.user, weapons=5, build_points=-1)
    commander.refresh_from_db()
    assert commander.weapons == 2


# --- the demo -------------------------------------------------------------------------------------


def test_demo_armies_are_created_once_with_money_units_and_offers(world):
    for number in range(8):
        UnitCardFactory(path=["steel", "magic", "faith", "mind"][number % 4], price=5 + number)
    cara = MembershipFactory(campaign=world.campaign, user__username="cara")
    members = {"ann": world.ann, "ben": world.ben, "cara": cara}

    first = demo_armies(world.campaign, members)
    again = demo_armies(world.campaign, members)

    assert [c.pk for c in first] == [c.pk for c in again]
    names = {c.name: c for c in Commander.objects.filter(campaign=world.campaign)}
    assert set(names) == {"Captain Annika Vey", "Lord Benedikt Marr", "Cara of the Reeds", "The Bandit King"}
    king = names["The Bandit King"]
    assert (king.kind, king.role, king.path, king.membership.role) == ("npc", "savant", "mind", Membership.Role.GM)
    assert (names["Captain Annika Vey"].role, names["Captain Annika Vey"].membership) == ("guardian", world.ann)
    for commander in names.values():
        assert 4 <= ArmyUnit.objects.filter(commander=commander).count() <= 7
        assert balance_of(commander.account) > 0
    offers = RecruitOffer.objects.filter(campaign=world.campaign)
    assert offers.count() == 3
    assert offers.exclude(quest="").count() == 1
