"""The public view of a table: what every member may see of it (no hand, no choices), and the projector
link's full-screen page of the same view for a screen at the venue, opened without an account (issue 25,
ruling PJ1); the GM makes, replaces and revokes that link."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.log import log_response
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from campaign.permissions import campaign_gm, campaign_member
from muster import languages
from muster.answers import answer, said, status_of
from muster.request_log import without_secrets

from .. import presenters, selectors, viewers
from ..models import Table
from ..services import projector
from .answers import ENGINE_REFUSALS, poll, private, refuse


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


# --- the projector link ---------------------------------------------------------------------------


def _refused(request: HttpRequest, refusal: Http404) -> HttpResponse:
    """The refusal's sentence in a page of its own (in the reader's language), logged as one refusal line
    without the token (in English)."""
    response = render(request, "tabletop/projector_refused.html", {"refusal": gettext(str(refusal))}, status=404)
    log_response("Not Found: %s", without_secrets(request.path), response=response, request=request,
                 exception=refusal)
    return response


@require_GET
@private
def projector_table(request: HttpRequest, token: str) -> HttpResponse:
    try:
        table = selectors.table_by_projector_token(token)
    except Http404 as refusal:
        return _refused(request, refusal)
    languages.use_campaign_language(request, table.campaign.language)
    return render(request, "tabletop/projector.html", presenters.projector_context(table, token))


@require_GET
@private
def projector_poll(request: HttpRequest, token: str) -> HttpResponse:
    """204 while the table's key is unchanged; a page whose link was revoked or replaced reloads (and
    then shows the refusal)."""
    try:
        light = selectors.table_by_projector_token(token, light=True)
    except Http404 as refusal:
        return HttpResponseClientRefresh() if request.htmx else _refused(request, refusal)
    languages.use_campaign_language(request, light.campaign.language)
    if request.GET.get("v") == viewers.table_key(light):
        return HttpResponse(status=204)
    table = selectors.table_for_page(light.pk)
    return render(request, "tabletop/projector.html#live", presenters.projector_context(table, token))


def _gm_table_page(request: HttpRequest, table: Table) -> str:
    return reverse("tabletop:gm_table", args=[request.campaign.slug, table.pk]) + "#projector"


def _projector_refused(request: HttpRequest, table: Table, refusal: Exception) -> HttpResponse:
    table = selectors.table_for_campaign(request.campaign, table.pk)
    context = presenters.gm_context(request, table)
    context["join_links"] = presenters.join_links(request, table)
    return refuse(request, context, said(refusal), status_of(refusal))


@require_POST
@private
@campaign_gm
def projector_issue(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM makes the table's projector link, or a new one in place of the link the form showed."""
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    return answer(
        lambda: projector.projector_issue(
            table_id=table.pk, replacing=request.POST.get("replacing", "")[:64], user=request.user
        ),
        refusing=ENGINE_REFUSALS,
        done=lambda _link: redirect(_gm_table_page(request, table)),
        refused=lambda refusal: _projector_refused(request, table, refusal),
    )


@require_POST
@private
@campaign_gm
def projector_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM revokes the link the form showed: every screen that shows it gets the refusal."""
    table = selectors.table_for_campaign(request.campaign, pk, light=True)
    projector.projector_revoke(table_id=table.pk, token=request.POST.get("token", "")[:64])
    return redirect(_gm_table_page(request, table))
