"""Stakes on side-event tables (tabletop/services/stakes.py, docs/rulings.md).

The tables are opened by tests/tabletop/_stakes.py, whose docstring says which seed makes which seat win.
"""

import pytest
from django.db.models import Sum
from django.urls import reverse

from campaign.ledger import InsufficientFunds, balance_of
from campaign.models import LedgerEntry
from tabletop import hooks
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.engines.kernel import IllegalAction
from tabletop.models import Seat, Stake, Table, TableAction
from tabletop.pots import Share, pot_shares
from tabletop.services.stakes import StakeTerms, stakes_pay_out, stakes_undo_refusal, table_open_with_stakes
from tabletop.services.tables import SeatSpec, SetupRefused, table_play, table_undo

from tests.counted import counted_get
from tests.forms import once
from tests.tables import next_move, play_next
from tests.tabletop._stakes import WTA, open_staked, play_to_the_end, purse, table_entries

pytestmark = pytest.mark.django_db

TIE_RETURNS = Stake.Payout.TIE_RETURNS


# --- opening ------------------------------------------------------------------------------


def test_entry_fees_are_debited_when_the_table_opens_and_linked_to_it(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 30)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10)

    assert (balance_of(ann), balance_of(ben)) == (40, 20)
    entries = list(table_entries(table).order_by("id"))
    assert [(e.account, e.amount, e.kind, e.reason) for e in entries] == [
        (ann, -10, LedgerEntry.Kind.STAKE, "Entry fee for Gridaris at the Inn"),
        (ben, -10, LedgerEntry.Kind.STAKE, "Entry fee for Gridaris at the Inn"),
    ]
    assert all(e.created_by == world.gm.user for e in entries)
    assert [seat.stake_account for seat in table.seats.all()] == [ann, ben]
    assert (table.stake.entry_fee, table.stake.payout, table.stake.is_paid_out) == (10, WTA, False)


def test_a_member_short_of_coins_refuses_the_table_and_nothing_is_created(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 5, "Ben's purse")

    with pytest.raises(InsufficientFunds, match="Ben's purse has 5 coins and this needs 10."):
        open_staked(world, [world.ann, world.ben], [ann, ben], fee=10)

    assert not Table.objects.exists() and not Stake.objects.exists()
    assert (balance_of(ann), balance_of(ben)) == (50, 5)
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.STAKE).exists()


def test_an_account_of_another_member_is_refused(world):
    ann = purse(world.ann, 50)
    with pytest.raises(SetupRefused, match="is not an account of Ben the Sly"):
        table_open_with_stakes(
            campaign=world.campaign,
            game="gridaris",
            title="Sneaky",
            seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
            config={"mode": "standard", "cards": STARTER_CARDS},
            stakes=StakeTerms(entry_fee=10, payout=WTA, accounts={world.ann.pk: ann, world.ben.pk: ann}),
        )
    assert not Table.objects.exists() and balance_of(ann) == 50


def test_guests_pay_nothing_and_their_seats_stake_nothing(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = open_staked(world, [world.ann, world.ben, "Gus"], [ann, ben], fee=10, seed=2)

    guest = table.seats.get(guest_name="Gus")
    assert guest.stake_account is None
    assert table_entries(table).count() == 2

    table = play_to_the_end(table)
    assert table.outcome["winners"] == [0]
    assert (balance_of(ann), balance_of(ben)) == (60, 40)  # the pot is the two members' fees only


# --- payout -------------------------------------------------------------------------------


def test_the_winner_takes_the_pot_when_the_game_ends(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10, seed=7)

    while not table.is_finished:
        assert not table_entries(table).filter(amount__gt=0).exists()
        table = play_next(table)

    assert table.outcome["winners"] == [1]
    assert (balance_of(ann), balance_of(ben)) == (40, 60)
    winnings = table_entries(table).get(amount__gt=0)
    assert (winnings.account, winnings.amount, winnings.kind, winnings.reason) == (
        ben,
        20,
        LedgerEntry.Kind.STAKE,
        "Winnings from Gridaris at the Inn",
    )
    assert table_entries(table).aggregate(total=Sum("amount"))["total"] == 0
    assert Stake.objects.get(table=table).is_paid_out


def test_tied_winners_split_the_pot(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = play_to_the_end(open_staked(world, [world.ann, world.ben], [ann, ben], fee=10, seed=32))

    assert table.outcome["winners"] == [0, 1]
    assert (balance_of(ann), balance_of(ben)) == (50, 50)
    assert table_entries(table).filter(reason="Winnings from Gridaris at the Inn").count() == 2


def test_a_shared_win_returns_every_stake_under_tie_returns(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = play_to_the_end(open_staked(world, [world.ann, world.ben], [ann, ben], payout=TIE_RETURNS, seed=32))

    assert (balance_of(ann), balance_of(ben)) == (50, 50)
    assert table_entries(table).filter(reason="Stake returned from Gridaris at the Inn").count() == 2


def test_a_guest_winning_returns_the_members_stakes(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = play_to_the_end(open_staked(world, [world.ann, world.ben, "Gus"], [ann, ben], seed=1))

    assert table.outcome["winners"] == [2]
    assert (balance_of(ann), balance_of(ben)) == (50, 50)


@pytest.mark.parametrize(
    "payout, fee, staked, winners, shares",
    [
        (WTA, 10, [0, 1, 2], [1], [Share(1, 30, False)]),
        (WTA, 11, [0, 1, 2], [2, 0], [Share(0, 17, False), Share(2, 16, False)]),  # 33: the odd coin to seat 0
        (WTA, 10, [0, 1], [0, 1, 2], [Share(0, 10, False), Share(1, 10, False)]),
        (WTA, 10, [0, 1], [], [Share(0, 10, True), Share(1, 10, True)]),  # no winner: a draw
        (WTA, 10, [0, 1], [2], [Share(0, 10, True), Share(1, 10, True)]),  # only a guest won
        (WTA, 10, [0, 1], [0, 2], [Share(0, 20, False)]),  # a guest shares the win, not the pot
        (TIE_RETURNS, 10, [0, 1], [0, 2], [Share(0, 10, True), Share(1, 10, True)]),
        (TIE_RETURNS, 10, [0, 1, 2], [1], [Share(1, 30, False)]),
    ],
)
def test_pot_shares(payout, fee, staked, winners, shares):
    assert pot_shares(entry_fee=fee, payout=payout, staked=staked, winners=winners) == shares


def test_every_payout_leaves_the_pot_empty():
    for staked in ([0, 1], [0, 1, 2], [0, 2, 3, 4]):
        for winners in ([], [0], [1, 2], [0, 1, 2, 3, 4], [3]):
            for payout in (WTA, TIE_RETURNS):
                shares = pot_shares(entry_fee=7, payout=payout, staked=staked, winners=winners)
                assert sum(share.amount for share in shares) == 7 * len(staked)
                assert all(share.seat in staked for share in shares)


def test_a_failing_payout_rolls_back_the_final_action(world, monkeypatch):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10, seed=7)
    for _ in range(18):  # with seed 7 the 19th action ends the game
        table = play_next(table)
    seat, action = next_move(table)

    def refuse_credits(*args, **kwargs):
        raise IllegalAction("The treasury is closed.")

    monkeypatch.setattr("tabletop.services.stakes.ledger_post_many", refuse_credits)
    with pytest.raises(IllegalAction, match="The treasury is closed."):
        table_play(table_id=table.pk, seat=seat, action=action, version=table.version)

    fresh = Table.objects.get(pk=table.pk)
    assert (fresh.version, fresh.status, fresh.outcome) == (18, Table.Status.ACTIVE, None)
    assert TableAction.objects.filter(table=table).count() == 18
    assert not Stake.objects.get(table=table).is_paid_out
    assert (balance_of(ann), balance_of(ben)) == (40, 40)

    monkeypatch.undo()
    assert table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table.is_finished
    assert (balance_of(ann), balance_of(ben)) == (40, 60)


def test_paying_out_twice_pays_once(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = play_to_the_end(open_staked(world, [world.ann, world.ben], [ann, ben], seed=7))
    stakes_pay_out(table)
    assert (balance_of(ann), balance_of(ben)) == (40, 60)


# --- undo, hooks ----------------------------------------------------------------------------


def test_undo_works_during_the_game_and_is_refused_after_the_payout(world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = play_next(open_staked(world, [world.ann, world.ben], [ann, ben], seed=7))
    table = table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert stakes_undo_refusal(table) is None

    table = play_to_the_end(table)
    with pytest.raises(IllegalAction, match="The stakes of Gridaris at the Inn are already paid out"):
        table_undo(table_id=table.pk, version=table.version, user=world.gm.user)
    assert Table.objects.get(pk=table.pk).is_finished


def test_a_table_without_stakes_finishes_and_undoes_as_before(world, table):
    table = play_to_the_end(table)
    assert not LedgerEntry.objects.exists()
    assert not table_undo(table_id=table.pk, version=table.version, user=world.gm.user).is_finished


def test_the_hooks_are_registered_for_every_side_event_game_but_not_army():
    from tabletop.forms import TABLE_FORMS

    for game in TABLE_FORMS:
        assert stakes_pay_out in hooks._FINISH[game] and stakes_undo_refusal in hooks._UNDO[game]
    assert stakes_pay_out not in hooks._FINISH.get("army", [])


# --- the GM's form and the table page -----------------------------------------------------------


def new_table_url(world):
    return reverse("tabletop:table_new", args=[world.campaign.slug, "gridaris"])


def form_data(world, **extra):
    members = [world.ann.pk, world.ben.pk]
    return {"title": "Gridaris at the Inn", "members": members, "mode": "standard", **once(), **extra}


def test_the_gm_opens_a_staked_table_from_commanders_purses(client, world):
    from tests.armies.factories import CommanderFactory

    ann = CommanderFactory(membership=world.ann, name="Ann's Host", balance=40).account
    ben_first = CommanderFactory(membership=world.ben, name="Ben's Horde", balance=40).account
    ben_second = CommanderFactory(membership=world.ben, name="Ben's Reserve", balance=40).account
    client.force_login(world.gm.user)

    page = client.get(new_table_url(world)).content.decode()
    assert "Stakes" in page and "Ben&#x27;s Reserve" in page and "Ben the Sly stakes from" in page

    response = client.post(
        new_table_url(world),
        form_data(world, entry_fee=15, payout=TIE_RETURNS, **{f"stake_account_{world.ben.pk}": ben_second.pk}),
    )
    table = Table.objects.get(title="Gridaris at the Inn")
    assert response.status_code == 302
    assert (table.stake.entry_fee, table.stake.payout) == (15, TIE_RETURNS)
    assert (balance_of(ann), balance_of(ben_first), balance_of(ben_second)) == (25, 40, 25)

    page = client.get(response["Location"]).content.decode()
    assert "15 coins a member" in page and "pot 30" in page and "Ben&#x27;s Reserve" in page


def test_no_entry_fee_means_no_stakes(client, world):
    purse(world.ann, 50)
    client.force_login(world.gm.user)
    client.post(new_table_url(world), form_data(world, entry_fee=0))
    table = Table.objects.get(title="Gridaris at the Inn")
    assert not Stake.objects.filter(table=table).exists() and not LedgerEntry.objects.filter(kind="stake").exists()


@pytest.mark.parametrize(
    "setup, extra, message",
    [
        (lambda w: purse(w.ann, 50), {}, "Ben the Sly has no account to stake from."),
        (
            lambda w: (purse(w.ann, 50), purse(w.ben, 50, "A"), purse(w.ben, 50, "B")),
            {},
            "Choose which account Ben the Sly stakes from.",
        ),
        (lambda w: purse(w.ann, 50), {"members": [], "guests": "Gus\nGil"}, "Stakes need at least two seated members"),
        (
            lambda w: (purse(w.ann, 50), purse(w.ben, 3, "Ben's purse")),
            {},
            "Ben&#x27;s purse has 3 coins and this needs 10.",
        ),
    ],
)
def test_a_stake_that_cannot_be_paid_says_why_and_creates_nothing(client, world, setup, extra, message):
    setup(world)
    client.force_login(world.gm.user)
    response = client.post(new_table_url(world), form_data(world, entry_fee=10, **extra))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Table.objects.exists() and not LedgerEntry.objects.filter(kind="stake").exists()


def test_the_table_page_shows_the_payout_at_the_end(client, world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = open_staked(world, [world.ann, world.ben], [ann, ben], fee=10, seed=7)
    client.force_login(world.gm.user)
    url = reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])
    assert "The pot is paid out" not in client.get(url).content.decode()

    play_to_the_end(table)
    page = client.get(url).content.decode()
    assert "The pot is paid out" in page and "received 20" in page and "received 0" in page

    client.force_login(world.ann.user)
    seat_page = client.get(reverse("tabletop:seat_table", args=[Seat.objects.get(table=table, index=0).token]))
    text = seat_page.content.decode()
    assert "received 20" in text and "Ann the Bold&#x27;s purse" not in text  # accounts are the GM's business


def test_the_staked_table_page_does_a_fixed_number_of_queries(client, world):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    table = play_to_the_end(open_staked(world, [world.ann, world.ben, "Gus"], [ann, ben], seed=2))
    client.force_login(world.gm.user)
    # one more: the paid-out stakes that disable the Undo button
    counted_get(client, reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]), queries=10,
                contains=["The pot is paid out", "received 20", 'aria-describedby="undo-refusal"'])


def test_army_battles_are_never_staked(world):
    from tabletop.services.stakes import stakes_collect

    with pytest.raises(SetupRefused, match="Army battles are not played for stakes."):
        stakes_collect(table=Table(campaign=world.campaign, game="army"), terms=StakeTerms(10, WTA, {}))
