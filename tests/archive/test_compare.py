"""archive/compare.py: an archive exported again after its import holds the same campaign; a change shows."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from archive.compare import archives_differences
from campaign.models import Campaign
from people.models import Invite

from tests.archive._helpers import CLAIMED, without_joins

pytestmark = pytest.mark.django_db


def differences(one: bytes, two: bytes) -> list[str]:
    return archives_differences(io.BytesIO(one), io.BytesIO(two))


def test_export_import_export_gives_the_same_archive(full_campaign, exported, imported, archives):
    world = full_campaign
    first = exported(world.campaign)
    copy = imported(first, world.gm.user)
    plain = exported(copy)  # only the importer is a member yet
    assert differences(plain, exported(imported(plain, world.gm.user))) == []  # an import of an import
    archives.use_claims(copy)
    again = archives.rewrite(exported(copy), without_joins)
    assert archives_differences(io.BytesIO(first), io.BytesIO(again), ignore=CLAIMED) == []
    # the fixture's acts are all the GM's, and the claims gave back the seats, owners and character names
    assert differences(first, again) == []


def test_the_comparison_sees_a_change(full_campaign, exported, imported, archives):
    world = full_campaign
    first = exported(world.campaign)

    def fine_is_bigger(records):
        entry = next(r for r in records if r["kind"] == "ledger_entry" and r["reason"] == "A fine")
        entry["amount"] = -6
    found = differences(first, archives.rewrite(first, fine_is_bigger))
    assert len(found) == 1 and "amount is -5 in one and -6 in the other" in found[0]

    def seat_swapped(records):
        seats = [r for r in records if r["kind"] == "seat"]
        seats[0]["membership_id"], seats[1]["membership_id"] = seats[1]["membership_id"], seats[0]["membership_id"]
    assert any("membership_id" in line for line in differences(first, archives.rewrite(first, seat_swapped)))

    def one_day_less(records):
        records.remove(next(r for r in records if r["kind"] == "day"))
    assert differences(first, archives.rewrite(first, one_day_less))


def test_every_member_but_the_importer_gets_an_invite_to_claim_their_place(
        full_campaign, exported, imported, archives):
    world = full_campaign

    def stranger(records):  # a member nobody here shares the name of
        next(r for r in records if r["kind"] == "member" and r["username"] == "ben")["username"] = "bertram"
    copy = imported(archives.rewrite(exported(world.campaign), stranger), world.gm.user)
    assert copy.import_claims == ["ann", "bertram"]  # ann has an account here: a claim all the same
    assert not get_user_model().objects.filter(username="bertram").exists()  # no account is made for them
    claims = Invite.objects.filter(campaign=copy, max_uses=1, revoked_at=None, created_by=world.gm.user,
                                   commander__isnull=True, role="player")
    assert claims.count() == 2 and all(claim.token for claim in claims)  # new secrets: none travels
    assert set(copy.memberships.values_list("user__username", flat=True)) == {"gm"}
    # their seats are guests' of their name, their purses nobody's, until they claim
    assert copy.tables.get(title="Duel at the Inn").seats.get(index=1).guest_name == "Ben the Sly"
    assert copy.tables.get(title="Duel at the Inn").seats.get(index=0).guest_name == "Ann the Bold"
    assert copy.accounts.get(name="Ben's purse").owner is None
    assert copy.accounts.get(name="Ann's purse").owner is None


def test_the_commands_write_and_read_an_archive(full_campaign, tmp_path):
    path = tmp_path / "siege.muster.jsonl.gz"
    out = io.StringIO()
    call_command("campaign_export", "siege", "-o", str(path), stdout=out)
    assert "Wrote" in out.getvalue() and path.exists()
    assert not list(tmp_path.glob(".*partial"))
    out = io.StringIO()
    call_command("campaign_import", str(path), stdout=out)  # the archive's GM, who has an account here
    assert "as the campaign 'siege-2', with gm as its GM" in out.getvalue()
    assert Campaign.objects.filter(slug="siege-2").exists()
    with pytest.raises(Exception, match="There is no account 'nobody' here"):
        call_command("campaign_import", str(path), "--as", "nobody")
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(Exception, match="truncated. Nothing was imported."):
        call_command("campaign_import", str(path), "--as", "gm")
    assert Campaign.objects.count() == 2
