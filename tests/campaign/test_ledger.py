"""The ledger's one writer (campaign/ledger.py; issue 39): many entries at once, under locks taken in one order.

The day end posts thousands of upkeep debits and its take-back as many corrections through
``ledger_post_many``; these tests hold the module to what it promises them: the accounts locked by
primary key in one query before anything is written, the overdraft refused with the sentence the
single ``ledger_post`` gives, and all or nothing.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from campaign.ledger import InsufficientFunds, Posting, accounts_locked, balances_of, ledger_post, ledger_post_many
from campaign.models import Account, Campaign, LedgerEntry
from campaign.services import account_create

UPKEEP = LedgerEntry.Kind.UPKEEP


@pytest.fixture
def purses(world) -> dict[str, Account]:
    """Three purses of 5 coins each, made in the order Cid, Ann, Ben (so their names are not their pk order)."""
    made = {}
    for name in ("Cid's purse", "Ann's purse", "Ben's purse"):
        made[name.split("'")[0]] = account = account_create(campaign=world.campaign, name=name)
        ledger_post(account=account, amount=5, kind=LedgerEntry.Kind.OPENING, reason=f"Opening balance of {name}")
    return made


def debit(account: Account, amount: int, reason: str = "Upkeep for day 1") -> Posting:
    return Posting(account_id=account.pk, amount=-amount, kind=UPKEEP, reason=reason, day=1)


def _statements(captured) -> list[str]:
    """The SQL sent, savepoints aside (``ledger_post_many`` is atomic: inside a test it is a savepoint)."""
    return [query["sql"] for query in captured if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def _account_selects(captured) -> list[str]:
    return [sql for sql in _statements(captured) if sql.startswith("SELECT") and 'FROM "campaign_account"' in sql]


def test_posting_many_locks_the_accounts_once_in_primary_key_order_before_it_writes(purses):
    """Whatever order the postings come in, the accounts are read in one query ordered by pk, before the insert."""
    backwards = [debit(purses["Ben"], 1), debit(purses["Cid"], 2), debit(purses["Ann"], 3)]

    with CaptureQueriesContext(connection) as captured:
        ledger_post_many(backwards)

    selects = _account_selects(captured)
    assert len(selects) == 1, selects
    assert 'ORDER BY "campaign_account"."id" ASC' in selects[0]
    sql = _statements(captured)
    inserts = [i for i, statement in enumerate(sql) if statement.startswith('INSERT INTO "campaign_ledgerentry"')]
    assert inserts and sql.index(selects[0]) < min(inserts)
    assert balances_of(purse.pk for purse in purses.values()) == {
        purses["Cid"].pk: 3, purses["Ann"].pk: 2, purses["Ben"].pk: 4
    }


@pytest.mark.postgres
def test_on_postgresql_the_accounts_are_locked_for_update_in_primary_key_order(purses):
    """The one account query is ``... ORDER BY id ASC FOR UPDATE OF campaign_account``: rows locked in pk order."""
    with CaptureQueriesContext(connection) as captured:
        ledger_post_many([debit(purses["Ben"], 1), debit(purses["Ann"], 1)])

    [select] = _account_selects(captured)
    assert select.endswith('ORDER BY "campaign_account"."id" ASC FOR UPDATE OF "campaign_account"'), select


def test_posting_many_refuses_an_overdraft_with_the_ledgers_sentence_and_writes_nothing(purses):
    """Checked as if posted one by one: Ann's second debit would overdraw her; nobody's entry is written."""
    before = LedgerEntry.objects.count()

    with pytest.raises(InsufficientFunds) as refused:
        ledger_post_many([debit(purses["Cid"], 4), debit(purses["Ann"], 3), debit(purses["Ann"], 3)])

    assert str(refused.value) == "Ann's purse has 2 coins and this needs 3."
    assert LedgerEntry.objects.count() == before


def test_a_campaign_that_allows_credit_lets_many_debits_go_below_zero(world, purses):
    Campaign.objects.filter(pk=world.campaign.pk).update(allow_credit=True)

    ledger_post_many([debit(purses["Ann"], 4), debit(purses["Ann"], 4)])

    assert balances_of([purses["Ann"].pk]) == {purses["Ann"].pk: -3}


def test_balances_read_under_the_lock_follow_what_was_posted_without_reading_again(purses):
    """The day end decides its bills by ``locked.balances()``; posting through the same lock writes only."""
    locked = accounts_locked([purses["Ann"].pk, purses["Ben"].pk])
    assert locked.balances() == {purses["Ann"].pk: 5, purses["Ben"].pk: 5}

    with CaptureQueriesContext(connection) as captured:
        ledger_post_many([debit(purses["Ann"], 5), debit(purses["Ben"], 2)], locked=locked)

    assert [sql.split(" ", 3)[:3] for sql in _statements(captured)] == [["INSERT", "INTO", '"campaign_ledgerentry"']]

    assert locked.balances() == balances_of([purses["Ann"].pk, purses["Ben"].pk]) == {
        purses["Ann"].pk: 0, purses["Ben"].pk: 3
    }


@pytest.mark.django_db(transaction=True)
def test_posting_many_is_one_transaction_even_over_several_inserts(purses):
    """Enough postings for several insert batches on SQLite; the last one breaks a database rule: none is kept."""
    postings = [
        Posting(account_id=purses["Ann"].pk, amount=1, kind=UPKEEP, reason=f"Refund {n}", day=1) for n in range(300)
    ]
    postings.append(Posting(account_id=purses["Ben"].pk, amount=1, kind=UPKEEP, reason="Day zero", day=0))
    before = LedgerEntry.objects.count()

    with pytest.raises(IntegrityError):
        ledger_post_many(postings)

    assert LedgerEntry.objects.count() == before
