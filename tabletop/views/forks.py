"""The GM forks a table into a what-if (services/forks.py): the log with a "What if…" control per entry,
and the post that forks.

``GET /c/<slug>/tables/<pk>/what-if/`` lists the table's log entries, newest first, each with a small
form that forks at it, and the what-ifs already forked from the table; an htmx request gets only the
list (the GM table page loads it when the GM opens its "What if…" box). ``POST .../what-if/fork/``
forks at the posted version, once per one-time token (ruling WI5), and redirects to the fork's GM
page. GM only (players 403, others 404).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaign.permissions import campaign_gm
from campaign.submissions import AlreadyDone

from .. import selectors
from ..engines.kernel import GM, IllegalAction
from ..forms import ForkForm
from ..models import Table, TableAction
from ..services import forks
from .answers import private

# The newest entries a page lists: a long game's log is fetched whole by "Download log".
SHOWN_ENTRIES = 200


def _entries(table: Table) -> list[dict]:
    """The log's entries, newest first, as the list shows them: number, who, what (never a card: the
    action's type and seat only; the GM sees all anyway), and whether an undo took it back."""
    rows = (
        TableAction.objects.filter(table=table)
        .order_by("-seq")
        .values("seq", "kind", "seat", "action", "undoes__seq", "undone_by__seq")[:SHOWN_ENTRIES]
    )
    seat_names = {str(seat.index): seat.name for seat in table.seats.select_related("membership__user")}
    entries = []
    for row in rows:
        if row["kind"] == TableAction.Kind.UNDO:
            what, who = f"Undo of move {row['undoes__seq']}", "GM"
        else:
            what = str((row["action"] or {}).get("type", "action")).replace("_", " ")
            who = "GM" if row["seat"] == GM else seat_names.get(row["seat"], f"Seat {row['seat']}")
        entries.append({"seq": row["seq"], "what": what, "who": who, "undone": row["undone_by__seq"]})
    return entries


def _context(request: HttpRequest, table: Table, **extra) -> dict:
    return {
        "table": table,
        "campaign": request.campaign,
        "entries": _entries(table),
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
        return _refuse(request, table, error or "Choose the move to fork at.")
    version = form.cleaned_data["version"]
    try:
        fork = forks.table_fork(
            table_id=table.pk, version=version, user=request.user, submission=form.cleaned_data["submission"]
        )
    except AlreadyDone as done:
        if done.result is None:
            messages.info(request, "Already done: this what-if was forked by an earlier post of this form.")
            return redirect("tabletop:table_whatif", request.campaign.slug, table.pk)
        messages.info(request, f"Already done: {done.result.title} was forked by this form; here it is.")
        return redirect("tabletop:gm_table", request.campaign.slug, done.result.pk)
    except (IllegalAction, ValueError) as refusal:
        return _refuse(request, table, str(refusal))
    messages.success(
        request, f"{fork.title}: a what-if of {table.title} at move {version}. Nothing played here counts."
    )
    return redirect("tabletop:gm_table", request.campaign.slug, fork.pk)


def _refuse(request: HttpRequest, table: Table, sentence: str) -> HttpResponse:
    """The what-if page as it is now with the refusal's sentence: nothing was made."""
    return render(request, "tabletop/table_whatif.html", _context(request, table, error=sentence), status=400)
