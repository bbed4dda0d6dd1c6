"""What a table's pages show: the context of the live region for the GM's tablet, a seat's phone and
the projector, each page's links, the seats' join links, and the computer seats.

Nothing here writes or decides: the views pick a presenter, the template renders what it returns.
Hidden information reaches a page only through the engine's ``view`` for that page's viewer.
"""

from __future__ import annotations

import uuid
from functools import lru_cache

import segno
from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext, gettext_noop

from muster.http import venue_url

from . import away, hooks, selectors, taken_back, viewers
from .engines import get_engine
from .engines.kernel import GM, PUBLIC
from .models import Seat, Table

# --- the computer seats -----------------------------------------------------------------------


def seat_name(state: dict, index: int) -> str:
    players = state.get("players") if isinstance(state, dict) else None
    if isinstance(players, list) and 0 <= index < len(players):
        return str(players[index])
    return gettext("Seat %(number)s") % {"number": index + 1}


def seat_names(state: dict) -> dict[str, str]:
    """{seat key as the log writes it: name} of every seat."""
    players = state.get("players") if isinstance(state, dict) else None
    return {str(index): seat_name(state, index) for index in range(len(players) if isinstance(players, list) else 0)}


def computer_context(table: Table) -> dict:
    """The computer seats (``computers``: name and strength per seat) and those to act now
    (``thinking``): nothing but names and strengths. Read from the page's annotated table query."""
    bots = selectors.computer_seats(table)
    if not bots:
        return {"computers": [], "thinking": []}
    state = table.state
    computers = [
        {"seat": index, "name": seat_name(state, index), "strength": bot} for index, bot in sorted(bots.items())
    ]
    thinking = []
    if table.status == Table.Status.ACTIVE:
        acting = set(get_engine(table.game).to_act(state))
        thinking = [computer for computer in computers if computer["seat"] in acting]
    return {"computers": computers, "thinking": thinking}


def seat_controls(table: Table) -> list[dict]:
    """Every seat with who plays it (``bot``: "" a person, else the strength), for the GM's control."""
    bots = selectors.computer_seats(table)
    players = table.state.get("players") if isinstance(table.state, dict) else None
    count = len(players) if isinstance(players, list) else (max(bots) + 1 if bots else 0)
    return [
        {"seat": index, "name": seat_name(table.state, index), "bot": bots.get(index, "")} for index in range(count)
    ]


# --- each page's links -------------------------------------------------------------------------


def gm_urls(table: Table) -> dict:
    slug = table.campaign.slug
    return {
        "act": reverse("tabletop:gm_act", args=[slug, table.pk]),
        "poll": reverse("tabletop:gm_poll", args=[slug, table.pk]),
        "page": reverse("tabletop:gm_table", args=[slug, table.pk]),
        "undo": reverse("tabletop:gm_undo", args=[slug, table.pk]),
        "undo_confirm": reverse("tabletop:gm_undo_confirm", args=[slug, table.pk]),
        "log": reverse("tabletop:gm_log", args=[slug, table.pk]),
        "public": reverse("tabletop:public_table", args=[slug, table.pk]),
        "abandon": reverse("tabletop:table_abandon", args=[slug, table.pk]),
        "seat_bot": reverse("tabletop:gm_seat_bot", args=[slug, table.pk]),
        "coach": reverse("tabletop:gm_coach", args=[slug, table.pk]),
        "socket": f"/ws/c/{slug}/tables/{table.pk}/gm/",  # tabletop/routing.py
    }


def seat_urls(seat: Seat) -> dict:
    """A seat's links: each render's own dict, reversed once per process (issue 40: five reversals a render)."""
    return dict(_seat_urls(seat.token, seat.table.status != Table.Status.ACTIVE, get_script_prefix()))


@lru_cache(maxsize=4096)
def _seat_urls(token: str, over: bool, prefix: str) -> dict:
    return {
        "act": reverse("tabletop:seat_act", args=[token]),
        "poll": reverse("tabletop:seat_poll", args=[token]),
        "page": reverse("tabletop:seat_table", args=[token]),
        "log": reverse("tabletop:seat_log", args=[token]) if over else "",
        "coach": reverse("tabletop:seat_coach", args=[token]),
        "socket": f"/ws/play/{token}/",  # tabletop/routing.py
    }


def public_urls(table: Table) -> dict:
    slug = table.campaign.slug
    return {
        "poll": reverse("tabletop:public_poll", args=[slug, table.pk]),
        "page": reverse("tabletop:public_table", args=[slug, table.pk]),
        "socket": f"/ws/c/{slug}/tables/{table.pk}/",  # tabletop/routing.py
    }


def join_links(request, table: Table) -> list[dict]:
    """Each seat's link and QR code, on the address phones use (PUBLIC_BASE_URL, which ``make run`` sets
    to the venue address) even when the GM browses via localhost; else on the host the request came to.
    A seat the computer plays has neither (ruling BOT32): its token opens nothing, and is shown nowhere;
    nor has a seat of a what-if only the GM plays (ruling WI10)."""
    links = []
    for seat in table.seats.select_related("membership__user"):
        if seat.bot or table.gm_only:  # nor a seat of a what-if only the GM plays (ruling WI10)
            links.append({"seat": seat, "url": "", "qr": ""})
            continue
        path = reverse("tabletop:seat_table", args=[seat.token])
        url = venue_url(request, path)
        links.append(
            {"seat": seat, "url": url, "qr": segno.make(url, error="m").svg_data_uri(scale=4) if seat.is_guest else ""}
        )
    return links


def seat_cards(links: list[dict]) -> list[dict]:
    """The printed seat sheet (issue 24) from ``join_links``: a card with the name, link and QR code of
    every seat a person plays, members' seats too (their link still asks for that member's login). None
    for a seat the computer plays (ruling BOT32), nor for a what-if only the GM plays (ruling WI10):
    ``join_links`` gives those no link."""
    return [
        {**link, "qr": link["qr"] or segno.make(link["url"], error="m").svg_data_uri(scale=4)}
        for link in links
        if link["url"]
    ]


def page_links(table: Table, viewer: hooks.TableViewer) -> list[hooks.Link]:
    """A table page's way back (issue 25): the campaign for a member (a guest's seat opens nothing of
    it), then what the game's ``table_links`` hooks give that viewer (a battle's armies page, its
    result). ``table.campaign`` is already loaded: no query here but the hooks' own."""
    if viewer.guest:
        return hooks.links_for(table, viewer)
    campaign = (gettext("Campaign"), reverse("campaign:detail", args=[table.campaign.slug]))
    return [campaign, *hooks.links_for(table, viewer)]


# --- the live region -----------------------------------------------------------------------------


ABANDONED_TURN = gettext_noop("Abandoned: nothing more is played")
FINISHED_TURN = gettext_noop("Game over")


def settled_view(table: Table, view: dict) -> dict:
    """The engine's view of a table nobody plays any more (abandoned or finished) with nobody to act:
    an abandoned table's state stops mid-turn, and the engine, which knows nothing of abandoning,
    would still name a seat to act (issue 25). The words of a finished game's end are the engine's when
    they name nobody to act."""
    if table.status == Table.Status.ACTIVE:
        return view
    if table.status == Table.Status.ABANDONED:
        turn = gettext(ABANDONED_TURN)
    else:
        turn = view.get("turn_text") if not view.get("to_act") else gettext(FINISHED_TURN)
    settled = {**view, "to_act": [], "choices": [], "turn_text": turn or gettext(FINISHED_TURN)}
    players = view.get("players")
    if isinstance(players, list):  # a player's own "acting" mark (Mercenarium's)
        settled["players"] = [{**p, "acting": False} if isinstance(p, dict) else p for p in players]
    return settled


def live_context(table: Table, viewer, urls: dict, **extra) -> dict:
    engine = get_engine(table.game)
    return {
        "table": table,
        "viewer": viewer,
        "view": settled_view(table, engine.view(table.state, viewer)),
        "game_template": f"tabletop/games/{table.game}.html",
        "urls": urls,
        "client_action_id": uuid.uuid4().hex,
        "stakes": selectors.stake_summary(table),
        "poll_key": viewers.table_key(table),
        "abandoned": selectors.abandon_note(table),  # a query only for an abandoned table
        **computer_context(table),  # the computer seats, and which of them is thinking
        **extra,
    }


def gm_context(request, table: Table) -> dict:
    table.campaign = request.campaign  # a table fresh from the service: its links need no query for the slug
    return gm_view_context(table, request.membership.pk)


def gm_view_context(table: Table, membership_id: int) -> dict:
    """The GM's live region for the GM ``membership_id`` (``table.campaign`` already set): one render
    serves every page of that GM (tabletop/push.py)."""
    context = live_context(
        table, GM, gm_urls(table), mode="gm", undo_refusal=selectors.undo_refusal(table),
        links=page_links(table, hooks.TableViewer("gm", membership_id)),
        seat_controls=seat_controls(table) if table.status == Table.Status.ACTIVE else [],
        away=away.note(table),  # "Ann's phone is not connected" (issue 38)
    )
    # The GM's buttons for the computer's seats are disabled with the reason, which the service
    # gives when it refuses them (ruling BOT32; templatetags computer_lock).
    if table.status == Table.Status.ACTIVE:
        context["locked_seats"] = frozenset(computer["seat"] for computer in context["computers"])
        context["locked_reason"] = gettext(selectors.COMPUTER_SEAT)
    return context


def public_context(request, table: Table) -> dict:
    table.campaign = request.campaign  # as for the GM's
    return public_view_context(table, request.membership.pk)


def public_view_context(table: Table, membership_id: int) -> dict:
    viewer = hooks.TableViewer("public", membership_id)
    return live_context(table, PUBLIC, public_urls(table), mode="public", links=page_links(table, viewer))


def projector_urls(token: str) -> dict:
    return {
        "poll": reverse("tabletop:projector_poll", args=[token]),
        "page": reverse("tabletop:projector", args=[token]),
        "socket": f"/ws/projector/{token}/",  # tabletop/routing.py
    }


def projector_context(table: Table, token: str) -> dict:
    """The projector link's page (ruling PJ1): the public view, without links or an account."""
    return live_context(table, PUBLIC, projector_urls(token), mode="public")


def seat_context(seat: Seat, table: Table) -> dict:
    table.campaign = seat.table.campaign  # read with the seat by its token: the links need no query
    seat.table = table
    viewer = hooks.TableViewer("seat", seat.membership_id, guest=seat.is_guest)
    # The phone's "your turn" cue (static/js/live.js) fires when this turns true.
    my_turn = table.status == Table.Status.ACTIVE and seat.index in get_engine(table.game).to_act(table.state)
    # "What would the computer do?" where the GM allows it, on this seat's turn (ruling CO2)
    return live_context(table, seat.index, seat_urls(seat), mode="seat", seat=seat, my_turn=my_turn,
                        coach_offer=my_turn and table.coach,
                        links=page_links(table, viewer),
                        undo_notes=taken_back.seat_notes(table, seat.index, seat_names(table.state)),
                        away=away.note(table, seat.index))
