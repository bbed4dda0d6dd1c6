"""The GM forks a table into a what-if (services/forks.py): the log with a "What if…" control per entry,
and the post that forks.

``GET /c/<slug>/tables/<pk>/what-if/`` lists the table's log entries, newest first, each named as the
GM saw it (ruling WI11) with a small form that forks at it for the GM alone or for the same players
(ruling WI10), and the what-ifs already forked from the table; an htmx request gets only the
list (the GM table page loads it when the GM opens its "What if…" box). ``POST .../what-if/fork/``
forks at the posted version, once per one-time token (ruling WI5), and redirects to the fork's GM
page. GM only (players 403, others 404).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from campaign.permissions import campaign_gm
from muster.answers import answer, flash, said
from muster.refusals import AlreadyDone

from .. import selectors
from ..forms import ForkForm
from ..models import Table
from ..services import forks
from .answers import ENGINE_REFUSALS, private


def _entries(table: Table) -> tuple[list[dict], int]:
    """The log's newest entries, newest first, each action named as the GM saw it (services/forks.py),
    and how many it has."""
    seat_names = {str(seat.index): seat.name for seat in table.seats.select_related("membership__user")}
    return forks.log_entries(table, seat_names)


def _log(table: Table) -> dict:
    """The listed entries, the newest move (the highest a typed move may be) and whether older ones are left out."""
    entries, total = _entries(table)
    return {"entries": entries, "last_move": entries[0]["seq"] if entries else 0, "more": total > len(entries)}


def _context(request: HttpRequest, table: Table, **extra) -> dict:
    return {
        "table": table,
        "campaign": request.campaign,
        **_log(table),
        "forks": forks.forks_of(table),
        "origin": forks.fork_origin(table) if table.what_if else None,
        **extra,
    }


@require_GET
@private
@campaign_gm
def table_whatif(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    template = "tabletop/table_whatif.html#log" if request.htmx else "tabletop/table_whatif.html"
    return render(request, template, _context(request, table))


@require_POST
@private
@campaign_gm
def table_fork(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    form = ForkForm(request.POST)
    if not form.is_valid():
        error = " ".join(str(message) for messages_ in form.errors.values() for message in messages_)
        return _refuse(request, table, error or gettext("Choose the move to fork at."))
    version = form.cleaned_data["version"]
    players = form.cleaned_data["who"] == ForkForm.PLAYERS

    def forked_before(repeat: AlreadyDone) -> HttpResponse:
        if repeat.result is None:
            words = gettext("Already done: this what-if was forked by an earlier post of this form.")
            return flash(request, messages.INFO, words, "tabletop:table_whatif", request.campaign.slug, table.pk)
        words = gettext("Already done: %(title)s was forked by this form; here it is.")
        words %= {"title": repeat.result.shown_title}
        return flash(request, messages.INFO, words, "tabletop:gm_table", request.campaign.slug, repeat.result.pk)

    def forked(fork) -> HttpResponse:
        if players:
            words = gettext(
                "%(fork)s: a what-if of %(title)s at move %(move)s. The same players play it: the cards nobody at "
                "the table could see were dealt anew. Nothing played here counts."
            )
        else:
            words = gettext(
                "%(fork)s: a what-if of %(title)s at move %(move)s. Only you play it, on this page: the real deal, "
                "no seat links. Nothing played here counts."
            )
        messages.success(request, words % {"fork": fork.shown_title, "title": table.shown_title, "move": version})
        return redirect("tabletop:gm_table", request.campaign.slug, fork.pk)

    return answer(
        lambda: forks.table_fork(
            table_id=table.pk,
            version=version,
            user=request.user,
            players=players,
            submission=form.cleaned_data["submission"],
        ),
        refusing=ENGINE_REFUSALS,
        done=forked,
        already=forked_before,
        refused=lambda refusal: _refuse(request, table, said(refusal)),
    )


def _refuse(request: HttpRequest, table: Table, sentence: str) -> HttpResponse:
    """The what-if page as it is now with the refusal's sentence: nothing was made."""
    return render(request, "tabletop/table_whatif.html", _context(request, table, error=sentence), status=400)
