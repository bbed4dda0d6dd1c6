"""What the army pages share: finding the commander or offer a URL names, and the replies after a post
(``_on_commander``: every write about a commander answers through ``muster.answers.answer``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext

from campaign.submissions import AlreadyDone
from muster.answers import answer

from .. import selectors
from ..models import ArmyUnit, Commander, RecruitOffer

# A service's PermissionDenied (a player's commander retired meanwhile, a GM made a player) is said on the
# page as a sentence on the army pages, as it always was.
REFUSING = (PermissionDenied,)
logger = logging.getLogger(__name__)


def _commander(request: HttpRequest, pk: int) -> Commander:
    """The commander ``pk`` if the member may see it: their own PC, or any for the GM; else 404."""
    commander = selectors.commanders_for(request.membership).filter(pk=pk).first()
    if commander is None:
        raise Http404("No such commander.")
    return commander


def _unit(commander: Commander, unit_id: int) -> ArmyUnit:
    """The commander's unit ``unit_id`` (with its card), or 404."""
    unit = ArmyUnit.objects.filter(commander=commander, pk=unit_id).select_related("card").first()
    if unit is None:
        raise Http404("No such unit.")
    return unit


def _offer(request: HttpRequest, offer_id: int) -> RecruitOffer:
    offer = RecruitOffer.objects.filter(campaign=request.campaign, pk=offer_id).select_related("card").first()
    if offer is None:
        raise Http404("No such offer.")
    return offer


def _day_param(request: HttpRequest, current: int) -> int | None:
    try:
        day = int(request.GET["day"])
    except (KeyError, ValueError):
        return None
    return day if 1 <= day <= current else None


def _done(request: HttpRequest, commander: Commander, message: str) -> HttpResponse:
    messages.success(request, message)
    return redirect("armies:commander", request.campaign.slug, commander.pk)


def _refused(request: HttpRequest, commander: Commander, error: Exception) -> HttpResponse:
    messages.error(request, str(error))
    return redirect("armies:commander", request.campaign.slug, commander.pk)


def _already(request: HttpRequest, commander: Commander, what: str) -> HttpResponse:
    """A repeated one-time token: nothing new happened; say what the first post did."""
    messages.info(
        request, gettext("Already done: %(what)s This form was sent before and is applied only once.") % {"what": what}
    )
    return redirect("armies:commander", request.campaign.slug, commander.pk)


def _on_commander(
    request: HttpRequest,
    commander: Commander,
    change: Callable[[], Any],
    *,
    done: Callable[[Any], str],
    already: Callable[[AlreadyDone], str],
    form=None,
    refusing: tuple[type[Exception], ...] = REFUSING,
) -> HttpResponse:
    """A write about ``commander``, answered on its page: ``done(result)`` said, "Already done: ``already(repeat)``"
    for a repeated form, or the refusal's sentence (a ``form`` that does not validate: its errors)."""
    return answer(
        change,
        form=form,
        refusing=refusing,
        done=lambda result: _done(request, commander, done(result)),
        already=lambda repeat: _already(request, commander, already(repeat)),
        refused=lambda refusal: _refused(request, commander, refusal),
    )


def _int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
