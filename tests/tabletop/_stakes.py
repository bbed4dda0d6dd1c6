"""Helpers of the stakes tests (tabletop/services/stakes.py), shared by every module that opens a staked table
or gives a member a purse: the stakes, forks, abandon, lean-request and table-bound tests, and the armies'
day-end take-back (CONVENTIONS 16b: never imported from a test module).

Seeds used with ``tests.tables.play_next`` (first legal action each turn):
two seats, seed 7: seat 1 wins; seed 32: seats 0 and 1 share the win;
three seats, seed 1: seat 2 wins; seed 2: seat 0 wins.
"""

from campaign.ledger import ledger_post
from campaign.models import Account, LedgerEntry
from campaign.services import account_create
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import Stake, Table
from tabletop.services.stakes import StakeTerms, table_open_with_stakes
from tabletop.services.tables import SeatSpec

from tests.tables import play_next

WTA = Stake.Payout.WINNER_TAKES_ALL


def purse(member, coins: int, name: str = "") -> Account:
    account = account_create(campaign=member.campaign, name=name or f"{member.display_name}'s purse", owner=member)
    if coins:
        ledger_post(account=account, amount=coins, kind=LedgerEntry.Kind.OPENING, reason="Opening", day=1)
    return account


def open_staked(world, seats, accounts, *, fee=10, payout=WTA, seed=7, title="Gridaris at the Inn"):
    specs = [SeatSpec(guest_name=s) if isinstance(s, str) else SeatSpec(membership=s) for s in seats]
    return table_open_with_stakes(
        campaign=world.campaign,
        game="gridaris",
        title=title,
        seats=specs,
        config={"mode": "standard", "cards": STARTER_CARDS},
        stakes=StakeTerms(entry_fee=fee, payout=payout, accounts={a.owner_id: a for a in accounts}),
        created_by=world.gm.user,
        seed=seed,
    )


def play_to_the_end(table: Table) -> Table:
    while not table.is_finished:
        table = play_next(table)
    return table


def table_entries(table: Table):
    return LedgerEntry.objects.filter(cause_type="table", cause_id=table.pk)
