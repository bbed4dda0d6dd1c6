"""The bounds migrations (campaign 0003, armies 0005, tabletop 0008) move old out-of-bounds rows inside.

A database that already holds the issue-12 adjustment of 9223372036854775807 (every campaign
page a 500 on SQLite) must migrate, and come out whole.
"""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("campaign", "0002_campaign_allow_credit_campaign_day_end_time_and_more"),
          ("armies", "0004_dayend_heartbeat"), ("tabletop", "0007_table_log_released_at")]
BIGINT_MAX = 9223372036854775807


@pytest.mark.django_db(transaction=True)
def test_old_rows_beyond_the_new_bounds_are_clamped_and_say_so():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    campaign = old.get_model("campaign", "Campaign").objects.create(name="Old", slug="old", current_day=3)
    account = old.get_model("campaign", "Account").objects.create(campaign=campaign, name="Purse")
    entries = old.get_model("campaign", "LedgerEntry").objects
    huge = entries.create(account=account, amount=BIGINT_MAX, day=1, kind="adjustment", reason="Typo")
    debt = entries.create(account=account, amount=-(10**12), day=1, kind="adjustment", reason="Typo too")
    fine = entries.create(account=account, amount=25, day=1, kind="adjustment", reason="Gift")
    card = old.get_model("armies", "UnitCard").objects.create(code="ogre", name="Ogre", strength=500, role="aggressor",
                                                              path="steel", upkeep=2, price=2_000_000)
    stars = old.get_model("tabletop", "GridarisCard").objects.create(code="zz1", name="Star", card_class="Mops",
                                                                     tier="gold", stars=12, top="1", right="1",
                                                                     bottom="1", left="1")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from armies.models import UnitCard
    from campaign.models import LedgerEntry
    from tabletop.models import GridarisCard

    amounts = dict(LedgerEntry.objects.values_list("pk", "amount"))
    assert amounts == {huge.pk: 1_000_000_000, debt.pk: -1_000_000_000, fine.pk: 25}
    assert "clamped from 9223372036854775807" in LedgerEntry.objects.get(pk=huge.pk).reason
    assert LedgerEntry.objects.get(pk=fine.pk).reason == "Gift"
    assert UnitCard.objects.filter(pk=card.pk).values_list("strength", "price").get() == (100, 1_000_000)
    assert GridarisCard.objects.get(pk=stars.pk).stars == 9
