"""A pot's entries lock their accounts once, in primary-key order (campaign/ledger.py, issue 39).

The entry fees, the payout and an abandoned table's refunds each touch several purses in one
transaction. Locked one purse at a time in seat order, two tables whose seats hold the same purses in
the opposite order could each wait for the other's lock (a deadlock, refused by PostgreSQL after its
timeout). Each is one ``ledger_post_many``: one account query ordered by pk, then one insert.
"""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tabletop.services.abandon import table_abandon
from tabletop.services.stakes import stakes_pay_out

from tests.tabletop._stakes import open_staked, play_to_the_end, purse, table_entries


def _account_selects(captured) -> list[str]:
    return [query["sql"] for query in captured
            if query["sql"].startswith("SELECT") and 'FROM "campaign_account"' in query["sql"]]


def _purses_in_reverse_pk_order(world):
    """Ben's purse made first: seat order (Ann, Ben) is the reverse of the purses' pk order."""
    ben = purse(world.ben, 50)
    ann = purse(world.ann, 50)
    assert ben.pk < ann.pk
    return ann, ben


def test_the_entry_fees_lock_every_purse_once_in_pk_order(world):
    ann, ben = _purses_in_reverse_pk_order(world)
    with CaptureQueriesContext(connection) as captured:
        table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10)
    [select] = _account_selects(captured)
    assert 'ORDER BY "campaign_account"."id" ASC' in select
    assert sorted(entry.amount for entry in table_entries(table)) == [-10, -10]


def test_the_payout_locks_the_winners_purses_once_in_pk_order(world):
    ann, ben = _purses_in_reverse_pk_order(world)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10, seed=32)  # seats 0 and 1 share the win
    table = play_to_the_end(table)
    entries = sorted(entry.amount for entry in table_entries(table))
    assert entries == [-10, -10, 10, 10]
    table.stake.paid_out_at = None  # pay the finished pot out again, watching the queries
    table.stake.save(update_fields=["paid_out_at"])
    table_entries(table).filter(amount__gt=0).delete()
    with CaptureQueriesContext(connection) as captured:
        stakes_pay_out(table)
    [select] = _account_selects(captured)
    assert 'ORDER BY "campaign_account"."id" ASC' in select
    assert sorted(entry.amount for entry in table_entries(table)) == [-10, -10, 10, 10]


def test_an_abandoned_tables_refunds_lock_every_purse_once_in_pk_order(world):
    ann, ben = _purses_in_reverse_pk_order(world)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10)
    with CaptureQueriesContext(connection) as captured:
        table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="The inn closes")
    [select] = _account_selects(captured)
    assert 'ORDER BY "campaign_account"."id" ASC' in select
    assert sorted(entry.amount for entry in table_entries(table)) == [-10, -10, 10, 10]
