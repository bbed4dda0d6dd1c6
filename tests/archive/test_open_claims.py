"""A claim not used yet is exported as the member it stands for (archive/sections/people.py, armies.py):
an archive of an imported campaign whose claims wait (what the nightly backup writes) gives every member their
place back when it is imported again and the claims are used, as the very first archive did."""

from __future__ import annotations

import gzip
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from archive.compare import archives_differences
from archive.format import ArchiveRefused, encode_line
from armies.models import Commander
from campaign.models import Account, Membership
from campaign.services import account_create
from people.models import Invite
from people.services.invites import invite_accept, invite_revoke
from tabletop.models import Seat

from tests.archive._helpers import CLAIMED, place_of, rewrite, without_joins
from tests.armies.factories import CommanderFactory
from tests.factories import MembershipFactory, UserFactory, gridaris_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def places(full_campaign):
    """The full campaign, and more to give back: Ann runs two commanders (one retired) and sits at a table under
    another name; Carol is a second GM with an NPC."""
    world = full_campaign
    campaign = world.campaign
    CommanderFactory(membership=world.ann, name="Sir Aldo")
    CommanderFactory(membership=world.ann, name="Old Brann", retired_day=1)
    account_create(campaign=campaign, name="Ann's second purse", owner=world.ann)
    gridaris_table(campaign, [world.ann, world.ben], title="Masked duel")
    Seat.objects.filter(table__title="Masked duel", membership=world.ann).update(guest_name="The Masked One")
    carol = MembershipFactory(campaign=campaign, role=Membership.Role.GM, user__username="carol",
                              character_name="Carol of the Keep")
    CommanderFactory(membership=carol, name="The Warden", kind=Commander.Kind.NPC)
    return world


def claim_for(copy, username: str) -> Invite:
    return Invite.objects.get(campaign=copy, claim__username=username)


def members_of(data: bytes, archives) -> list[dict]:
    return [line for line in archives.lines(data) if line.get("kind") == "member"]


def test_an_archive_whose_claims_wait_gives_every_place_back(places, exported, imported, archives):
    world = places
    first = exported(world.campaign)
    copy = imported(first, world.gm.user)
    waiting = exported(copy)  # nobody has used their claim yet: the nightly backup's archive

    # the same campaign as the first archive, but for the acts an import pins on nobody
    assert archives_differences(io.BytesIO(first), io.BytesIO(waiting), ignore=CLAIMED) == []
    assert not [line for line in archives.lines(waiting) if line.get("kind") == "invite" and line["uses_left"] == 1]

    again = imported(waiting, world.gm.user)
    assert sorted(again.import_claims) == ["ann", "ben", "carol"]
    archives.use_claims(again)
    assert place_of(again) == place_of(world.campaign)
    assert ("Masked duel", 0, "ann", "The Masked One") in place_of(again)["seats"]
    back = archives.rewrite(exported(again), without_joins)
    assert archives_differences(io.BytesIO(first), io.BytesIO(back), ignore=CLAIMED) == []


def test_the_claims_made_again_hold_what_the_first_ones_held(places, exported, imported):
    world = places
    copy = imported(exported(world.campaign), world.gm.user)
    again = imported(exported(copy), world.gm.user)

    def held(campaign):
        invites = Invite.objects.filter(campaign=campaign, claim__isnull=False).select_related("claim")
        return {invite.claim.username: (
            invite.role, invite.claim.display_name, invite.claim.character_name, invite.claim.joined_at,
            sorted(("seat" if i.seat_id else "account" if i.account_id else "commander", i.seat_name)
                   for i in invite.claim.items.all()),
        ) for invite in invites}
    assert held(again) == held(copy) and held(again)["ann"][0] == "player" and held(again)["carol"][0] == "gm"
    had = (Commander.objects.filter(membership=world.ann).count() + Account.objects.filter(owner=world.ann).count()
           + Seat.objects.filter(membership=world.ann).count())
    assert len(held(again)["ann"][4]) == had == 11  # her commanders, accounts and seats in the first campaign


def test_a_revoked_claim_is_not_exported_as_a_member(places, exported, imported, archives):
    world = places
    copy = imported(exported(world.campaign), world.gm.user)
    invite_revoke(invite=claim_for(copy, "ann"), gm=world.gm.user)
    data = exported(copy)
    assert sorted(m["username"] for m in members_of(data, archives)) == ["ben", "carol", "gm"]
    again = imported(data, world.gm.user)
    assert sorted(again.import_claims) == ["ben", "carol"]
    # her things are where the revoked claim left them: guest seats of her name, nobody's purses, the GM's commanders
    assert Seat.objects.get(table__campaign=again, table__title="Duel at the Inn", index=0).guest_name == "Ann the Bold"
    assert Account.objects.get(campaign=again, name="Ann's purse").owner is None
    assert set(Commander.objects.filter(campaign=again, name__in=["Sir Aldo", "Old Brann"])
               .values_list("membership__user__username", flat=True)) == {"gm"}


def test_a_used_claim_is_exported_as_the_member_who_used_it(places, exported, imported, archives):
    world = places
    copy = imported(exported(world.campaign), world.gm.user)
    invite_accept(token=claim_for(copy, "ann").token, user=world.ann.user)
    members = members_of(exported(copy), archives)
    assert sorted(m["username"] for m in members) == ["ann", "ben", "carol", "gm"]  # ann once
    ann = next(m for m in members if m["username"] == "ann")
    assert ann["id"] == Membership.objects.get(campaign=copy, user=world.ann.user).pk  # a membership's own id


def test_an_expired_claim_is_still_exported_its_place_waits(places, exported, imported, archives):
    """The expiry is the link's, not the place's: the GM re-issues an expired claim with its place."""
    world = places
    copy = imported(exported(world.campaign), world.gm.user)
    Invite.objects.filter(pk=claim_for(copy, "ann").pk).update(expires_at=timezone.now() - timedelta(days=1))
    again = imported(exported(copy), world.gm.user)
    assert sorted(again.import_claims) == ["ann", "ben", "carol"]
    assert claim_for(again, "ann").expires_at > timezone.now()  # a new link, open as any new invite
    invite_accept(token=claim_for(again, "ann").token, user=world.ann.user)
    assert set(Commander.objects.filter(campaign=again, membership__user=world.ann.user)
               .values_list("name", flat=True)) == {"Sir Aldo", "Old Brann"}


def test_what_the_gm_handed_on_meanwhile_is_exported_as_it_is_now(places, exported, imported):
    world = places
    copy = imported(exported(world.campaign), world.gm.user)
    dora = MembershipFactory(campaign=copy, user__username="dora")
    Commander.objects.filter(campaign=copy, name="Sir Aldo").update(membership=dora)
    Account.objects.filter(campaign=copy, name="Ann's purse").update(owner=dora)
    again = imported(exported(copy), world.gm.user)
    ann = invite_accept(token=claim_for(again, "ann").token, user=world.ann.user).membership
    assert list(ann.commanders.values_list("name", flat=True)) == ["Old Brann"]
    assert Account.objects.get(campaign=again, name="Ann's purse").owner is None  # dora's claim holds it now
    dora_claim = claim_for(again, "dora").claim
    assert {i.account.name for i in dora_claim.items.filter(account__isnull=False)} >= {"Ann's purse"}


def test_a_claim_named_like_a_member_of_the_campaign_is_exported_and_imports(places, exported, imported, archives):
    """Someone of the claim's name joined by a plain invite meanwhile: both are exported, each a claim again
    (a claim is matched to nobody, so the name is only the GM's label for whom to hand the link)."""
    world = places
    copy = imported(exported(world.campaign), world.gm.user)
    plain = Invite.objects.create(campaign=copy, expires_at=timezone.now() + timedelta(days=1),
                                  created_by=world.gm.user)
    invite_accept(token=plain.token, user=world.ann.user)
    data = exported(copy)
    assert sorted(m["username"] for m in members_of(data, archives)) == ["ann", "ann", "ben", "carol", "gm"]
    again = imported(data, world.gm.user)
    assert sorted(again.import_claims) == ["ann", "ann", "ben", "carol"]
    holds = {invite.claim.items.count() for invite in Invite.objects.filter(campaign=again, claim__username="ann")}
    assert holds == {0, 11}  # the plain member held nothing yet; the waiting place all it held


def test_a_claim_naming_the_importer_gives_them_the_place_when_no_member_does(places, exported, imported):
    """A claim record is a member record: the importer named by one keeps that place, as by a member's."""
    world = places
    copy = imported(exported(world.campaign), world.gm.user)
    again = imported(exported(copy), world.ann.user)
    assert sorted(again.import_claims) == ["ben", "carol", "gm"]
    assert set(Commander.objects.filter(campaign=again, name__in=["Sir Aldo", "Old Brann"])
               .values_list("membership__user__username", flat=True)) == {"ann"}


def test_the_archive_is_version_2_and_version_1_archives_still_import(places, exported, imported, archives):
    world = places
    first = exported(world.campaign)
    assert archives.lines(first)[0]["version"] == 2

    lines = archives.lines(first)
    lines[0]["version"] = 1
    old = _signed(lines)
    assert sorted(imported(old, world.gm.user).import_claims) == ["ann", "ben", "carol"]
    # a claim's member id is what version 2 added: no Muster writes a version 1 archive holding one
    waiting = archives.lines(exported(imported(first, world.gm.user)))
    waiting[0]["version"] = 1
    with pytest.raises(ArchiveRefused, match="version 1 archive cannot hold: no Muster writes such a file"):
        imported(_signed(waiting), UserFactory(username="zed"))


def _signed(lines: list[dict]) -> bytes:
    """The lines (header, records, trailer) as an archive, the trailer's count and digest made anew."""
    return rewrite(gzip.compress(b"".join(encode_line(line) for line in lines)), lambda records: None)
