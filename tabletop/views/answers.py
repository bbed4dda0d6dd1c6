"""How every table view answers: the live region (htmx) or the whole page, a poll's 204, and ``write``,
the table's use of the one refusal helper (``muster.answers.answer``): a service's refusal, or an engine's
``IllegalAction`` (the engines import no Django, so the helper maps it), becomes a sentence in the page.

A write's push (tabletop/push.py) comes after its answer: the region the writer's request renders is the
one its viewer's other devices are pushed (the same seat on a second phone, the GM's second tablet), so
no viewer is rendered twice for one change, and the writer never waits for the other screens."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control

from muster.answers import answer, said, status_of

from .. import push, selectors, viewers
from ..engines.kernel import IllegalAction, PickRefused
from ..models import Table
from ..services.tables import StaleVersion

# What a table's write refuses with besides a ``Refusal``: the engines' own refusal (a move the rules forbid).
# A config the engines' setup refuses comes as a ``Refusal`` too (``services.tables.SetupRefused``).
ENGINE_REFUSALS = (IllegalAction,)

# Seat and GM pages, fragments and logs hold hands: no browser cache, proxy or back button keeps them.
private = cache_control(private=True, no_store=True)

ContextFor = Callable[[Table], dict]


def render_live(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    template = push.TABLE_REGION if request.htmx else "tabletop/table.html"
    return render(request, template, context, status=status)


def refuse(request: HttpRequest, context: dict, message: str, status: int) -> HttpResponse:
    """The table as it is now with the refusal's sentence in it: the live region for htmx, else the
    whole styled page (the sentence once, in the live region, not also as a message)."""
    context["error"] = message
    return render_live(request, context, status=status)


def fresh(table: Table) -> Table:
    return selectors.table_for_page(table.pk)


def write(request: HttpRequest, table: Table, context_for: ContextFor, change: Callable[[], Table], page: str):
    """Run ``change()`` (a service call returning the table after it) and answer with the page as it is
    now. A stale post gets 409 with the fresh table; a refusal 400 with its sentence (a refused pick also
    says which cards to keep picked); a plain form post is redirected to ``page``.

    ``table`` may be a light instance (no state): the service loads and locks its own.
    """
    with viewers.deferred() as moved:
        return answer(
            change,
            refusing=ENGINE_REFUSALS,
            done=lambda changed: _written(request, changed, context_for, page, moved),
            refused=lambda refusal: _refused(request, table, context_for, refusal),
        )


def _refused(request: HttpRequest, table: Table, context_for: ContextFor, refusal: Exception) -> HttpResponse:
    if isinstance(refusal, StaleVersion):
        return refuse(request, context_for(refusal.table), said(refusal), status_of(refusal))
    offer = refusal.offer if isinstance(refusal, PickRefused) else None
    return refuse(request, {**context_for(fresh(table)), "offer": offer}, said(refusal), status_of(refusal))


def _written(request: HttpRequest, table: Table, context_for: ContextFor, page: str, moved: list[int]) -> HttpResponse:
    """The change is made: the writer's answer is rendered, then every table the change moved (``moved``,
    collected by ``viewers.deferred``) is pushed, after the answer where the process is served: the
    writer's render goes along, for its viewer's other devices, and so does the table it was rendered from
    (the push thread renders the others from it rather than read it again, when it may: tabletop/push.py)."""
    known: push.Known = {}
    saved = None
    try:
        context = context_for(table)
        html = push.shared_render(push.TABLE_REGION, context)
        known[viewers.in_language(_viewer(request, context), get_language())] = (viewers.table_key(table), html)
        saved = table
    finally:  # the other pages must not miss the change, whatever became of the answer
        for table_id in moved:
            if table_id == table.pk:
                push.push_soon(table_id, known, saved)
            else:
                push.push_soon(table_id)
    if not request.htmx:
        return redirect(page)
    return HttpResponse(push.for_request(html, request))


def _viewer(request: HttpRequest, context: dict) -> str:
    """Whose region a write answers with (tabletop/viewers.py's viewer names): a seat's, else the GM's."""
    if context["mode"] == "seat":
        return viewers.seat_viewer(context["seat"].index, context["seat"].token)
    return viewers.gm_viewer(request.membership.pk)


def poll(request: HttpRequest, light_table: Table, context_for: ContextFor) -> HttpResponse:
    """204 while the version is unchanged: the table was loaded without its state, nothing renders."""
    if request.GET.get("v") == viewers.table_key(light_table):
        return HttpResponse(status=204)
    return render(request, push.TABLE_REGION, context_for(selectors.table_for_page(light_table.pk)))


def log_download(table: Table) -> JsonResponse:
    response = JsonResponse(selectors.table_log(table), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="muster-{table.game}-table-{table.pk}.json"'
    return response
