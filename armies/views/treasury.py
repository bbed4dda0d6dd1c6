"""The GM treasury overview (balances, the coming day end, the chart, the whole ledger) and the ledger as CSV."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaign.models import LedgerEntry
from campaign.permissions import campaign_gm, campaign_member

from .. import reports
from .common import _commander, _int_or_none

LEDGER_PAGE_SIZE = 50


@require_GET
@campaign_gm
def treasury(request: HttpRequest) -> HttpResponse:
    """Every commander's money and what the end of today would take, then the campaign's ledger."""
    campaign = request.campaign
    accounts = reports.ledger_accounts(campaign)
    account_id = _int_or_none(request.GET.get("account"))
    if account_id not in {account.pk for account in accounts}:
        account_id = None
    kind = request.GET.get("kind", "")
    if kind not in LedgerEntry.Kind.values:
        kind = ""
    page = Paginator(reports.ledger_for(campaign, account_id=account_id, kind=kind), LEDGER_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    settled = _int_or_none(request.GET.get("settled"))
    if settled is None or not 1 <= settled < campaign.current_day:
        settled = campaign.current_day - 1 or None
    filters = request.GET.copy()
    filters.pop("page", None)
    context = {
        "campaign": campaign,
        "overview": reports.treasury_overview(campaign),
        "chart": reports.treasury_chart(campaign),
        "accounts": [(account.pk, reports.account_label(account)) for account in accounts],
        "kinds": LedgerEntry.Kind.choices,
        "account_id": account_id,
        "kind": kind,
        "page": page,
        "ledger": reports.ledger_lines(page.object_list, campaign.slug),
        "filters": filters.urlencode(),
        "settled": settled,
        "settled_days": range(campaign.current_day - 1, 0, -1),
        "settlements": reports.settlements_of_day(campaign, settled) if settled else [],
    }
    return render(request, "armies/treasury.html", context)


def _csv_response(entries, filename: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(reports.ledger_csv_rows(entries), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@campaign_gm
def ledger_csv(request: HttpRequest) -> StreamingHttpResponse:
    """The whole campaign ledger, every account, oldest first, streamed."""
    campaign = request.campaign
    entries = LedgerEntry.objects.filter(account__campaign=campaign)
    return _csv_response(entries, f"{campaign.slug}-ledger-day-{campaign.current_day}.csv")


@require_GET
@campaign_member
def commander_ledger_csv(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """One commander's ledger: their own player's or the GM's (anyone else gets 404)."""
    commander = _commander(request, pk)
    entries = LedgerEntry.objects.filter(account_id=commander.account_id)
    name = slugify(commander.name) or f"commander-{commander.pk}"
    return _csv_response(entries, f"{request.campaign.slug}-{name}-ledger.csv")
