"""Export a campaign and import it again as a new one (archive/export.py, archive/importer.py).

An import matches no account but the importer's: every other member comes back as a claim invite, and the
round trip is whole once each named person has used theirs (people/services/invites.py), which is how the
GM gets the campaign back together (issue 34)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign.ledger import balance_of
from campaign.models import Account, Activity, LedgerEntry, Membership
from people.models import Invite
from people.services.invites import invite_accept
from people.services.signup import signup
from tabletop.models import Seat, Table, TableAction

pytestmark = pytest.mark.django_db


def test_the_round_trip_keeps_every_row(full_campaign, exported, imported, archives):
    world = full_campaign
    data = exported(world.campaign)
    copy = imported(data, world.gm.user)
    assert copy.slug == "siege-2" and copy.pk != world.campaign.pk
    assert copy.time_zone == world.campaign.time_zone and copy.current_day == 2
    # nobody but the importer is a member until they use their claim
    assert set(Membership.objects.filter(campaign=copy).values_list("user__username", "role")) == {("gm", "gm")}
    assert sorted(copy.import_claims) == ["ann", "ben"]
    archives.use_claims(copy)
    members = set(Membership.objects.filter(campaign=copy).values_list("user__username", "role"))
    assert members == {("gm", "gm"), ("ann", "player"), ("ben", "player")}
    # each claim gave back the whole place: character names, the purses' owners, the seats
    places = ("user__username", "role", "character_name", "joined_at")
    assert set(Membership.objects.filter(campaign=copy).exclude(user__username="gm").values_list(*places)) == set(
        Membership.objects.filter(campaign=world.campaign).exclude(user__username="gm").values_list(*places))
    owners = {c: dict(Account.objects.filter(campaign=c).values_list("name", "owner__user__username"))
              for c in (world.campaign, copy)}
    assert owners[copy] == owners[world.campaign] and owners[copy]["Ann's purse"] == "ann"
    seats = {c: set(Seat.objects.filter(table__campaign=c).values_list(
        "table__title", "index", "membership__user__username", "guest_name")) for c in (world.campaign, copy)}
    assert seats[copy] == seats[world.campaign] and ("Stakes at the Inn", 2, None, "Gus") in seats[copy]
    old = {a.name: balance_of(a) for a in Account.objects.filter(campaign=world.campaign)}
    new = {a.name: balance_of(a) for a in Account.objects.filter(campaign=copy)}
    assert new == old and new["Ann's purse"] == 40
    assert LedgerEntry.objects.filter(account__campaign=copy).count() == LedgerEntry.objects.filter(
        account__campaign=world.campaign).count()
    originals, twins = (list(Table.objects.filter(campaign=c).order_by("pk")) for c in (world.campaign, copy))
    assert len(twins) == len(originals) == 4
    for original, twin in zip(originals, twins, strict=True):
        assert twin.title == original.title
        assert twin.state == original.state and twin.version == original.version
        assert twin.what_if == original.what_if and twin.gm_only == original.gm_only
        assert list(TableAction.objects.filter(table=twin).values_list("seq", "digest")) == list(
            TableAction.objects.filter(table=original).values_list("seq", "digest"))
    lines = Activity.objects.filter(campaign=world.campaign).count()
    # the import's own line, and one for each claim used
    assert Activity.objects.filter(campaign=copy).count() == lines + 1 + 2


def test_a_user_a_record_names_is_the_importer_or_nobody_and_the_log_keeps_the_name(
        full_campaign, exported, imported, archives):
    world = full_campaign

    def acts(records):  # the first line the GM's, every other one Ann's; each table's first move Ann's
        lines = [r for r in records if r["kind"] == "activity"]
        lines[0].update(actor="gm", actor_name="The GM")
        for line in lines[1:]:
            line.update(actor="ann", actor_name="Ann the Bold")
        for record in records:
            if record["kind"] in ("table_action", "table", "ledger_entry", "invite"):
                record[{"table_action": "user"}.get(record["kind"], "created_by")] = "ann"
    copy = imported(archives.rewrite(exported(world.campaign), acts), world.gm.user)
    kept = list(Activity.objects.filter(campaign=copy).order_by("pk").values_list("actor__username", "actor_name"))
    assert kept[0] == ("gm", "The GM") and len(kept) > 3
    assert set(kept[1:-1]) == {(None, "Ann the Bold")}  # not pinned on the account named ann here
    assert kept[-1][0] == "gm"  # the import's own line
    assert not TableAction.objects.filter(table__campaign=copy, user__isnull=False).exists()
    assert not Table.objects.filter(campaign=copy, created_by__isnull=False).exists()
    assert not LedgerEntry.objects.filter(account__campaign=copy, created_by__isnull=False).exists()
    assert not Invite.objects.filter(campaign=copy, created_by=world.ann.user).exists()


def test_a_member_without_an_account_here_signs_up_through_the_claim(full_campaign, exported, imported, archives):
    world = full_campaign
    data = archives.rewrite(exported(world.campaign), lambda records: next(
        r for r in records if r["kind"] == "member" and r["username"] == "ben").update(username="bertram"))
    copy = imported(data, world.gm.user)
    claims = dict(archives.claims(copy))
    assert set(claims) == {"ann", "bertram"}
    assert not get_user_model().objects.filter(username="bertram").exists()
    joined = signup(username="bertram", display_name="Bertram", password="a long enough pass phrase",
                    invite_token=claims["bertram"].token).joined
    assert joined.joined and (joined.membership.campaign, joined.membership.role) == (copy, "player")
    # the existing account joins through its own claim: logged in, one step
    assert invite_accept(token=claims["ann"].token, user=world.ann.user).joined
    assert set(copy.memberships.values_list("user__username", flat=True)) == {"gm", "ann", "bertram"}
