"""Day-end upkeep: what each commander owes for the day and who deserts when they cannot pay.

Rule (Upkeep): "At the end of any Day in which a Commander led an army, they will be assigned
an Upkeep cost based on which units they used. Upkeep is paid per Day, not per Battle [...]
Failing to pay the assigned Upkeep cost will result in some or all of your units deserting."

As implemented (rulings U1-U8 in docs/rulings.md):

- A commander owes, for a day, the upkeep of every unit with a ``UnitUse`` row for that day
  (the database keeps one row per unit per day, so a unit is counted once however many
  battles it fought), at the card's upkeep *at settlement time* (errata apply, U1). A unit
  killed that day was used and is charged (U2).
- Commanders who used no unit that day owe nothing and get no ``Settlement`` (U7).
- A commander who can pay, pays everything. One who cannot loses units by the campaign's
  desertion policy (U3): MOST_EXPENSIVE (default) or CHEAPEST: used units that are still in
  the army desert one at a time, in that order, until the rest is affordable, and the rest
  is paid; ALL_USED: every used unit still in the army deserts and nothing is paid. Ties go
  to the latest recruit first (U4). If even then the rest is more than the treasury (units
  that can no longer desert: killed that day), the treasury is emptied and the remainder
  waived (U5). With ``allow_credit`` nobody deserts and the balance may go negative (U6).

What a commander owes and what a bill decides live here (``bill_for``, pure) with the reads they
need and the GM's preview; settling the day with them, chunk by chunk, is ``settlement.py``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from django.db.models import Exists, OuterRef, Sum

from campaign.ledger import balances_of
from campaign.models import Campaign

from ..models import ArmyUnit, Commander, Settlement, UnitUse

Desertion = Campaign.Desertion


# --- deciding a bill (pure) -----------------------------------------------------------------------


@dataclass(frozen=True)
class UsedUnit:
    """A unit used on the day, as the settlement sees it."""

    id: int
    name: str
    upkeep: int
    in_army: bool  # still active: only such a unit can desert


@dataclass(frozen=True)
class Bill:
    """One commander's upkeep for one day: what is owed, what would be paid, who would desert."""

    commander_id: int
    commander_name: str
    account_id: int
    owed: int
    balance: int
    can_pay: bool
    paid: int
    deserters: tuple[UsedUnit, ...] = ()

    @property
    def balance_after(self) -> int:
        return self.balance - self.paid


def _desertion_order(policy: str) -> Callable[[UsedUnit], tuple]:
    # Ties: the latest recruit (highest id) leaves first (ruling U4).
    if policy == Desertion.CHEAPEST:
        return lambda unit: (unit.upkeep, -unit.id)
    return lambda unit: (-unit.upkeep, -unit.id)


def bill_for(
    *,
    commander_id: int,
    commander_name: str,
    account_id: int,
    owed: int,
    balance: int,
    units: Sequence[UsedUnit],
    policy: str,
    allow_credit: bool,
) -> Bill:
    """Decide one commander's bill. ``units`` (the used units) are needed only when they cannot pay."""
    bill = partial(
        Bill,
        commander_id=commander_id,
        commander_name=commander_name,
        account_id=account_id,
        owed=owed,
        balance=balance,
    )
    if allow_credit or owed == 0 or owed <= balance:
        return bill(can_pay=True, paid=owed)
    affordable = max(balance, 0)
    in_army = sorted((unit for unit in units if unit.in_army), key=_desertion_order(policy))
    if policy == Desertion.ALL_USED:
        return bill(can_pay=False, paid=0, deserters=tuple(in_army))
    rest, deserters = owed, []
    for unit in in_army:
        if rest <= affordable:
            break
        if unit.upkeep == 0:
            continue  # deserting would not lower the bill
        deserters.append(unit)
        rest -= unit.upkeep
    return bill(can_pay=False, paid=min(rest, affordable), deserters=tuple(deserters))


# --- the reads both the preview and the settlement use --------------------------------------------


def _unsettled(day: int) -> Exists:
    return ~Exists(Settlement.objects.filter(commander_id=OuterRef("commander_id"), day=day, reverted_at=None))


def owed_rows(*, campaign_id: int, day: int, commander_ids: Iterable[int] | None = None) -> list[dict]:
    """Per unsettled commander who used units on ``day``: name, account and owed. One aggregate query."""
    uses = UnitUse.objects.filter(commander__campaign_id=campaign_id, day=day).filter(_unsettled(day))
    if commander_ids is not None:
        uses = uses.filter(commander_id__in=list(commander_ids))
    return list(
        uses.values("commander_id", "commander__name", "commander__account_id")
        .annotate(owed=Sum("unit__card__upkeep"))
        .order_by("commander_id")
    )


def used_units(*, day: int, commander_ids: Sequence[int], lock: bool = False) -> dict[int, list[UsedUnit]]:
    """Commander id -> the units they used on ``day`` (locked when settling). One query."""
    if not commander_ids:
        return {}
    used = ArmyUnit.objects.filter(uses__day=day, uses__commander_id__in=list(commander_ids))
    if lock:
        used = used.select_for_update(of=("self",))
    units: dict[int, list[UsedUnit]] = defaultdict(list)
    for commander_id, unit_id, name, upkeep, status in used.values_list(
        "uses__commander_id", "pk", "card__name", "card__upkeep", "status"
    ).order_by("pk"):
        units[commander_id].append(UsedUnit(unit_id, name, upkeep, status == ArmyUnit.Status.ACTIVE))
    return units


def bills_decided(
    rows: list[dict], balances: dict[int, int], units: dict[int, list[UsedUnit]], policy: str, allow_credit: bool
) -> list[Bill]:
    return [
        bill_for(
            commander_id=row["commander_id"],
            commander_name=row["commander__name"],
            account_id=row["commander__account_id"],
            owed=row["owed"] or 0,
            balance=balances.get(row["commander__account_id"], 0),
            units=units.get(row["commander_id"], ()),
            policy=policy,
            allow_credit=allow_credit,
        )
        for row in rows
    ]


def commanders_short(rows: list[dict], balances: dict[int, int], allow_credit: bool) -> list[int]:
    """The commanders who cannot pay in full."""
    if allow_credit:
        return []
    return [
        row["commander_id"]
        for row in rows
        if (row["owed"] or 0) > 0 and (row["owed"] or 0) > balances.get(row["commander__account_id"], 0)
    ]


# --- preview --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    day: int
    policy: str
    allow_credit: bool
    bills: tuple[Bill, ...]

    @property
    def total_owed(self) -> int:
        return sum(bill.owed for bill in self.bills)

    @property
    def total_paid(self) -> int:
        return sum(bill.paid for bill in self.bills)

    @property
    def deserting(self) -> int:
        return sum(len(bill.deserters) for bill in self.bills)

    def for_commander(self, commander: Commander | int) -> Bill | None:
        pk = getattr(commander, "pk", commander)
        return next((bill for bill in self.bills if bill.commander_id == pk), None)


def day_end_preview(*, campaign: Campaign, day: int) -> Preview:
    """What settling ``day`` would do now, for every commander who used units and is not settled yet.

    At most three queries, whatever the number of commanders: owed, balances, and the used
    units of those who cannot pay.
    """
    rows = owed_rows(campaign_id=campaign.pk, day=day)
    accounts = UnitUse.objects.filter(commander__campaign_id=campaign.pk, day=day).values("commander__account_id")
    balances = balances_of(accounts) if rows else {}
    units = used_units(day=day, commander_ids=commanders_short(rows, balances, campaign.allow_credit))
    bills = bills_decided(rows, balances, units, campaign.desertion, campaign.allow_credit)
    return Preview(day=day, policy=campaign.desertion, allow_credit=campaign.allow_credit, bills=tuple(bills))
