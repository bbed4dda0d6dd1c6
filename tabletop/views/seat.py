"""A seat's phone, opened by the seat's secret link: a guest seat needs nothing else, a member's seat
also needs that member's login. Its turn may ask the computer what it would do (the coach, issue 27)."""

from __future__ import annotations

from typing import NoReturn

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from campaign.permissions import require_own, require_own_login, signed_in
from muster import languages
from muster.answers import answer, said

from .. import presenters, selectors
from ..computer import coach
from ..models import Seat
from ..services import tables
from .answers import ENGINE_REFUSALS, log_download, poll, private, write
from .posted import int_or_none, posted_action, posted_version


def _seat_from_token(request: HttpRequest, token: str) -> Seat:
    seat = selectors.seat_by_token(token)
    require_own_login(request, seat.membership)  # the member's own login costs no query for the user
    languages.use(request, languages.of_request(request, selectors.seat_page_language(seat)))
    return seat


@require_GET
@private
def seat_table(request: HttpRequest, token: str) -> HttpResponse:
    seat = selectors.seat_by_token(token)
    if not seat.is_guest and not signed_in(request, seat.membership):
        return redirect_to_login(request.get_full_path())
    languages.use(request, languages.of_request(request, selectors.seat_page_language(seat)))
    require_own(request.user, seat.membership)  # the member's own login is request.user already: no query
    table = selectors.table_for_page(seat.table_id)
    return render(request, "tabletop/table.html", presenters.seat_context(seat, table))


@require_GET
@private
def seat_poll(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat_from_token(request, token)
    return poll(request, seat.table, lambda fresh: presenters.seat_context(seat, fresh))


@require_POST
@private
def seat_act(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat_from_token(request, token)

    def play():
        return tables.table_play(
            table_id=seat.table_id,
            seat=seat.index,
            action=posted_action(request.POST),
            version=posted_version(request.POST),
            client_action_id=request.POST.get("client_action_id", "")[:64],
            user=request.user if request.user.is_authenticated else None,
            by_person=True,  # the seat went to the computer since its token was read (ruling BOT32)
        ).table

    page = reverse("tabletop:seat_table", args=[seat.token])
    return write(request, seat.table, lambda table: presenters.seat_context(seat, table), play, page)


@require_GET
@private
def seat_log(request: HttpRequest, token: str) -> HttpResponse:
    """Seats get the log only once the game is over, and getting it closes the table for good
    (ruling P7): an undo would reopen a game whose every hidden card that seat now knows."""
    seat = _seat_from_token(request, token)
    return answer(
        lambda: tables.table_release_log(table_id=seat.table_id),
        refusing=ENGINE_REFUSALS,
        done=log_download,
        refused=_forbidden,
    )


def _forbidden(refusal: Exception) -> NoReturn:
    """A log refused to a seat (the game goes on) is Django's 403 page with the refusal's sentence."""
    raise PermissionDenied(said(refusal)) from refusal


@require_POST
@private
def seat_coach(request: HttpRequest, token: str) -> HttpResponse:
    """The seat asks "what would the computer do?" (ruling CO2): the search's top three moves from this
    seat's view with their win chances, or the refusal's sentence (a stale page 409, not allowed 403, over
    a bound 429 and no answer in time 503: both say when to ask again, ``Retry-After``)."""
    seat = _seat_from_token(request, token)
    asked = coach.ask(seat, int_or_none(request.POST.get("version")))
    context = {"moves": asked.moves, "refusal": gettext(asked.refusal) if asked.refusal else "",
               "estimate": gettext(coach.ESTIMATE)}
    response = render(request, "tabletop/_coach_answer.html", context, status=asked.status)
    if asked.status in (429, 503):
        response["Retry-After"] = "1"
    return response
