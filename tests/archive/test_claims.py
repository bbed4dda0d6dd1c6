"""A claim invite gives the member their whole place back (archive/context.py ``make_claims``,
people/services/claims.py): one invite per member, used once by whoever holds the link, gives the
membership with its role, character name and join time, every commander they ran, every account they
owned and every seat they held (issue 34's claims, made whole)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from armies.models import Commander
from campaign.models import Account, Activity, Membership
from campaign.services import account_create
from people.models import Claim, Invite, InviteUse
from people.services import PeopleError
from people.services.invites import invite_accept, invite_reissue, invite_revoke, invites_for_sheet
from people.services.signup import signup
from tabletop.models import Seat

from tests.armies.factories import CommanderFactory
from tests.factories import PASSWORD, MembershipFactory, gridaris_table
from tests.forms import once

pytestmark = pytest.mark.django_db

GOOD = "a long enough pass phrase"


@pytest.fixture
def ann_holds_much(world):
    """Ann runs two commanders (one retired) and owns a purse besides, and sits at three tables; Carol is a
    second GM with an NPC; Ben sits at one table as an NPC's name."""
    campaign = world.campaign
    CommanderFactory(membership=world.ann, name="Sir Aldo")
    CommanderFactory(membership=world.ann, name="Old Brann", retired_day=1)
    account_create(campaign=campaign, name="Ann's purse", owner=world.ann)
    for n in range(3):
        gridaris_table(campaign, [world.ann, world.ben], title=f"Duel {n}")
    Seat.objects.filter(table__title="Duel 2", membership=world.ben).update(guest_name="The Masked One")
    carol = MembershipFactory(campaign=campaign, role=Membership.Role.GM, user__username="carol",
                              character_name="")
    CommanderFactory(membership=carol, name="The Warden", kind=Commander.Kind.NPC)
    return world, carol


def claim_for(copy, username: str) -> Invite:
    return Invite.objects.get(campaign=copy, claim__username=username)


def test_one_claim_per_member_holding_everything_they_had(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    assert sorted(copy.import_claims) == ["ann", "ben", "carol"]  # one each, however many commanders
    invite = claim_for(copy, "ann")
    assert (invite.role, invite.max_uses, invite.commander_id) == ("player", 1, None)
    kinds = [("seat" if i.seat_id else "account" if i.account_id else "commander") for i in invite.claim.items.all()]
    assert sorted(kinds) == ["account"] * 3 + ["commander"] * 2 + ["seat"] * 3  # two commanders' purses and hers


def test_a_player_claims_once_and_gets_their_whole_place(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    original_joined = world.ann.joined_at
    copy = imported(exported(world.campaign), world.gm.user)
    tokens = dict(Seat.objects.filter(table__campaign=copy).values_list("pk", "token"))

    joined = invite_accept(token=claim_for(copy, "ann").token, user=world.ann.user)

    ann = joined.membership
    assert joined.joined and (ann.campaign, ann.role) == (copy, "player")
    ann.refresh_from_db()
    assert ann.character_name == "Ann the Bold" and ann.joined_at == original_joined
    commanders = Commander.objects.filter(campaign=copy).select_related("membership")
    assert {c.name: (c.membership.user.username, c.kind) for c in commanders} == {
        "Sir Aldo": ("ann", "pc"), "Old Brann": ("ann", "pc"), "The Warden": ("gm", "npc")}
    assert set(Account.objects.filter(campaign=copy, owner=ann).values_list("name", flat=True)) == {
        "Ann's purse", "Sir Aldo", "Old Brann"}
    seats = list(Seat.objects.filter(table__campaign=copy, membership=ann))
    assert len(seats) == 3 and {seat.guest_name for seat in seats} == {""}
    assert all(tokens[seat.pk] != seat.token for seat in seats)  # a guest link handed out meanwhile opens nothing
    line = Activity.objects.filter(campaign=copy, kind=Activity.Kind.MEMBER_JOIN).get()
    assert "Sir Aldo" in line.summary and "Old Brann" in line.summary and "3 seats" in line.summary
    # Ben's seats are still guests' of his name; his own claim is untouched
    assert not Seat.objects.filter(table__campaign=copy, guest_name="Ben the Sly", membership__isnull=False).exists()


def test_a_seat_keeps_its_own_name_at_the_table(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    assert Seat.objects.get(table__campaign=copy, table__title="Duel 2", index=1).guest_name == "The Masked One"
    ben = invite_accept(token=claim_for(copy, "ben").token, user=world.ben.user).membership
    named = Seat.objects.get(table__campaign=copy, table__title="Duel 2", index=1)
    assert (named.membership, named.guest_name) == (ben, "The Masked One")
    assert Seat.objects.get(table__campaign=copy, table__title="Duel 1", index=1).guest_name == ""


def test_a_gm_member_claims_and_is_a_gm_with_their_npcs(ann_holds_much, exported, imported):
    world, carol = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    invite = claim_for(copy, "carol")
    assert invite.role == "gm"
    newcomer = signup(username="caroline", display_name="Caroline", password=GOOD, invite_token=invite.token)
    membership = newcomer.joined.membership
    assert membership.role == "gm" and membership.display_name == "Caroline"
    warden = Commander.objects.get(campaign=copy, name="The Warden")
    assert (warden.membership, warden.kind) == (membership, "npc")


def test_an_existing_account_joins_through_a_claim_on_the_page(ann_holds_much, exported, imported, client):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    invite = claim_for(copy, "ann")
    client.force_login(world.ann.user)
    page = client.get(reverse("people:join", args=[invite.token]))
    text = page.content.decode()
    assert page.status_code == 200 and "Ann the Bold" in text and "2 commanders, 1 purse, 3 seats" in text
    response = client.post(reverse("people:join", args=[invite.token]))
    assert response.status_code == 302 and response["Location"] == reverse("campaign:detail", args=[copy.slug])
    assert Membership.objects.get(campaign=copy, user=world.ann.user).character_name == "Ann the Bold"


def test_someone_signing_up_through_the_claim_takes_the_place(ann_holds_much, exported, imported, client):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    invite = claim_for(copy, "ann")
    response = client.post(reverse("people:join_signup", args=[invite.token]), once(
        username="anna", display_name="Anna", password1=PASSWORD + "!x", password2=PASSWORD + "!x"))
    assert response.status_code == 302
    anna = Membership.objects.get(campaign=copy, user__username="anna")
    assert anna.display_name == "Ann the Bold" and anna.commanders.count() == 2 and anna.seats.count() == 3


def test_a_second_use_is_refused(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    invite = claim_for(copy, "ann")
    invite_accept(token=invite.token, user=world.ann.user)
    with pytest.raises(PeopleError, match="used as many times"):
        invite_accept(token=invite.token, user=world.outsider)
    assert not Membership.objects.filter(campaign=copy, user=world.outsider).exists()
    assert InviteUse.objects.filter(invite=invite).count() == 1


def test_a_claim_by_someone_already_a_member_is_refused_with_a_sentence(ann_holds_much, exported, imported, client):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    invite = claim_for(copy, "ben")
    invite_accept(token=claim_for(copy, "ann").token, user=world.ann.user)
    with pytest.raises(PeopleError, match="Ben the Sly \\(ben\\)'s place .* you are a member of it already"):
        invite_accept(token=invite.token, user=world.ann.user)
    with pytest.raises(PeopleError, match="you are a member of it already"):  # the importer, a GM, too
        invite_accept(token=invite.token, user=world.gm.user)
    client.force_login(world.ann.user)
    page = client.post(reverse("people:join", args=[invite.token]))
    assert page.status_code == 409 and "one person holds one place" in page.content.decode()
    assert not InviteUse.objects.filter(invite=invite).exists()
    assert not Seat.objects.filter(table__campaign=copy, membership__user=world.ann.user, index=1).exists()


def test_a_reissued_claim_carries_the_place_and_the_old_link_opens_nothing(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    old = claim_for(copy, "ann")
    new = invite_reissue(invite=old, gm=world.gm.user)
    assert Claim.objects.get(username="ann", invite__campaign=copy).invite == new
    with pytest.raises(PeopleError, match="withdrawn"):
        invite_accept(token=old.token, user=world.ann.user)
    assert invite_accept(token=new.token, user=world.ann.user).membership.commanders.count() == 2


def test_what_the_gm_handed_on_meanwhile_stays(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    dora = MembershipFactory(campaign=copy, user__username="dora")
    Commander.objects.filter(campaign=copy, name="Sir Aldo").update(membership=dora)
    Account.objects.filter(campaign=copy, name="Ann's purse").update(owner=dora)
    ann = invite_accept(token=claim_for(copy, "ann").token, user=world.ann.user).membership
    assert list(ann.commanders.values_list("name", flat=True)) == ["Old Brann"]
    assert Account.objects.get(campaign=copy, name="Ann's purse").owner == dora


def test_the_import_matches_no_account_by_the_claims_name(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    assert set(copy.memberships.values_list("user__username", flat=True)) == {"gm"}
    assert not get_user_model().objects.filter(username="caroline").exists()
    assert not Account.objects.filter(campaign=copy, owner__isnull=False).exclude(owner__user=world.gm.user).exists()


def test_the_printed_sheet_offers_no_commander_a_claim_holds(ann_holds_much, exported, imported):
    world, _ = ann_holds_much
    copy = imported(exported(world.campaign), world.gm.user)
    made = invites_for_sheet(campaign=copy, gm=world.gm.user, seats=1)
    assert [invite.commander for invite in made] == [None]  # Sir Aldo waits for Ann's claim, not a newcomer
    invite_revoke(invite=claim_for(copy, "ann"), gm=world.gm.user)
    made = invites_for_sheet(campaign=copy, gm=world.gm.user)
    assert [invite.commander.name for invite in made] == ["Sir Aldo"]  # revoked: the GM's to hand out
