"""Invite services: making, revoking, re-issuing, the printed sheet, and joining by one (every refusal
writes nothing)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from armies.models import Commander
from campaign.models import Activity, Membership
from people.models import MAX_INVITE_USES, Invite, InviteUse
from people.services import PeopleError
from people.services.invites import invite_accept, invite_create, invite_reissue, invite_revoke, invites_for_sheet

from tests.armies.factories import CommanderFactory
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm(world):
    return world.gm.user


@pytest.fixture
def slot(world):
    """A PC the GM holds: its player left (or none came yet)."""
    return CommanderFactory(membership=world.gm, name="Lady Vey", kind=Commander.Kind.PC)


@pytest.fixture
def npc(world):
    return CommanderFactory(membership=world.gm, name="The Bandit King", kind=Commander.Kind.NPC)


def written():
    return (Membership.objects.count(), InviteUse.objects.count(), Activity.objects.count(),
            list(Commander.objects.values_list("pk", "membership_id", "kind").order_by("pk")))


# --- making invites ---------------------------------------------------------------------------------


def test_an_invite_is_one_use_for_a_week_by_default_and_logged(world, gm):
    invite = invite_create(campaign=world.campaign, created_by=gm)
    assert (invite.role, invite.max_uses, invite.commander) == ("player", 1, None)
    assert timedelta(days=6, hours=23) < invite.expires_at - timezone.now() <= timedelta(days=7)
    assert len(invite.token) >= 32
    line = Activity.objects.get(kind=Activity.Kind.INVITE_NEW)
    assert line.actor == gm and "Made an invite for a player" in line.summary


def test_tokens_differ(world, gm):
    tokens = {invite_create(campaign=world.campaign, created_by=gm).token for _ in range(5)}
    assert len(tokens) == 5


def test_only_the_gm_makes_invites(world):
    for user in (world.ann.user, world.outsider, world.staff):
        with pytest.raises(PermissionDenied):
            invite_create(campaign=world.campaign, created_by=user)
    assert not Invite.objects.exists()


def test_a_gm_of_another_campaign_cannot_make_one_here(world):
    other = MembershipFactory(campaign=CampaignFactory(slug="elsewhere"), role=Membership.Role.GM)
    with pytest.raises(PermissionDenied):
        invite_create(campaign=world.campaign, created_by=other.user)


@pytest.mark.parametrize(("uses", "days"), [(0, 7), (MAX_INVITE_USES + 1, 7), (1, 0), (1, 91), (-1, 7), ("2", 7)])
def test_uses_and_days_are_bounded(world, gm, uses, days):
    with pytest.raises(PeopleError):
        invite_create(campaign=world.campaign, created_by=gm, max_uses=uses, days=days)
    assert not Invite.objects.exists()


def test_a_commander_of_another_campaign_is_refused(world, gm):
    stranger = CommanderFactory(membership=MembershipFactory(role=Membership.Role.GM), kind="npc", name="Far Away")
    with pytest.raises(PeopleError, match="not a commander of"):
        invite_create(campaign=world.campaign, created_by=gm, commander=stranger)
    assert not Invite.objects.exists()


def test_a_commander_a_player_runs_is_refused(world, gm):
    anns = CommanderFactory(membership=world.ann, name="Ann's own")
    with pytest.raises(PeopleError, match="already run by Ann the Bold"):
        invite_create(campaign=world.campaign, created_by=gm, commander=anns)


def test_a_retired_commander_is_refused(world, gm, slot):
    Commander.objects.filter(pk=slot.pk).update(retired_day=1)
    slot.refresh_from_db()
    with pytest.raises(PeopleError, match="retired"):
        invite_create(campaign=world.campaign, created_by=gm, commander=slot)


def test_an_invite_with_a_commander_is_for_one_player(world, gm, slot):
    with pytest.raises(PeopleError, match="one person"):
        invite_create(campaign=world.campaign, created_by=gm, commander=slot, max_uses=2)
    with pytest.raises(PeopleError, match="makes a player"):
        invite_create(campaign=world.campaign, created_by=gm, commander=slot, role="gm")


def test_a_gm_invite_is_for_one_person(world, gm):
    with pytest.raises(PeopleError, match="A GM invite is for one person"):
        invite_create(campaign=world.campaign, created_by=gm, role="gm", max_uses=2)
    assert not Invite.objects.exists()
    assert invite_create(campaign=world.campaign, created_by=gm, role="gm").max_uses == 1
    assert invite_create(campaign=world.campaign, created_by=gm, role="player", max_uses=30).max_uses == 30


def test_an_unknown_role_is_refused(world, gm):
    with pytest.raises(PeopleError):
        invite_create(campaign=world.campaign, created_by=gm, role="staff")


# --- joining ----------------------------------------------------------------------------------------


def test_a_newcomer_joins_as_the_invite_says_and_it_is_used(world, gm):
    invite = invite_create(campaign=world.campaign, created_by=gm, role="gm")
    newcomer = UserFactory(username="cora", first_name="Cora")
    joined = invite_accept(token=invite.token, user=newcomer)
    assert joined.joined and joined.commander is None
    assert joined.membership.role == "gm" and joined.membership.campaign == world.campaign
    use = InviteUse.objects.get()
    assert (use.invite, use.user, use.membership, use.name) == (invite, newcomer, joined.membership, "Cora")
    assert Activity.objects.filter(kind=Activity.Kind.MEMBER_JOIN, actor=newcomer).count() == 1


def test_the_commander_becomes_the_newcomers_pc_with_its_treasury(world, gm, npc):
    invite = invite_create(campaign=world.campaign, created_by=gm, commander=npc)
    newcomer = UserFactory(username="cora")
    joined = invite_accept(token=invite.token, user=newcomer)
    npc.refresh_from_db()
    assert joined.commander == npc
    assert (npc.membership, npc.kind, npc.account.owner) == (joined.membership, "pc", joined.membership)
    assert "now runs The Bandit King" in Activity.objects.get(kind=Activity.Kind.MEMBER_JOIN).summary


@pytest.mark.parametrize("spoil", ["revoked", "expired", "used up", "forged"])
def test_a_spent_or_forged_invite_writes_nothing(world, gm, slot, spoil):
    invite = invite_create(campaign=world.campaign, created_by=gm, commander=slot)
    token = invite.token
    if spoil == "revoked":
        invite_revoke(invite=invite, gm=gm)
    elif spoil == "expired":
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    elif spoil == "used up":
        invite_accept(token=token, user=UserFactory(username="first"))
    else:
        token = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    before = written()
    with pytest.raises(PeopleError, match={"revoked": "withdrawn", "expired": "expired", "used up": "used as many",
                                           "forged": "not one of ours"}[spoil]):
        invite_accept(token=token, user=UserFactory(username="late"))
    assert written() == before


@pytest.mark.parametrize("token", ["", "x", "a" * 65, "../../etc", "\x00" * 20, "é" * 20, None, 12])
def test_malformed_tokens_are_forged(world, token):
    with pytest.raises(PeopleError, match="not one of ours"):
        invite_accept(token=token, user=UserFactory(username="late"))


def test_a_commander_handed_to_a_player_since_the_invite_is_refused_on_joining(world, gm, slot):
    invite = invite_create(campaign=world.campaign, created_by=gm, commander=slot)
    Commander.objects.filter(pk=slot.pk).update(membership=world.ann)
    before = written()
    with pytest.raises(PeopleError, match="already run by Ann the Bold"):
        invite_accept(token=invite.token, user=UserFactory(username="late"))
    assert written() == before


def test_joining_twice_does_nothing_twice(world, gm, slot):
    invite = invite_create(campaign=world.campaign, created_by=gm, commander=slot)
    cora = UserFactory(username="cora")
    first = invite_accept(token=invite.token, user=cora)
    before = written()
    again = invite_accept(token=invite.token, user=cora)  # the invite is used up, but it is hers
    assert (again.joined, again.membership, again.commander) == (False, first.membership, slot)
    assert written() == before


def test_a_member_already_uses_nothing_up(world, gm):
    invite = invite_create(campaign=world.campaign, created_by=gm)
    joined = invite_accept(token=invite.token, user=world.ann.user)
    assert (joined.joined, joined.membership) == (False, world.ann)
    assert not InviteUse.objects.exists()
    invite_accept(token=invite.token, user=UserFactory(username="cora"))  # its one use is still there
    assert InviteUse.objects.count() == 1


def test_a_many_use_invite_takes_as_many_people(world, gm):
    invite = invite_create(campaign=world.campaign, created_by=gm, max_uses=3)
    for name in ("a1", "a2", "a3"):
        invite_accept(token=invite.token, user=UserFactory(username=name))
    with pytest.raises(PeopleError, match="used as many"):
        invite_accept(token=invite.token, user=UserFactory(username="a4"))


def test_a_use_stays_when_the_member_leaves(world, gm):
    invite = invite_create(campaign=world.campaign, created_by=gm)
    cora = UserFactory(username="cora", first_name="Cora")
    invite_accept(token=invite.token, user=cora)
    Membership.objects.filter(user=cora).delete()
    assert InviteUse.objects.get().name == "Cora"
    with pytest.raises(PeopleError, match="used as many"):
        invite_accept(token=invite.token, user=UserFactory(username="dan"))


def test_anonymous_cannot_join(world, gm):
    invite = invite_create(campaign=world.campaign, created_by=gm)
    with pytest.raises(PermissionDenied):
        invite_accept(token=invite.token, user=AnonymousUser())


# --- revoking and re-issuing -------------------------------------------------------------------------


def test_revoking_is_logged_and_refused_twice(world, gm):
    invite = invite_create(campaign=world.campaign, created_by=gm)
    invite_revoke(invite=invite, gm=gm)
    assert Invite.objects.get().revoked_at is not None
    assert Activity.objects.filter(kind=Activity.Kind.INVITE_REVOKE).count() == 1
    with pytest.raises(PeopleError, match="already revoked"):
        invite_revoke(invite=invite, gm=gm)
    with pytest.raises(PermissionDenied):
        invite_revoke(invite=invite, gm=world.ann.user)


def test_reissuing_gives_a_new_token_with_the_same_terms_and_revokes_the_old(world, gm, slot):
    old = invite_create(campaign=world.campaign, created_by=gm, commander=slot, days=3)
    new = invite_reissue(invite=old, gm=gm)
    old.refresh_from_db()
    assert old.revoked_at is not None and new.token != old.token and new.reissued_from == old
    assert (new.role, new.commander, new.max_uses) == (old.role, old.commander, old.max_uses)
    assert timedelta(days=2, hours=23) < new.expires_at - timezone.now() <= timedelta(days=3)
    with pytest.raises(PeopleError):
        invite_accept(token=old.token, user=UserFactory(username="x"))
    assert invite_accept(token=new.token, user=UserFactory(username="y")).commander == slot


def test_reissuing_for_a_commander_a_player_now_runs_is_refused(world, gm, slot):
    old = invite_create(campaign=world.campaign, created_by=gm, commander=slot)
    invite_accept(token=old.token, user=UserFactory(username="cora"))
    with pytest.raises(PeopleError, match="already run by"):
        invite_reissue(invite=old, gm=gm)


# --- the printed sheet --------------------------------------------------------------------------------


def test_the_sheet_makes_one_invite_per_pc_without_a_player_and_the_seats_asked(world, gm, slot, npc):
    other_slot = CommanderFactory(membership=world.gm, name="Sir Marr", kind=Commander.Kind.PC)
    CommanderFactory(membership=world.ann, name="Ann's own")
    made = invites_for_sheet(campaign=world.campaign, gm=gm, seats=2)
    assert sorted(i.commander.name if i.commander else "" for i in made) == ["", "", "Lady Vey", "Sir Marr"]
    assert other_slot.invites.count() == 1 and not npc.invites.exists()
    again = invites_for_sheet(campaign=world.campaign, gm=gm, seats=1)  # the PCs have open invites now
    assert [i.commander for i in again] == [None]
    with pytest.raises(PeopleError, match="Nothing to print"):
        invites_for_sheet(campaign=world.campaign, gm=gm, seats=0)
    with pytest.raises(PeopleError):
        invites_for_sheet(campaign=world.campaign, gm=gm, seats=51)


def test_the_gm_picks_the_commanders_of_the_sheet_among_those_a_gm_runs(world, gm, slot, npc):
    made = invites_for_sheet(campaign=world.campaign, gm=gm, commanders=[npc])
    assert [i.commander for i in made] == [npc]
    anns = CommanderFactory(membership=world.ann, name="Ann's own")
    with pytest.raises(PeopleError, match="already run by Ann the Bold"):
        invites_for_sheet(campaign=world.campaign, gm=gm, commanders=[slot, anns])
    assert Invite.objects.count() == 1  # nothing of the refused sheet
