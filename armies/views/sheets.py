"""Pages to print (issue 24): a commander's roster sheet and the GM's roster book, one commander a page.

In the campaign's language when it has one (issue 41), whoever prints them. Ordinary HTML; the print section of
static/css/muster.css hides the navigation and the buttons, fixes
the tables' layout so nothing runs off the page, and starts each commander of the book on a new page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaign.permissions import campaign_gm, campaign_member
from muster import languages

from .. import selectors
from .common import _commander


@require_GET
@campaign_member
def roster_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """One commander's sheet: for the GM and the player who runs it (as the commander's page)."""
    languages.use_campaign_language(request, request.campaign.language)  # a printed sheet: the campaign's
    commander = _commander(request, pk)
    context = {
        "campaign": request.campaign,
        "sheets": [selectors.roster_sheet(commander)],
        "back": commander,
    }
    return render(request, "armies/print_roster.html", context)


@require_GET
@campaign_gm
def roster_book(request: HttpRequest) -> HttpResponse:
    """The GM's book: every commander in service, each on its own page."""
    languages.use_campaign_language(request, request.campaign.language)  # a printed sheet: the campaign's
    context = {"campaign": request.campaign, "sheets": selectors.roster_book(request.campaign.pk), "back": None}
    return render(request, "armies/print_roster.html", context)
