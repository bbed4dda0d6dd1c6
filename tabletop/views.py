"""Generic table views for every game: the GM's tablet, a seat's phone, the public projector.

Each page has one live region (``tabletop/table.html#live``). It polls a tiny
endpoint that answers 204 while the table's version is unchanged; actions post
the version they were made against and a client action id, so a stale click gets
409 with the fresh table and a double tap is applied once.
"""

from __future__ import annotations

import uuid

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.permissions import campaign_gm, campaign_member, require_own
from campaign.submissions import AlreadyDone

from . import bot_turns, forms, live, selectors
from .engines import get_engine
from .engines.kernel import GM, PUBLIC, IllegalAction, PickRefused
from .engines.shapes import MalformedJson, load_json
from .models import Seat, Stake, Table
from .services import abandon, stakes, tables

NON_ACTION_FIELDS = {"csrfmiddlewaretoken", "version", "client_action_id", "as_seat", "action"}
# Far above any legal action's JSON or field count: the engines' declared shapes do the fine checks.
MAX_ACTION_CHARS, MAX_ACTION_DEPTH, MAX_ACTION_FIELDS, MAX_NUMBER_CHARS = 8000, 4, 40, 12


def _posted_action(post) -> dict:
    """The action a form posts: a JSON ``action`` (a legal action as the engine listed it, types intact),
    completed by any plain fields (what a person typed, e.g. dice values); or plain fields alone.

    A field named ``name:int`` arrives as the whole number typed into it, ``name:ints`` as the list of
    whole numbers typed into one or several inputs of that name ("3 5", "3,5", or one die per input),
    ``name:list`` as the list of the values of the inputs of that name (the cards ticked).
    """
    action = {}
    if post.get("action"):
        if len(post["action"]) > MAX_ACTION_CHARS:
            raise IllegalAction("This button's action is too long to be one of the game's choices; reload the page.")
        try:
            action = load_json(post["action"], max_depth=MAX_ACTION_DEPTH)
        except MalformedJson:
            action = None
        if not isinstance(action, dict):
            raise IllegalAction("This button's action is damaged; reload the page.")
    if len(post) > MAX_ACTION_FIELDS:
        raise IllegalAction("This form sends more fields than any action of the game has; reload the page.")
    for key in post:
        if key in NON_ACTION_FIELDS:
            continue
        field, _, kind = key.partition(":")
        if kind == "int":
            action[field] = _whole_number(post[key], field)
        elif kind == "ints":
            typed = " ".join(post.getlist(key)).replace(",", " ").split()
            action[field] = [_whole_number(text, field) for text in typed]
        elif kind == "list":  # the boxes ticked (cards tapped): templates/tabletop/games/_cardpick.html
            action[field] = post.getlist(key)
        else:
            action[key] = post[key]
    return action


def _whole_number(text: str, field: str) -> int:
    text = text.strip()
    if not text:
        raise IllegalAction(f"Enter a whole number for {field}.")
    if len(text) > MAX_NUMBER_CHARS:
        raise IllegalAction(f"Enter a whole number for {field}; {len(text)} characters are far too many.")
    try:
        return int(text)
    except ValueError:
        raise IllegalAction(f"Enter a whole number for {field}; {text!r} is not one.") from None


# --- the page context ---------------------------------------------------------------


def _live_context(request: HttpRequest, table: Table, viewer, urls: dict, **extra) -> dict:
    engine = get_engine(table.game)
    return {
        "table": table,
        "viewer": viewer,
        "view": engine.view(table.state, viewer),
        "game_template": f"tabletop/games/{table.game}.html",
        "urls": urls,
        "client_action_id": uuid.uuid4().hex,
        "stakes": stakes.stake_summary(table),
        "poll_key": live.table_key(table),
        "abandoned": abandon.abandon_note(table),  # a query only for an abandoned table
        **bot_turns.page_context(table),  # the computer seats, and which of them is thinking
        **extra,
    }


def _gm_urls(table: Table) -> dict:
    slug = table.campaign.slug
    return {
        "act": reverse("tabletop:gm_act", args=[slug, table.pk]),
        "poll": reverse("tabletop:gm_poll", args=[slug, table.pk]),
        "page": reverse("tabletop:gm_table", args=[slug, table.pk]),
        "undo": reverse("tabletop:gm_undo", args=[slug, table.pk]),
        "log": reverse("tabletop:gm_log", args=[slug, table.pk]),
        "public": reverse("tabletop:public_table", args=[slug, table.pk]),
        "abandon": reverse("tabletop:table_abandon", args=[slug, table.pk]),
        "seat_bot": reverse("tabletop:gm_seat_bot", args=[slug, table.pk]),
        "socket": f"/ws/c/{slug}/tables/{table.pk}/",  # tabletop/routing.py
    }


def _seat_urls(seat: Seat) -> dict:
    return {
        "act": reverse("tabletop:seat_act", args=[seat.token]),
        "poll": reverse("tabletop:seat_poll", args=[seat.token]),
        "page": reverse("tabletop:seat_table", args=[seat.token]),
        "log": reverse("tabletop:seat_log", args=[seat.token]) if seat.table.status != Table.Status.ACTIVE else "",
        "socket": f"/ws/play/{seat.token}/",  # tabletop/routing.py
    }


def _public_urls(table: Table) -> dict:
    slug = table.campaign.slug
    return {
        "poll": reverse("tabletop:public_poll", args=[slug, table.pk]),
        "page": reverse("tabletop:public_table", args=[slug, table.pk]),
        "socket": f"/ws/c/{slug}/tables/{table.pk}/",  # tabletop/routing.py
    }


def _render_live(request, context: dict, status: int = 200) -> HttpResponse:
    template = "tabletop/table.html#live" if request.htmx else "tabletop/table.html"
    return render(request, template, context, status=status)


def _poll(request: HttpRequest, light_table: Table, build) -> HttpResponse:
    """204 while the version is unchanged: the table was loaded without its state, nothing renders."""
    if request.GET.get("v") == live.table_key(light_table):
        return HttpResponse(status=204)
    return render(request, "tabletop/table.html#live", build(selectors.table_for_page(light_table.pk)))


def _act(request: HttpRequest, table: Table, seat, context_for, page_url: str) -> HttpResponse:
    """Apply the posted action; answer with the live region (htmx) or redirect (plain form).

    ``table`` may be a light instance (no state): the service loads and locks its own.
    """
    try:
        action = _posted_action(request.POST)
        version = int(request.POST.get("version", ""))
    except IllegalAction as illegal:
        return _refuse(request, context_for(_fresh(table)), str(illegal), 400)
    except ValueError:
        return _refuse(
            request, context_for(_fresh(table)), "This form is missing the table version; reload the page.", 400
        )
    try:
        result = tables.table_play(
            table_id=table.pk,
            seat=seat,
            action=action,
            version=version,
            client_action_id=request.POST.get("client_action_id", "")[:64],
            user=request.user if request.user.is_authenticated else None,
        )
    except tables.StaleVersion as stale:
        return _refuse(request, context_for(stale.table), str(stale), 409)
    except IllegalAction as illegal:
        # Refused picks say which cards to keep picked, and maybe a move to confirm (a GOT'M loss).
        offer = illegal.offer if isinstance(illegal, PickRefused) else None
        context = {**context_for(_fresh(table)), "offer": offer}
        return _refuse(request, context, str(illegal), 400)
    if not request.htmx:
        return redirect(page_url)
    return _render_live(request, context_for(result.table))


def _fresh(table: Table) -> Table:
    return selectors.table_for_page(table.pk)


def _refuse(request, context: dict, message: str, status: int) -> HttpResponse:
    """The table as it is now with the refusal's sentence in it: the live region for htmx, else the
    whole styled page (the sentence once, in the live region, not also as a message)."""
    context["error"] = message
    return _render_live(request, context, status=status)


def _log_response(table: Table) -> JsonResponse:
    response = JsonResponse(selectors.table_log(table), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="muster-{table.game}-table-{table.pk}.json"'
    return response


# Seat and GM pages, fragments and logs hold hands: no browser cache, proxy or back button keeps them.
private = cache_control(private=True, no_store=True)


# --- GM -------------------------------------------------------------------------------


def _gm_context(request, table: Table) -> dict:
    table.campaign = request.campaign  # a table fresh from the service: its links need no query for the slug
    return _live_context(
        request, table, GM, _gm_urls(table), mode="gm", undo_refusal=tables.undo_refusal(table),
        seat_controls=bot_turns.seat_controls(table) if table.status == Table.Status.ACTIVE else [],
    )


def _join_links(request, table: Table) -> list[dict]:
    """Each seat's link and QR code, on the address phones use (PUBLIC_BASE_URL, which ``make run`` sets
    to the venue address) even when the GM browses via localhost; else on the host the request came to."""
    links = []
    for seat in table.seats.select_related("membership__user"):
        path = reverse("tabletop:seat_table", args=[seat.token])
        url = settings.PUBLIC_BASE_URL + path if settings.PUBLIC_BASE_URL else request.build_absolute_uri(path)
        links.append(
            {"seat": seat, "url": url, "qr": segno.make(url, error="m").svg_data_uri(scale=4) if seat.is_guest else ""}
        )
    return links


def _table_already_open(request: HttpRequest, table: Table | None) -> HttpResponse:
    """A repeated "new table" post (one-time token): the first post's table, never a second one."""
    if table is None:
        messages.info(request, "Already done: this table was opened by an earlier post of this form.")
        return redirect("campaign:detail", request.campaign.slug)
    staked = " and its entry fees were collected once" if Stake.objects.filter(table=table).exists() else ""
    messages.info(request, f"Already done: {table.title} was opened by this form{staked}.")
    return redirect("tabletop:gm_table", request.campaign.slug, table.pk)


@require_http_methods(["GET", "POST"])
@campaign_gm
def table_new(request: HttpRequest, game: str) -> HttpResponse:
    form_class = forms.TABLE_FORMS.get(game)
    if form_class is None:
        return render(request, "404.html", status=404)
    form = form_class(request.POST or None, campaign=request.campaign)
    if request.method == "POST" and form.is_valid():
        try:
            table = stakes.table_open_with_stakes(
                campaign=request.campaign,
                game=game,
                title=form.cleaned_data["title"],
                seats=form.seat_specs(),
                config=form.engine_config(),
                stakes=form.stake_terms(),
                created_by=request.user,
                submission=form.cleaned_data["submission"],
            )
        except AlreadyDone as done:
            return _table_already_open(request, done.result)
        except ValueError as error:
            form.add_error(None, str(error))
        else:
            return redirect("tabletop:gm_table", request.campaign.slug, table.pk)
    return render(request, "tabletop/table_new.html", {"form": form, "game": game, "campaign": request.campaign})


@require_GET
@private
@campaign_gm
def gm_table(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk)
    context = _gm_context(request, table)
    context["join_links"] = _join_links(request, table)
    return render(request, "tabletop/table.html", context)


@require_GET
@private
@campaign_gm
def gm_poll(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    return _poll(request, table, lambda fresh: _gm_context(request, fresh))


@require_POST
@private
@campaign_gm
def gm_act(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM enters a decision for any seat (hot-seat) or a table decision of their own."""
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    as_seat = request.POST.get("as_seat", GM)
    seat = GM if as_seat == GM else _int_or_none(as_seat)
    if seat is None:
        return _refuse(request, _gm_context(request, _fresh(table)), "Choose whose decision this is.", 400)
    page = reverse("tabletop:gm_table", args=[request.campaign.slug, table.pk])
    return _act(request, table, seat, lambda t: _gm_context(request, t), page)


@require_POST
@private
@campaign_gm
def gm_undo(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return _refuse(request, _gm_context(request, _fresh(table)), "This form is missing the table version.", 400)
    return _gm_write(request, table, lambda: tables.table_undo(table_id=table.pk, version=version, user=request.user))


def _gm_write(request: HttpRequest, table, write) -> HttpResponse:
    """A GM write at ``table`` other than an action (``write()`` returns the table after it): a stale tab
    gets 409 with the fresh table, a refusal 400 with its sentence; then the GM page as it is now."""
    try:
        table = write()
    except tables.StaleVersion as stale:
        return _refuse(request, _gm_context(request, stale.table), str(stale), 409)
    except IllegalAction as illegal:
        return _refuse(request, _gm_context(request, _fresh(table)), str(illegal), 400)
    if not request.htmx:
        return redirect("tabletop:gm_table", request.campaign.slug, table.pk)
    return _render_live(request, _gm_context(request, table))


@require_POST
@private
@campaign_gm
def gm_seat_bot(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM hands a seat to the computer at a strength, or gives it back to a person (issue 16)."""
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    try:
        version = int(request.POST.get("version", ""))
        index = int(request.POST.get("seat", ""))
    except ValueError:
        missing = "This form is missing the seat or the table version; reload the page."
        return _refuse(request, _gm_context(request, _fresh(table)), missing, 400)
    bot = request.POST.get("bot", "")
    return _gm_write(
        request,
        table,
        lambda: bot_turns.seat_set_bot(table_id=table.pk, index=index, bot=bot, version=version, user=request.user),
    )


@require_GET
@private
@campaign_gm
def gm_log(request: HttpRequest, pk: int) -> HttpResponse:
    return _log_response(selectors.table_for_campaign(request.campaign, pk))


# --- public (projector) -----------------------------------------------------------------


def _public_context(request, table: Table) -> dict:
    table.campaign = request.campaign  # as for the GM's
    return _live_context(request, table, PUBLIC, _public_urls(table), mode="public")


@require_GET
@campaign_member
def public_table(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk)
    return render(request, "tabletop/table.html", _public_context(request, table))


@require_GET
@campaign_member
def public_poll(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    return _poll(request, table, lambda fresh: _public_context(request, fresh))


# --- a seat's phone -----------------------------------------------------------------------


def _seat_from_token(request: HttpRequest, token: str) -> Seat:
    """A guest seat opens with its secret link alone; a member's seat also needs that member."""
    seat = selectors.seat_by_token(token)
    require_own(request.user, seat.membership)
    return seat


def _seat_context(request, seat: Seat, table: Table) -> dict:
    seat.table = table
    # The phone's "your turn" cue (static/js/live.js) fires when this turns true.
    my_turn = table.status == Table.Status.ACTIVE and seat.index in get_engine(table.game).to_act(table.state)
    return _live_context(request, table, seat.index, _seat_urls(seat), mode="seat", seat=seat, my_turn=my_turn)


@require_GET
@private
def seat_table(request: HttpRequest, token: str) -> HttpResponse:
    seat = selectors.seat_by_token(token)
    if not seat.is_guest and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    require_own(request.user, seat.membership)
    return render(request, "tabletop/table.html", _seat_context(request, seat, selectors.table_for_page(seat.table_id)))


@require_GET
@private
def seat_poll(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat_from_token(request, token)
    return _poll(request, seat.table, lambda fresh: _seat_context(request, seat, fresh))


@require_POST
@private
def seat_act(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat_from_token(request, token)
    page = reverse("tabletop:seat_table", args=[seat.token])
    return _act(request, seat.table, seat.index, lambda t: _seat_context(request, seat, t), page)


@require_GET
@private
def seat_log(request: HttpRequest, token: str) -> HttpResponse:
    """Seats get the log only once the game is over, and getting it closes the table for good
    (ruling P7): an undo would reopen a game whose every hidden card that seat now knows."""
    seat = _seat_from_token(request, token)
    try:
        table = tables.table_release_log(table_id=seat.table_id)
    except IllegalAction as refusal:
        raise PermissionDenied(str(refusal)) from refusal
    return _log_response(table)


def _int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
