"""The GM's tablet: the table page, its poll, a decision for any seat, undo, a seat handed to the
computer or back, the coach allowed or stopped, and the full log."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from campaign.permissions import campaign_gm
from muster import languages
from muster.http import venue_url

from .. import presenters, selectors, taken_back
from ..engines.kernel import GM, IllegalAction
from ..services import coach, seats, tables
from .answers import log_download, poll, private, render_live, write
from .posted import int_or_none, posted_action, posted_version


def _context_for(request: HttpRequest):
    return lambda table: presenters.gm_context(request, table)


def _page(request: HttpRequest, table) -> str:
    return reverse("tabletop:gm_table", args=[request.campaign.slug, table.pk])


@require_GET
@private
@campaign_gm
def gm_table(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk)
    context = presenters.gm_context(request, table)
    context["join_links"] = presenters.join_links(request, table)
    context["projector"] = projector = selectors.projector_link(table.pk)  # the projector link (ruling PJ1)
    if projector:  # on the venue address, as the seat links are: the GM may browse via localhost (issue 35)
        context["projector_url"] = venue_url(request, reverse("tabletop:projector", args=[projector.token]))
    return render(request, "tabletop/table.html", context)


@require_GET
@private
@campaign_gm
def gm_seat_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The seats' QR codes and links on one page to print (issue 24), for the seats people play: in the
    campaign's language when it has one."""
    languages.use_campaign_language(request, request.campaign.language)
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    links = presenters.join_links(request, table)
    context = {
        "campaign": request.campaign,
        "table": table,
        "cards": presenters.seat_cards(links),
        "computer_seats": [link["seat"] for link in links if link["seat"].bot],
    }
    return render(request, "tabletop/print_seats.html", context)


@require_GET
@private
@campaign_gm
def gm_poll(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    return poll(request, table, _context_for(request))


@require_POST
@private
@campaign_gm
def gm_act(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM enters a decision for a seat a person plays (hot-seat; never a computer's: ruling BOT32)
    or a table decision of their own."""
    table = selectors.table_for_campaign(request.campaign, pk, light=True)

    def play():
        as_seat = request.POST.get("as_seat", GM)
        seat = GM if as_seat == GM else int_or_none(as_seat)
        if seat is None:
            raise IllegalAction(gettext("Choose whose decision this is."))
        return tables.table_play(
            table_id=table.pk,
            seat=seat,
            action=posted_action(request.POST),
            version=posted_version(request.POST),
            client_action_id=request.POST.get("client_action_id", "")[:64],
            user=request.user,
            by_person=True,  # never for a seat the computer plays (ruling BOT32)
        ).table

    return write(request, table, _context_for(request), play, _page(request, table))


@require_GET
@private
@campaign_gm
def gm_undo_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM tapped Undo: the table with the question in the page, naming the action it takes back as
    the GM saw it (issue 25; no browser dialog). The answer posts to ``gm_undo`` with this version, so
    a table that moved on meanwhile refuses it as stale rather than undo another action."""
    table = selectors.table_for_campaign(request.campaign, pk)
    context = presenters.gm_context(request, table)
    if not context["undo_refusal"]:
        context["undo_confirm"] = taken_back.last_action(table, presenters.seat_names(table.state))
    return render_live(request, context)


@require_POST
@private
@campaign_gm
def gm_undo(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)

    def undo():
        return tables.table_undo(table_id=table.pk, version=posted_version(request.POST), user=request.user)

    return write(request, table, _context_for(request), undo, _page(request, table))


@require_POST
@private
@campaign_gm
def gm_seat_bot(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM hands a seat to the computer at a strength, or gives it back to a person (issue 16)."""
    table = selectors.table_for_campaign(request.campaign, pk, light=True)

    def hand_over():
        index = int_or_none(request.POST.get("seat"))
        if index is None:
            raise IllegalAction(gettext("This form is missing the seat or the table version; reload the page."))
        bot = request.POST.get("bot", "")
        version = posted_version(request.POST)
        return seats.seat_set_bot(table_id=table.pk, index=index, bot=bot, version=version, user=request.user)

    return write(request, table, _context_for(request), hand_over, _page(request, table))


@require_POST
@private
@campaign_gm
def gm_coach(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM lets the players ask the computer what it would do, or stops them (ruling CO1)."""
    table = selectors.table_for_campaign(request.campaign, pk, light=True)

    def switch():
        return coach.table_set_coach(table_id=table.pk, on=request.POST.get("coach") == "on",
                                     stakes_real=bool(request.POST.get("stakes_real")), user=request.user)

    return write(request, table, _context_for(request), switch, _page(request, table))


@require_GET
@private
@campaign_gm
def gm_log(request: HttpRequest, pk: int) -> HttpResponse:
    return log_download(selectors.table_for_campaign(request.campaign, pk))
