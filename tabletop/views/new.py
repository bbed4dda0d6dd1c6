"""The GM opens a table for a game: its form (seats, options, stakes), then the table's page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.permissions import campaign_gm
from muster.answers import answer, on_the_form

from .. import forms
from ..models import Stake, Table
from ..services import stakes
from .answers import ENGINE_REFUSALS


def _table_already_open(request: HttpRequest, table: Table | None) -> HttpResponse:
    """A repeated "new table" post (one-time token): the first post's table, never a second one."""
    if table is None:
        messages.info(request, gettext("Already done: this table was opened by an earlier post of this form."))
        return redirect("campaign:detail", request.campaign.slug)
    if Stake.objects.filter(table=table).exists():
        sentence = gettext("Already done: %(title)s was opened by this form and its entry fees were collected once.")
    else:
        sentence = gettext("Already done: %(title)s was opened by this form.")
    messages.info(request, sentence % {"title": table.shown_title})
    return redirect("tabletop:gm_table", request.campaign.slug, table.pk)


@require_http_methods(["GET", "POST"])
@campaign_gm
def table_new(request: HttpRequest, game: str) -> HttpResponse:
    form_class = forms.TABLE_FORMS.get(game)
    if form_class is None:
        return render(request, "404.html", status=404)
    form = form_class(request.POST or None, campaign=request.campaign)
    if request.method == "POST" and request.htmx and request.POST.get("preview"):
        # the page asks, as the GM edits it, what the form's clean says now: the preview alone, nothing opened
        return render(request, "tabletop/_table_new_preview.html", {"form": form})

    def page() -> HttpResponse:
        return render(request, "tabletop/table_new.html", {"form": form, "game": game, "campaign": request.campaign})

    if request.method != "POST" or not form.is_valid():
        return page()

    return answer(
        lambda: stakes.table_open_with_stakes(
            campaign=request.campaign,
            game=game,
            title=form.cleaned_data["title"],
            seats=form.seat_specs(),
            config=form.engine_config(),
            stakes=form.stake_terms(),
            created_by=request.user,
            submission=form.cleaned_data["submission"],
        ),
        refusing=ENGINE_REFUSALS,
        done=lambda table: redirect("tabletop:gm_table", request.campaign.slug, table.pk),
        already=lambda repeat: _table_already_open(request, repeat.result),
        refused=on_the_form(form, page),
    )
