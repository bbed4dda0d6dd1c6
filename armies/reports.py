"""Reads for the army overview pages: summaries, settlement history, the treasury chart,
the GM treasury overview and the campaign ledger (on a page, with its causes linked, and as CSV).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext

from campaign.charts import Series, balance_series, line_chart
from campaign.models import Account, Campaign, LedgerEntry, Membership
from tabletop.catalog.files import neutralise_formula

from .history import activity_url, activity_urls
from .models import ArmyUnit, Commander, Settlement
from .selectors.rosters import commanders_for
from .services.upkeep import Bill, Preview, day_end_preview


def commander_summaries(membership: Membership) -> QuerySet[Commander]:
    """The member's commanders (all of them for the GM) with balance and active units: one query."""
    balance = (
        LedgerEntry.objects.filter(account=OuterRef("account"))
        .values("account")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return (
        commanders_for(membership)
        .annotate(
            balance=Coalesce(Subquery(balance, output_field=IntegerField()), 0),
            active_units=Count("units", filter=Q(units__status=ArmyUnit.Status.ACTIVE)),
        )
        .order_by("name")
    )


# Within a day and a commander, the settlement that counts first, then the ones taken back (newest first).
SETTLEMENT_ORDER = (F("reverted_at").desc(nulls_first=True), "-pk")


def settlement_history(campaign: Campaign, limit: int = 60) -> list[Settlement]:
    """The latest settlements, taken-back ones too (``Settlement.taken_back``): the pages mark them."""
    return list(
        Settlement.objects.filter(commander__campaign=campaign)
        .select_related("commander")
        .order_by("-day", "commander__name", *SETTLEMENT_ORDER)[:limit]
    )


def treasury_chart(campaign: Campaign) -> str:
    """Inline SVG: every commander's balance at the end of each day so far (two queries)."""
    names = dict(Commander.objects.filter(campaign=campaign).values_list("account_id", "name"))
    entries: dict[int, list[tuple[int, int]]] = defaultdict(list)
    rows = LedgerEntry.objects.filter(account_id__in=list(names)).values_list("account_id", "day", "amount")
    for account_id, day, amount in rows:
        entries[account_id].append((day, amount))
    series = [
        Series(name, balance_series(entries[account_id], campaign.current_day))
        for account_id, name in sorted(names.items(), key=lambda item: item[1])
    ]
    return line_chart(series)


# --- the GM treasury overview ---------------------------------------------------------------------


@dataclass(frozen=True)
class TreasuryRow:
    """One commander: balance now, and what the end of the current day would do to it."""

    commander: Commander
    balance: int
    bill: Bill | None  # None: used no unit today, owes nothing

    @property
    def owed(self) -> int:
        return self.bill.owed if self.bill else 0

    @property
    def would_pay(self) -> int:
        return self.bill.paid if self.bill else 0

    @property
    def deserters(self) -> list[str]:
        return [unit.name for unit in self.bill.deserters] if self.bill else []

    @property
    def balance_after(self) -> int:
        return self.balance - self.would_pay

    @property
    def retired(self) -> bool:
        return self.commander.retired_day is not None


@dataclass(frozen=True)
class TreasuryOverview:
    day: int
    preview: Preview
    rows: list[TreasuryRow]

    @property
    def total_balance(self) -> int:
        return sum(row.balance for row in self.rows)

    @property
    def total_owed(self) -> int:
        return sum(row.owed for row in self.rows)

    @property
    def total_paid(self) -> int:
        return sum(row.would_pay for row in self.rows)

    @property
    def total_after(self) -> int:
        return sum(row.balance_after for row in self.rows)

    @property
    def deserting(self) -> int:
        return sum(len(row.deserters) for row in self.rows)


def treasury_overview(campaign: Campaign) -> TreasuryOverview:
    """Every commander (active first, then retired) with balance and the current day's bill: four queries.

    The bill is ``day_end_preview``'s, so the page says exactly what ending the day would do.
    """
    balance = (
        LedgerEntry.objects.filter(account=OuterRef("account"))
        .values("account")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    commanders = (
        Commander.objects.filter(campaign=campaign)
        .select_related("membership__user")
        .annotate(balance=Coalesce(Subquery(balance, output_field=IntegerField()), 0))
        .order_by(Coalesce("retired_day", 0).asc(), "name", "pk")
    )
    preview = day_end_preview(campaign=campaign, day=campaign.current_day)
    bills = {bill.commander_id: bill for bill in preview.bills}
    rows = [TreasuryRow(commander=c, balance=c.balance, bill=bills.get(c.pk)) for c in commanders]
    return TreasuryOverview(day=campaign.current_day, preview=preview, rows=rows)


# --- the campaign ledger --------------------------------------------------------------------------


def ledger_for(campaign: Campaign, *, account_id: int | None = None, kind: str = "") -> QuerySet[LedgerEntry]:
    """The campaign's ledger (every account), newest first, filtered by account and kind when given."""
    entries = LedgerEntry.objects.filter(account__campaign=campaign).select_related("account__commander", "created_by")
    if account_id is not None:
        entries = entries.filter(account_id=account_id)
    if kind:
        entries = entries.filter(kind=kind)
    return entries.order_by("-id")


def ledger_accounts(campaign: Campaign) -> list[Account]:
    """The campaign's accounts for the ledger filter, each with its commander when it has one (one query)."""
    return list(Account.objects.filter(campaign=campaign).select_related("commander").order_by("name", "pk"))


def account_label(account: Account) -> str:
    commander = getattr(account, "commander", None)
    if commander is None or commander.name == account.name:
        return account.name
    return f"{account.name} ({commander.name})"


@dataclass(frozen=True)
class LedgerLine:
    entry: LedgerEntry
    commander: Commander | None
    cause_url: str | None
    cause_label: str


def cause_link(entry: LedgerEntry, slug: str) -> tuple[str | None, str]:
    """Where the GM sees what caused ``entry`` (URL or None) and how to name it; no query."""
    cause_id, cause_type = entry.cause_id, entry.cause_type
    if not cause_type or cause_id is None:
        return None, ""
    if cause_type == "settlement":
        url = f"{reverse('armies:treasury', args=[slug])}?settled={entry.day}#settlement-{cause_id}"
        return url, gettext("day %(day)s settlement") % {"day": entry.day}
    if cause_type == "battle":
        return reverse("armies:battle_result", args=[slug, cause_id]), gettext("battle #%(battle_id)s") % {
            "battle_id": cause_id
        }
    if cause_type == "table":
        return reverse("tabletop:gm_table", args=[slug, cause_id]), gettext("table #%(table_id)s") % {
            "table_id": cause_id
        }
    if cause_type == "commander":
        return reverse("armies:commander", args=[slug, cause_id]), gettext("commander")
    if cause_type == "offer":
        label = gettext("offer #%(offer_id)s") % {"offer_id": cause_id}
        try:
            return reverse("armies:offer_edit", args=[slug, cause_id]), label
        except NoReverseMatch:
            return f"{reverse('armies:list', args=[slug])}#offers", label
    if cause_type in ACTIVITY_CAUSES:
        return activity_url(slug, cause_id), gettext("activity log")
    return None, f"{cause_type} #{cause_id}"


ACTIVITY_CAUSES = ("day_end_revert", "gm", "activity")  # cause_id is an Activity's id


def ledger_lines(entries, slug: str) -> list[LedgerLine]:
    """The entries (already fetched with their account's commander) with their causes linked.

    One query more when some entries were caused by a GM action (to link the activity log by kind and day).
    """
    entries = list(entries)
    activities = activity_urls(slug, (e.cause_id for e in entries if e.cause_type in ACTIVITY_CAUSES))
    lines = []
    for entry in entries:
        url, label = cause_link(entry, slug)
        if entry.cause_type in ACTIVITY_CAUSES and entry.cause_id in activities:
            url = activities[entry.cause_id]
        commander = getattr(entry.account, "commander", None)
        lines.append(LedgerLine(entry=entry, commander=commander, cause_url=url, cause_label=label))
    return lines


def settlements_of_day(campaign: Campaign, day: int) -> list[Settlement]:
    """The day's settlements (taken-back ones too, marked), for the lines ledger entries link to."""
    return list(
        Settlement.objects.filter(commander__campaign=campaign, day=day)
        .select_related("commander")
        .order_by("commander__name", *SETTLEMENT_ORDER)
    )


# --- the ledger as CSV ----------------------------------------------------------------------------

CSV_HEADER = [
    "id",
    "created_at",
    "day",
    "account",
    "commander",
    "kind",
    "amount",
    "balance_after",
    "reason",
    "cause_type",
    "cause_id",
    "by",
]


class _Echo:
    """A file-like object whose write returns the line, for csv.writer inside a streamed response."""

    def write(self, value: str) -> str:
        return value


def _cell(value):
    return neutralise_formula(value) if isinstance(value, str) else value


def ledger_csv_rows(entries: QuerySet[LedgerEntry]) -> Iterator[str]:
    """CSV lines (header first) for ``entries``, oldest first, with each account's running balance.

    One query, read with ``iterator()`` so a long ledger is never held in memory; every text
    cell goes through ``neutralise_formula`` (ruling C1) so a spreadsheet runs no formula.
    """
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_HEADER)
    running: dict[int, int] = defaultdict(int)
    rows = entries.order_by("id").select_related("account__commander", "created_by").iterator(chunk_size=2000)
    for entry in rows:
        running[entry.account_id] += entry.amount
        commander = getattr(entry.account, "commander", None)
        by = entry.created_by
        yield writer.writerow(
            [
                _cell(value)
                for value in (
                    entry.pk,
                    entry.created_at.isoformat(),
                    entry.day,
                    entry.account.name,
                    commander.name if commander else "",
                    entry.kind,
                    entry.amount,
                    running[entry.account_id],
                    entry.reason,
                    entry.cause_type,
                    "" if entry.cause_id is None else entry.cause_id,
                    (by.get_full_name() or by.get_username()) if by else "",
                )
            ]
        )
