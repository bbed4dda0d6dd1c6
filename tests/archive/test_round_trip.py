"""Export a campaign and import it again as a new one (archive/export.py, archive/importer.py)."""

from __future__ import annotations

import pytest

from campaign.models import Account, Activity, LedgerEntry, Membership
from campaign.services import balance_of
from tabletop.models import Table, TableAction

pytestmark = pytest.mark.django_db


def test_the_round_trip_keeps_every_row(full_campaign, exported, imported):
    world = full_campaign
    data = exported(world.campaign)
    copy = imported(data, world.gm.user)
    assert copy.slug == "siege-2" and copy.pk != world.campaign.pk
    assert copy.time_zone == world.campaign.time_zone and copy.current_day == 2
    members = set(Membership.objects.filter(campaign=copy).values_list("user__username", "role", "character_name"))
    assert members == {("gm", "gm", ""), ("ann", "player", "Ann the Bold"), ("ben", "player", "Ben the Sly")}
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
    assert Activity.objects.filter(campaign=copy).count() == lines + 1  # and the import's own
