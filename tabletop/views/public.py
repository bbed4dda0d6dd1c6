"""The public projector: what every member may see of a table (no hand, no choices)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.permissions import campaign_member

from .. import presenters, selectors
from .answers import poll


@require_GET
@campaign_member
def public_table(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk)
    return render(request, "tabletop/table.html", presenters.public_context(request, table))


@require_GET
@campaign_member
def public_poll(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    return poll(request, table, lambda fresh: presenters.public_context(request, fresh))
