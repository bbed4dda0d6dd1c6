"""Reads of commanders and their rosters (now and on a past day), treasuries and the printed roster sheets.

Every roster read is one query whatever the roster size: the card comes by join and the
day a unit was trained by a subquery on its history. The roster shows the *current* card
(errata apply to it); a battle keeps its own snapshot of the cards it was fought with.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from campaign.ledger import balance_of
from campaign.models import Account, LedgerEntry, Membership

from ..models import ArmyUnit, Commander, UnitCard, UnitEvent
from ..rules import TRAINING_EVENTS


@dataclass(frozen=True)
class RosterLine:
    unit: ArmyUnit
    card: UnitCard
    strength: int | None  # the card's Strength, +1 if trained (as of the roster's day); None: cannot fight
    upkeep: int
    status: str
    trained: bool
    trained_day: int | None
    joined_day: int
    left_day: int | None

    @property
    def name(self) -> str:
        return self.card.name


def _units_with_training(commander: Commander, day: int | None = None) -> QuerySet[ArmyUnit]:
    """Units with ``trained_day``: the day of the latest training event (by ``day``, when given).

    Every TRAINED or CORRECTED event flips the training (ruling K5), so with ``day`` the unit
    was trained at the end of that day when an odd number of them happened by then
    (``training_flips``).
    """
    return _with_training(ArmyUnit.objects.filter(commander=commander), day)


def _with_training(units: QuerySet[ArmyUnit], day: int | None = None) -> QuerySet[ArmyUnit]:
    """``units`` with their card and ``trained_day`` (and ``training_flips`` by ``day``): one query."""
    events = UnitEvent.objects.filter(unit=OuterRef("pk"), kind__in=TRAINING_EVENTS)
    if day is not None:
        events = events.filter(day__lte=day)
    units = (
        units.select_related("card")
        .annotate(trained_day=Subquery(events.order_by("-id").values("day")[:1]))
        .order_by("joined_day", "pk")
    )
    if day is not None:
        flips = events.order_by().values("unit").annotate(n=Count("pk")).values("n")
        units = units.annotate(training_flips=Coalesce(Subquery(flips, output_field=IntegerField()), 0))
    return units


def _line(unit: ArmyUnit, *, trained: bool, status: str) -> RosterLine:
    return RosterLine(
        unit=unit,
        card=unit.card,
        strength=None if unit.card.strength is None else unit.card.strength + (1 if trained else 0),
        upkeep=unit.card.upkeep,
        status=status,
        trained=trained,
        trained_day=unit.trained_day if trained else None,
        joined_day=unit.joined_day,
        left_day=unit.left_day,
    )


def roster(commander: Commander) -> list[RosterLine]:
    """The commander's active units now, with their current Strength and upkeep: one query."""
    units = _units_with_training(commander).filter(status=ArmyUnit.Status.ACTIVE)
    return [_line(unit, trained=unit.trained, status=unit.status) for unit in units]


def roster_on_day(commander: Commander, day: int) -> list[RosterLine]:
    """The army as it stood at the end of ``day``: joined by then and not yet left; one query.

    A unit that left on ``day`` is gone by its end. Training counts from the day it happened.
    """
    units = (
        _units_with_training(commander, day)
        .filter(joined_day__lte=day)
        .filter(Q(left_day__isnull=True) | Q(left_day__gt=day))
    )
    return [_line(unit, trained=unit.training_flips % 2 == 1, status=ArmyUnit.Status.ACTIVE) for unit in units]


def commanders_for(membership: Membership) -> QuerySet[Commander]:
    """A player's own commanders; for the GM, every commander of the campaign."""
    commanders = Commander.objects.select_related("membership__user", "account")
    if membership.is_gm:
        return commanders.filter(campaign_id=membership.campaign_id)
    return commanders.filter(membership=membership, kind=Commander.Kind.PC)


@dataclass(frozen=True)
class Treasury:
    account: Account
    balance: int
    entries: list[LedgerEntry]  # newest first


def treasury(account: Account) -> Treasury:
    entries = list(LedgerEntry.objects.filter(account=account).select_related("created_by").order_by("-id"))
    return Treasury(account=account, balance=sum(entry.amount for entry in entries), entries=entries)














# --- the printed roster sheets (issue 24) ---------------------------------------------------------


@dataclass(frozen=True)
class RosterSheet:
    """One commander's printed page: the active roster now and the treasury's balance."""

    commander: Commander
    balance: int
    lines: list[RosterLine]

    @property
    def upkeep(self) -> int:
        """Coins a day if every unit is used."""
        return sum(line.upkeep for line in self.lines)


def roster_sheet(commander: Commander) -> RosterSheet:
    """The commander's sheet: two queries (the roster, the balance) whatever the roster size."""
    return RosterSheet(commander=commander, balance=balance_of(commander.account), lines=roster(commander))


def roster_book(campaign_id: int) -> list[RosterSheet]:
    """A sheet for every commander in service (not retired), by name: two queries in all, whatever
    the number of commanders and units (commanders with their balances, then every active unit)."""
    balance = (
        LedgerEntry.objects.filter(account=OuterRef("account"))
        .values("account")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    commanders = list(
        Commander.objects.filter(campaign_id=campaign_id, retired_day__isnull=True)
        .select_related("membership__user", "account")
        .annotate(balance=Coalesce(Subquery(balance, output_field=IntegerField()), 0))
        .order_by("name", "pk")
    )
    units = _with_training(
        ArmyUnit.objects.filter(commander__in=[c.pk for c in commanders], status=ArmyUnit.Status.ACTIVE)
    )
    lines: dict[int, list[RosterLine]] = {commander.pk: [] for commander in commanders}
    for unit in units if commanders else ():
        lines[unit.commander_id].append(_line(unit, trained=unit.trained, status=unit.status))
    return [RosterSheet(commander=c, balance=c.balance, lines=lines[c.pk]) for c in commanders]
