"""Stakes on side-event tables: entry fees paid in when a table opens, the pot paid out when it ends.

Rulings in docs/rulings.md (S1-S7). In short:

* Only seated members are staked, each from one account the GM chooses among the accounts
  that member owns (``Account.owner``); ``tabletop`` never looks at commanders. Guests play
  without stakes: they pay nothing and take nothing.
* Opening: every staked member's fee is debited (kind STAKE, cause ``table``/id) in the same
  transaction as ``table_create``; one refusal (``InsufficientFunds``) creates nothing.
* The pot is never a stored number: it is the table's STAKE entries. At the end
  (``on_finish`` hook, inside ``table_play``'s transaction) it goes to the staked winners,
  split evenly, the odd coins to the first of them in seat order; with no staked winner, or a
  shared win under ``tie_returns``, every fee is returned. The table's STAKE entries then sum to 0.
* Once paid out, the table cannot be undone (``undo_blocked`` hook).
* ``stakes_refusals`` is the one check of who can be staked, used by the new-table form (its clean and
  its preview) and by ``stakes_collect``: at least two members, each with an account (S2, S8).
* A member's seat handed to the computer keeps its stake: the computer plays for it (S9);
  ``stake_hand_over_warning`` is the sentence the GM reads before, in the control and the activity log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from campaign import bounds
from campaign.ledger import Posting, ledger_post_many
from campaign.models import Account, Campaign, LedgerEntry
from campaign.submissions import applied_once

from .. import hooks
from ..models import Seat, Stake, Table
from ..pots import CAUSE_TYPE, pot_shares
from .tables import SeatSpec, SetupRefused, table_create

UNSTAKED_GAMES = {"army"}


@dataclass(frozen=True)
class StakeTerms:
    """What the GM set when opening: the fee, the payout rule, and each member's paying account."""

    entry_fee: int
    payout: str
    accounts: dict[int, Account]  # membership pk -> account owned by that member


MIN_STAKED_MEMBERS = 2


def stakes_refusals(*, members: list[str], without_account: list[str] = ()) -> list[str]:
    """Why these seated members cannot be staked (empty: they can). ``members`` are the seated members'
    names in seat order; guests and computer players are never among them (they play without stakes).

    The one check shared by the new-table form (its clean, hence its preview) and ``stakes_collect``
    (rulings S2, S8).
    """
    if len(members) < MIN_STAKED_MEMBERS:
        if not members:
            return [gettext(
                "Stakes need at least two seated members, and no member is seated: guests and computer players play "
                "without stakes, so one member against the computer would only play for their own fee. "
                "Set the entry fee to 0, or seat another member."
            )]
        return [gettext(
            "Stakes need at least two seated members, and only %(name)s is: guests and computer players play "
            "without stakes, so one member against the computer would only play for their own fee. "
            "Set the entry fee to 0, or seat another member."
        ) % {"name": members[0]}]
    return [gettext("%(name)s has no account to stake from.") % {"name": name} for name in without_account]


STAKE_TO_COMPUTER = gettext_noop(
    "%(name)s's stake of %(coins)s stays in the pot and the computer plays for it: %(name)s wins "
    "or loses it as the seat does (to refund every fee, abandon the table)."
)
STAKE_TO_PERSON = gettext_noop("%(name)s plays for their own stake of %(coins)s again.")


def stake_hand_over_warning(*, name: str, entry_fee: int, to_computer: bool) -> str:
    """What happens to a staked member's fee when the GM hands their seat over (ruling S9)."""
    coins = ngettext("%(count)s coin", "%(count)s coins", entry_fee) % {"count": entry_fee}
    return gettext(STAKE_TO_COMPUTER if to_computer else STAKE_TO_PERSON) % {"name": name, "coins": coins}


# --- writes -----------------------------------------------------------------------------


@applied_once("table_new")
@transaction.atomic
def table_open_with_stakes(
    *,
    campaign: Campaign,
    game: str,
    title: str,
    seats: list[SeatSpec],
    config: dict[str, Any],
    stakes: StakeTerms | None = None,
    created_by=None,
    seed: int | None = None,
) -> Table:
    """``table_create``, then collect the stakes, in one transaction: any refusal leaves nothing behind.
    A staked table opens without the coach (ruling CO1): its stakes are real."""
    table = table_create(
        campaign=campaign, game=game, title=title, seats=seats, config=config, created_by=created_by, seed=seed,
        coach=stakes is None,
    )
    if stakes is not None:
        stakes_collect(table=table, terms=stakes, created_by=created_by)
    return table


@transaction.atomic
def stakes_collect(*, table: Table, terms: StakeTerms, created_by=None) -> Stake:
    """Debit each seated member's entry fee from the account chosen for them, and record the stake.

    Raises ``SetupRefused`` before debiting, or ``InsufficientFunds`` (the ledger's sentence) while
    debiting; the caller's transaction then rolls everything back.
    """
    if table.game in UNSTAKED_GAMES:
        raise SetupRefused(gettext("Army battles are not played for stakes."))
    if table.what_if:
        raise SetupRefused(gettext("A what-if table is played for nothing: it takes no stakes."))
    if terms.entry_fee < 1:
        raise SetupRefused(gettext("An entry fee is at least one coin."))
    if terms.entry_fee > bounds.MAX_COINS:
        raise SetupRefused(gettext("An entry fee is at most %(limit)s coins (got %(fee)s).") % {
            "limit": formats.number_format(bounds.MAX_COINS, force_grouping=True),
            "fee": formats.number_format(terms.entry_fee, force_grouping=True),
        })
    if terms.payout not in Stake.Payout.values:
        raise SetupRefused(gettext("Choose how the pot is paid out."))
    staked = [seat for seat in table.seats.select_related("membership__user").order_by("index") if not seat.is_guest]
    refusals = stakes_refusals(
        members=[seat.name for seat in staked],
        without_account=[seat.name for seat in staked if seat.membership_id not in terms.accounts],
    )
    if refusals:
        raise SetupRefused(" ".join(refusals))
    for seat in staked:
        account = terms.accounts[seat.membership_id]
        if account.owner_id != seat.membership_id or account.campaign_id != table.campaign_id:
            raise SetupRefused(
                gettext("%(account)s is not an account of %(name)s.") % {"account": account.name, "name": seat.name}
            )
        seat.stake_account = account
    # every purse locked at once, in pk order (campaign/ledger.py), each fee checked in seat order
    ledger_post_many([
        Posting(account_id=seat.stake_account.pk, amount=-terms.entry_fee, kind=LedgerEntry.Kind.STAKE,
                reason=f"Entry fee for {table.title}", cause_type=CAUSE_TYPE, cause_id=table.pk,
                created_by_id=created_by.pk if created_by else None)
        for seat in staked
    ])
    Seat.objects.bulk_update(staked, ["stake_account"])
    return Stake.objects.create(table=table, entry_fee=terms.entry_fee, payout=terms.payout)


def stakes_pay_out(table: Table) -> None:
    """``on_finish`` hook: post the pot to the winners' accounts, linked to the table.

    Runs inside ``table_play``'s transaction (the table row is locked), so the payout and the
    final action are saved together or not at all.
    """
    stake = None if table.what_if else Stake.objects.filter(table=table).first()
    if stake is None or stake.is_paid_out:
        return
    staked = table.seats.filter(stake_account__isnull=False).select_related("stake_account")
    seats = {seat.index: seat for seat in staked}
    winners = [int(seat) for seat in (table.outcome or {}).get("winners", [])]
    shares = pot_shares(entry_fee=stake.entry_fee, payout=stake.payout, staked=list(seats), winners=winners)
    with transaction.atomic():
        ledger_post_many([  # the winners' purses locked at once, in pk order (campaign/ledger.py)
            Posting(account_id=seats[share.seat].stake_account_id, amount=share.amount, kind=LedgerEntry.Kind.STAKE,
                    reason=f"{'Stake returned' if share.returned else 'Winnings'} from {table.title}",
                    cause_type=CAUSE_TYPE, cause_id=table.pk)
            for share in shares
        ])
        stake.paid_out_at = timezone.now()
        stake.save(update_fields=["paid_out_at"])


def stakes_undo_refusal(table: Table) -> str | None:
    """``undo_blocked`` hook: a table whose pot is in the ledger stays finished. The stake the page's table
    query read with it (``selectors.tables_for_page``; the play service refreshes it after a payout) is
    asked without a query (issue 26: every render of the GM's tablet asks); else the database."""
    if Table.stake.is_cached(table):
        stake = getattr(table, "stake", None)  # None: the table has no stake
        paid = stake is not None and stake.paid_out_at is not None
    else:
        paid = Stake.objects.filter(table=table, paid_out_at__isnull=False).exists()
    if not paid:
        return None
    return gettext("The stakes of %(title)s are already paid out: it cannot be undone.") % {"title": table.shown_title}


def register_hooks(games) -> None:
    """Called from ``TabletopConfig.ready`` with every game a side-event table can be opened for."""
    for game in games:
        if game not in UNSTAKED_GAMES:
            hooks.on_finish(game)(stakes_pay_out)
            hooks.undo_blocked(game)(stakes_undo_refusal)
