"""The stakes' lines on a table's page (templates/jinja2/tabletop/_stakes.jinja, issue 35): a fee that came back reads
"refunded", never "received" as if it were winnings: on an abandoned table, when no staked seat won (a guest
or the computer did), and on a shared win under "a tie returns the fees". Winnings still read "received".

Seeds with ``tests.tables.play_next``: two seats, seed 7: seat 1 wins; seed 32: seats 0 and 1 share the win;
three seats, seed 1: seat 2 wins."""

import pytest
from django.urls import reverse

from campaign.ledger import ledger_post
from campaign.models import LedgerEntry
from campaign.services import account_create
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import Stake
from tabletop.services.stakes import StakeTerms, table_open_with_stakes
from tabletop.services.tables import SeatSpec

from tests.tables import play_next

pytestmark = pytest.mark.django_db


def staked_and_played(world, seats, *, payout, seed):
    """A Gridaris table with a fee of 10 for each member among ``seats`` (a string is a guest), played to its end."""
    accounts = {}
    for member in seats:
        if not isinstance(member, str):
            account = account_create(campaign=world.campaign, name=f"{member.display_name}'s purse", owner=member)
            ledger_post(account=account, amount=50, kind=LedgerEntry.Kind.OPENING, reason="Opening", day=1)
            accounts[member.pk] = account
    table = table_open_with_stakes(
        campaign=world.campaign, game="gridaris", title="Gridaris at the Inn",
        seats=[SeatSpec(guest_name=s) if isinstance(s, str) else SeatSpec(membership=s) for s in seats],
        config={"mode": "standard", "cards": STARTER_CARDS},
        stakes=StakeTerms(entry_fee=10, payout=payout, accounts=accounts), created_by=world.gm.user, seed=seed,
    )
    while not table.is_finished:
        table = play_next(table)
    return table


def gm_page(client, world, table) -> str:
    client.force_login(world.gm.user)
    response = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_fees_returned_because_a_guest_won_read_refunded(client, world):
    table = staked_and_played(world, [world.ann, world.ben, "Cora"], payout=Stake.Payout.WINNER_TAKES_ALL, seed=1)
    assert table.outcome["winners"] == [2]  # the guest, who stakes nothing

    page = gm_page(client, world, table)

    assert page.count("paid 10, refunded 10") == 2 and "received" not in page
    assert "Every fee was returned: no staked seat won the pot." in page


def test_a_shared_win_that_returns_the_fees_reads_refunded(client, world):
    table = staked_and_played(world, [world.ann, world.ben], payout=Stake.Payout.TIE_RETURNS, seed=32)

    assert gm_page(client, world, table).count("paid 10, refunded 10") == 2


def test_a_shared_win_that_splits_the_pot_reads_received(client, world):
    table = staked_and_played(world, [world.ann, world.ben], payout=Stake.Payout.WINNER_TAKES_ALL, seed=32)

    page = gm_page(client, world, table)

    assert page.count("paid 10, received 10") == 2 and "refunded" not in page


def test_winnings_read_received(client, world):
    table = staked_and_played(world, [world.ann, world.ben], payout=Stake.Payout.WINNER_TAKES_ALL, seed=7)

    page = gm_page(client, world, table)

    assert "paid 10, received 20" in page and "paid 10, received 0" in page and "refunded" not in page
