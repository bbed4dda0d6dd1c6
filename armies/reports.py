"""Reads for the army overview pages: summaries, settlement history, the treasury chart."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from campaign.charts import Series, balance_series, line_chart
from campaign.models import Campaign, LedgerEntry, Membership

from .models import ArmyUnit, Commander, Settlement
from .selectors import commanders_for


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


def settlement_history(campaign: Campaign, limit: int = 60) -> list[Settlement]:
    return list(
        Settlement.objects.filter(commander__campaign=campaign)
        .select_related("commander")
        .order_by("-day", "commander__name")[:limit]
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
