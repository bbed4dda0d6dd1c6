"""people/services/members.py: a member's role, removing a member, handing a commander on (rulings MB1-MB5)."""

import pytest
from django.core.exceptions import PermissionDenied

from armies.models import Commander
from armies.services.battle_tables import battle_table_open
from campaign.models import Account, Activity, LedgerEntry, Membership
from campaign.submissions import AlreadyDone, new_token
from people.services import PeopleError
from people.services.members import (
    StaleMember,
    commander_hand,
    member_digest,
    member_remove,
    member_role_change,
    runner_digest,
)
from tabletop.models import Seat, Table
from tabletop.services.abandon import table_abandon

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.factories import CampaignFactory, MembershipFactory, gridaris_table

pytestmark = pytest.mark.django_db

GM, PLAYER = Membership.Role.GM, Membership.Role.PLAYER


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=40)


@pytest.fixture
def king(world):
    return CommanderFactory(membership=world.gm, kind="npc", name="The Bandit King")


def battle(world, attacker, defender):
    units = [[ArmyUnitFactory(commander=c, card=UnitCardFactory(strength=3))] for c in (attacker, defender)]
    return battle_table_open(attacker=attacker, defender=defender, attacker_units=units[0], defender_units=units[1],
                             opened_by=world.gm.user, seed=11)


def activity(kind):
    return list(Activity.objects.filter(kind=kind).values_list("summary", flat=True))


# --- roles -----------------------------------------------------------------------------------------


def test_the_gm_makes_a_player_a_gm_and_back_with_a_line_each(world):
    member_role_change(membership=world.ben, role=GM, gm=world.gm.user, based_on=member_digest(world.ben))
    world.ben.refresh_from_db()
    assert world.ben.role == GM
    member_role_change(membership=world.ben, role=PLAYER, gm=world.gm.user)
    world.ben.refresh_from_db()
    assert world.ben.role == PLAYER
    assert activity(Activity.Kind.MEMBER_ROLE) == [
        "Made Ben the Sly a player (was game master).",
        "Made Ben the Sly a GM (was player).",
    ]


def test_the_last_gm_cannot_be_made_a_player(world):
    with pytest.raises(PeopleError, match="gm is the campaign's only GM: a campaign always keeps at least one GM"):
        member_role_change(membership=world.gm, role=PLAYER, gm=world.gm.user)
    world.gm.refresh_from_db()
    assert world.gm.role == GM and activity(Activity.Kind.MEMBER_ROLE) == []


def test_a_gm_may_step_down_while_another_gm_remains(world):
    member_role_change(membership=world.ann, role=GM, gm=world.gm.user)
    member_role_change(membership=world.gm, role=PLAYER, gm=world.gm.user)
    assert Membership.objects.get(pk=world.gm.pk).role == PLAYER
    with pytest.raises(PermissionDenied):  # no longer a GM
        member_role_change(membership=world.ben, role=GM, gm=world.gm.user)


def test_a_stale_role_form_is_refused_and_a_repeated_one_applied_once(world):
    shown = member_digest(world.ben)
    member_role_change(membership=world.ben, role=GM, gm=world.gm.user)
    with pytest.raises(StaleMember, match="Ben the Sly was changed meanwhile .*nothing was done"):
        member_role_change(membership=world.ben, role=PLAYER, gm=world.gm.user, based_on=shown)

    token = new_token()
    member_role_change(membership=world.ann, role=GM, gm=world.gm.user, submission=token)
    with pytest.raises(AlreadyDone):
        member_role_change(membership=world.ann, role=GM, gm=world.gm.user, submission=token)
    assert len(activity(Activity.Kind.MEMBER_ROLE)) == 2


def test_role_changes_are_refused_for_players_unknown_roles_and_no_ops(world):
    with pytest.raises(PermissionDenied):
        member_role_change(membership=world.ben, role=GM, gm=world.ann.user)
    with pytest.raises(PeopleError, match="A member is a GM or a player, not 'admin'"):
        member_role_change(membership=world.ben, role="admin", gm=world.gm.user)
    with pytest.raises(PeopleError, match="Ben the Sly is player already"):
        member_role_change(membership=world.ben, role=PLAYER, gm=world.gm.user)


def test_a_member_who_runs_commanders_of_the_other_kind_keeps_their_role(world, vey, king):
    with pytest.raises(PeopleError, match="Ann the Bold runs Lady Vey: player characters .*Hand it to another member"):
        member_role_change(membership=world.ann, role=GM, gm=world.gm.user)
    member_role_change(membership=world.ben, role=GM, gm=world.gm.user)
    with pytest.raises(PeopleError, match="gm runs The Bandit King: NPCs"):
        member_role_change(membership=world.gm, role=PLAYER, gm=world.ben.user)


# --- removing a member -----------------------------------------------------------------------------


def test_removing_a_player_hands_their_commanders_to_the_gm_and_keeps_the_ledger(world, vey):
    entries = LedgerEntry.objects.filter(account=vey.account).count()
    removal = member_remove(membership=world.ann, gm=world.gm.user, based_on=member_digest(world.ann))

    assert removal.commanders == ["Lady Vey"]
    assert not Membership.objects.filter(pk=world.ann.pk).exists()
    vey.refresh_from_db()
    assert (vey.membership_id, vey.kind) == (world.gm.pk, Commander.Kind.NPC)
    assert Account.objects.get(pk=vey.account_id).owner is None
    assert LedgerEntry.objects.filter(account=vey.account).count() == entries
    [line] = activity(Activity.Kind.MEMBER_REMOVE)
    assert line == "Removed Ann the Bold (player) from the campaign; Lady Vey now run by gm as an NPC, to hand on."
    assert world.ann.user.__class__.objects.filter(pk=world.ann.user_id).exists()  # they keep their login


def test_a_member_at_an_open_table_is_not_removed_and_the_tables_are_named(world):
    gridaris_table(world.campaign, [world.ann, world.ben], title="Friday skirmish")
    gridaris_table(world.campaign, [world.gm, world.ann], title="The long game")
    with pytest.raises(PeopleError, match="Ann the Bold holds a seat at Friday skirmish and The long game, still "
                                          "being played: finish or abandon them first"):
        member_remove(membership=world.ann, gm=world.gm.user)
    assert Membership.objects.filter(pk=world.ann.pk).exists()


def test_seats_at_finished_tables_keep_the_members_name_as_a_guest_with_a_new_token(world):
    table = gridaris_table(world.campaign, [world.ann, world.ben], title="Friday skirmish")
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Rain")
    old_token = Seat.objects.get(table=table, index=0).token

    member_remove(membership=world.ann, gm=world.gm.user)

    seat = Seat.objects.select_related("membership").get(table=table, index=0)
    assert (seat.membership, seat.guest_name, seat.name) == (None, "Ann the Bold", "Ann the Bold")
    assert seat.token != old_token
    assert Table.objects.get(pk=table.pk).state["players"][0] == "Ann the Bold"


def test_a_member_whose_commander_is_in_a_battle_is_not_removed(world, vey, king):
    fight = battle(world, king, vey)
    with pytest.raises(PeopleError, match=f"holds a seat at Battle #{fight.pk}"):
        member_remove(membership=world.ann, gm=world.gm.user)


def test_the_last_gm_and_oneself_are_not_removed(world):
    with pytest.raises(PeopleError, match="gm is the campaign's only GM.*cannot be removed"):
        member_remove(membership=world.gm, gm=world.gm.user)
    member_role_change(membership=world.ben, role=GM, gm=world.gm.user)
    with pytest.raises(PeopleError, match="You cannot remove yourself"):
        member_remove(membership=world.gm, gm=world.gm.user)
    member_remove(membership=world.gm, gm=world.ben.user)  # another GM may
    assert list(Membership.objects.filter(campaign=world.campaign, role=GM)) == [world.ben]


def test_a_stale_or_repeated_removal_is_refused_or_applied_once(world, vey):
    shown = member_digest(world.ann)
    member_role_change(membership=world.ben, role=GM, gm=world.gm.user)
    with pytest.raises(StaleMember):
        member_remove(membership=world.ben, gm=world.gm.user, based_on=member_digest(Membership(pk=world.ben.pk,
                                                                                                  role=PLAYER)))
    token = new_token()
    member_remove(membership=world.ann, gm=world.gm.user, based_on=shown, submission=token)
    with pytest.raises(AlreadyDone):
        member_remove(membership=world.ann, gm=world.gm.user, based_on=shown, submission=token)
    with pytest.raises(PeopleError, match="no longer in the campaign"):
        member_remove(membership=world.ann, gm=world.gm.user, submission=new_token())
    assert len(activity(Activity.Kind.MEMBER_REMOVE)) == 1


def test_only_a_gm_of_this_campaign_removes(world):
    elsewhere = MembershipFactory(campaign=CampaignFactory(), role=GM)
    for user in (world.ben.user, elsewhere.user):
        with pytest.raises(PermissionDenied):
            member_remove(membership=world.ann, gm=user)


# --- handing a commander on ------------------------------------------------------------------------


def test_a_commander_handed_to_a_player_becomes_their_pc_with_its_ledger(world, vey):
    handed = commander_hand(commander=vey, to=world.ben, gm=world.gm.user, based_on=runner_digest(vey))
    assert (handed.membership_id, handed.kind) == (world.ben.pk, Commander.Kind.PC)
    assert Account.objects.get(pk=vey.account_id).owner_id == world.ben.pk
    to_gm = commander_hand(commander=handed, to=world.gm.pk, gm=world.gm.user)
    assert (to_gm.membership_id, to_gm.kind) == (world.gm.pk, Commander.Kind.NPC)
    assert Account.objects.get(pk=vey.account_id).owner is None
    assert activity(Activity.Kind.COMMANDER_HAND) == [
        "Handed Lady Vey from Ben the Sly to gm (an NPC now).",
        "Handed Lady Vey from Ann the Bold to Ben the Sly (a PC now).",
    ]


def test_a_commander_in_a_battle_in_progress_is_not_handed_on(world, vey, king):
    fight = battle(world, vey, king)
    with pytest.raises(PeopleError, match=f"Lady Vey is in battle #{fight.pk}, which has not ended"):
        commander_hand(commander=vey, to=world.ben, gm=world.gm.user)
    assert Commander.objects.get(pk=vey.pk).membership_id == world.ann.pk


def test_a_stale_or_repeated_hand_over_is_refused_or_applied_once(world, vey):
    shown = runner_digest(vey)
    token = new_token()
    commander_hand(commander=vey, to=world.ben, gm=world.gm.user, based_on=shown, submission=token)
    with pytest.raises(AlreadyDone):
        commander_hand(commander=vey, to=world.ben, gm=world.gm.user, based_on=shown, submission=token)
    with pytest.raises(StaleMember, match="Lady Vey was handed on or changed meanwhile \\(now run by Ben the Sly\\)"):
        commander_hand(commander=vey, to=world.gm, gm=world.gm.user, based_on=shown, submission=new_token())
    assert len(activity(Activity.Kind.COMMANDER_HAND)) == 1


def test_hand_overs_are_refused_to_strangers_to_the_runner_and_for_players(world, vey):
    stranger = MembershipFactory(campaign=CampaignFactory())
    with pytest.raises(PeopleError, match="That member is not in"):
        commander_hand(commander=vey, to=stranger, gm=world.gm.user)
    with pytest.raises(PeopleError, match="Ann the Bold runs Lady Vey already"):
        commander_hand(commander=vey, to=world.ann, gm=world.gm.user)
    with pytest.raises(PeopleError, match="Choose a member"):
        commander_hand(commander=vey, to="3", gm=world.gm.user)
    with pytest.raises(PermissionDenied):
        commander_hand(commander=vey, to=world.ben, gm=world.ann.user)
