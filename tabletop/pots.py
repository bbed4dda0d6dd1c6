"""How a table's pot is shared (ruling S4), with no database: the rule both its writer and its readers use.

``services/stakes.py`` pays the pot out by it when a table ends, and ``selectors.stake_summary`` asks it
whether what the staked seats got back were their own fees (issue 35: "refunded", not "received"). It
lives below both, so the page's read never loads the write module.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Stake

CAUSE_TYPE = "table"  # the ledger's cause of a table's stake lines (``cause_type``, ``cause_id`` the table)


@dataclass(frozen=True)
class Share:
    seat: int
    amount: int
    returned: bool  # True: the fee comes back (draw); False: winnings


def pot_shares(*, entry_fee: int, payout: str, staked: list[int], winners: list[int]) -> list[Share]:
    """Who gets what from the pot (pure). ``staked`` and ``winners`` are seat indices.

    The staked winners share the pot evenly, the odd coins to the first of them in seat order.
    No staked winner (a draw, or only guests won), or a shared win under ``tie_returns``:
    every staked seat gets its fee back.
    """
    staked = sorted(staked)
    staked_winners = [seat for seat in staked if seat in set(winners)]
    if not staked_winners or (payout == Stake.Payout.TIE_RETURNS and len(set(winners)) > 1):
        return [Share(seat=seat, amount=entry_fee, returned=True) for seat in staked]
    pot = entry_fee * len(staked)
    each, odd = divmod(pot, len(staked_winners))
    return [
        Share(seat=seat, amount=each + (odd if position == 0 else 0), returned=False)
        for position, seat in enumerate(staked_winners)
    ]
