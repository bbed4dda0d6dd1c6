"""The GM abandons an unfinished table (services/abandon.py): a confirm page, then the post.

``GET /c/<slug>/tables/<pk>/abandon/`` shows what will happen (each staked seat's refund;
for a battle, the choice between releasing the units and keeping the result so far), a
reason field and the version the GM saw; ``POST`` abandons. GM only (players 403, others 404).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.permissions import campaign_gm
from muster.answers import answer, said

from .. import hooks, selectors
from ..forms import KEEP, AbandonForm
from ..models import Table
from ..services import abandon
from ..services.tables import StaleVersion
from .answers import ENGINE_REFUSALS, private


def _page(table: Table):
    return redirect("tabletop:gm_table", table.campaign.slug, table.pk)


def _abandoned_before(request: HttpRequest, table: Table) -> HttpResponse:
    sentence = gettext("Already abandoned: %(title)s was abandoned before; nothing more was done.")
    messages.info(request, sentence % {"title": table.shown_title})
    return _page(table)


def _done_sentence(table: Table) -> str:
    refunds = abandon.pot_by_account(table)  # 0 left in the pot after the refunds
    staked = table.seats.filter(stake_account__isnull=False).count()
    if staked and not refunds:
        return gettext("%(title)s was abandoned. Every entry fee was refunded.") % {"title": table.shown_title}
    return gettext("%(title)s was abandoned.") % {"title": table.shown_title}


@require_http_methods(["GET", "POST"])
@private
@campaign_gm
def table_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    if table.status == Table.Status.ABANDONED:
        return _abandoned_before(request, table)
    if table.status != Table.Status.ACTIVE:
        messages.error(
            request,
            gettext("%(title)s is finished: a finished table cannot be abandoned.") % {"title": table.shown_title},
        )
        return _page(table)
    can_keep = hooks.can_keep_result(table.game) and not table.what_if  # a what-if keeps nothing (services/forks.py)
    form = AbandonForm(request.POST or None, can_keep_result=can_keep, initial={"version": table.version})
    if request.method != "POST" or not form.is_valid():
        return _confirm_page(request, table, form, can_keep)

    def refused(refusal) -> HttpResponse:
        if isinstance(refusal, abandon.AlreadyAbandoned):
            return _abandoned_before(request, table)
        if isinstance(refusal, StaleVersion):
            # the fresh page: what the table is now, the reason kept, the sentence on top
            data = request.POST.copy()
            data["version"] = refusal.table.version
            fresh = AbandonForm(data, can_keep_result=can_keep)
            fresh.is_valid()
            fresh.add_error(None, said(refusal))
            return _confirm_page(request, refusal.table, fresh, can_keep)
        form.add_error(None, said(refusal))
        return _confirm_page(request, table, form, can_keep)

    def done(_result) -> HttpResponse:
        messages.success(request, _done_sentence(table))
        return _page(table)

    return answer(
        lambda: abandon.table_abandon(
            table_id=table.pk,
            version=form.cleaned_data["version"],
            gm=request.user,
            reason=form.cleaned_data["reason"],
            keep_result=form.cleaned_data.get("outcome") == KEEP,
            submission=form.cleaned_data["submission"],
        ),
        refusing=ENGINE_REFUSALS,
        done=done,
        already=lambda _repeat: _abandoned_before(request, table),
        refused=refused,
    )


def _confirm_page(request: HttpRequest, table: Table, form: AbandonForm, can_keep: bool) -> HttpResponse:
    """What abandoning will do (each staked seat's refund), the reason and the version the GM saw."""
    refunds = {row["seat"].pk: row for row in abandon.refunds_planned(table)}
    seats = [
        {"seat": seat, "refund": refunds.get(seat.pk)}
        for seat in table.seats.select_related("membership__user").order_by("index")
    ]
    return render(
        request,
        "tabletop/table_abandon.html",
        {"table": table, "form": form, "seats": seats, "campaign": request.campaign,
         "staked": bool(refunds), "can_keep": can_keep},
    )
