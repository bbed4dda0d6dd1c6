"""What the army pages share: finding the commander or offer a URL names, and the replies after a post."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from campaign.bounds import OutOfBounds
from campaign.services import InsufficientFunds
from campaign.submissions import SubmissionMissing

from .. import selectors
from ..models import ArmyUnit, Commander, RecruitOffer
from ..services import ArmyError

REFUSALS = (ArmyError, InsufficientFunds, PermissionDenied, OutOfBounds, SubmissionMissing)
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
    messages.info(request, f"Already done: {what} This form was sent before and is applied only once.")
    return redirect("armies:commander", request.campaign.slug, commander.pk)


def _int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
