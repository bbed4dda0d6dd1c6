"""The GM's corrections without the admin: edit, retire or return a commander; dismiss, release or
correct the training of a unit; edit, withdraw or restore an offer. GM only (players 403, others 404)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.permissions import campaign_gm
from campaign.submissions import AlreadyDone, token_from

from .. import edit_forms, selectors
from ..models import RecruitOffer
from ..services import ArmyError, StaleForm, commander_edits, recruiting
from ..services.commander_edits import StaleEdit, commander_fingerprint
from ..services.training import unit_training_correct
from .common import REFUSALS, _already, _commander, _done, _offer, _refused, _unit


def _fresh_commander_form(request: HttpRequest, commander) -> edit_forms.CommanderEditForm:
    initial = edit_forms.CommanderEditForm.initial_for(commander, commander_fingerprint(commander))
    return edit_forms.CommanderEditForm(initial=initial, campaign=request.campaign)


@require_http_methods(["GET", "POST"])
@campaign_gm
def commander_edit(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    if request.method == "POST":
        form = edit_forms.CommanderEditForm(request.POST, campaign=request.campaign)
        if form.is_valid():
            try:
                commander = commander_edits.commander_edit(
                    commander=commander, gm=request.user, **form.service_arguments(),
                    submission=form.cleaned_data["submission"],
                )
            except AlreadyDone:
                return _already(request, commander, f"{commander.name} was edited.")
            except StaleEdit as stale:
                messages.error(request, str(stale))
                commander.refresh_from_db()
                form = _fresh_commander_form(request, commander)
            except REFUSALS as refusal:
                form.add_error(None, str(refusal))
            else:
                return _done(request, commander, f"{commander.name} is saved.")
    else:
        form = _fresh_commander_form(request, commander)
    context = {
        "campaign": request.campaign,
        "commander": commander,
        "form": form,
        "retire_form": edit_forms.RetireForm(),
    }
    return render(request, "armies/commander_edit.html", context)


@require_POST
@campaign_gm
def commander_retire_view(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    form = edit_forms.RetireForm(request.POST)
    if not form.is_valid():
        return _refused(request, commander, ArmyError(form.error_sentence()))
    try:
        commander = commander_edits.commander_retire(
            commander=commander, gm=request.user, reason=form.cleaned_data["reason"],
            submission=form.cleaned_data["submission"],
        )
    except AlreadyDone:
        return _already(request, commander, f"{commander.name} was retired.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    return _done(request, commander, f"{commander.name} is retired: kept with its history, out of play.")


@require_POST
@campaign_gm
def commander_return_view(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    try:
        token = token_from(request.POST)
        commander = commander_edits.commander_return(commander=commander, gm=request.user, submission=token)
    except AlreadyDone:
        return _already(request, commander, f"{commander.name} returned to service.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    return _done(request, commander, f"{commander.name} is back in service.")


@require_POST
@campaign_gm
def unit_remove(request: HttpRequest, pk: int, unit_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    unit = _unit(commander, unit_id)
    form = edit_forms.UnitRemoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, commander, ArmyError(form.error_sentence()))
    data = form.cleaned_data
    try:
        commander_edits.unit_remove(
            unit=unit, gm=request.user, how=data["how"], reason=data["reason"], submission=data["submission"]
        )
    except AlreadyDone:
        return _already(request, commander, f"{unit.card.name} left {commander.name}'s army.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    verb = "dismissed" if data["how"] == "dismissed" else "released"
    return _done(request, commander, f"{unit.card.name} {verb} from {commander.name}'s army.")


@require_POST
@campaign_gm
def unit_training(request: HttpRequest, pk: int, unit_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    unit = _unit(commander, unit_id)
    form = edit_forms.TrainingCorrectForm(request.POST)
    if not form.is_valid():
        return _refused(request, commander, ArmyError(form.error_sentence()))
    data = form.cleaned_data
    try:
        unit = unit_training_correct(
            unit=unit, gm=request.user, trained=data["trained"], reason=data["reason"], submission=data["submission"]
        )
    except AlreadyDone:
        return _already(request, commander, f"{unit.card.name}'s training was corrected.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    now = "trained" if unit.trained else "not trained"
    return _done(request, commander, f"{unit.card.name} are now {now}; no coins or items moved.")


@require_GET
@campaign_gm
def offer_list(request: HttpRequest) -> HttpResponse:
    campaign = request.campaign
    offers = selectors.offers_all(campaign.pk)
    context = {"campaign": campaign, "offers": offers, "day": campaign.current_day}
    return render(request, "armies/offer_list.html", context)


def _to_offer(request: HttpRequest, offer: RecruitOffer, message: str, level=messages.SUCCESS) -> HttpResponse:
    messages.add_message(request, level, message)
    return redirect("armies:offer_edit", request.campaign.slug, offer.pk)


@require_http_methods(["GET", "POST"])
@campaign_gm
def offer_edit(request: HttpRequest, offer_id: int) -> HttpResponse:
    offer = _offer(request, offer_id)
    if request.method == "POST":
        form = edit_forms.OfferEditForm(request.POST, offer=offer)
        if form.is_valid():
            data = dict(form.cleaned_data)
            token = data.pop("submission")
            try:
                offer = recruiting.offer_edit(offer=offer, gm=request.user, submission=token, **data)
            except AlreadyDone:
                return _to_offer(request, offer, "Already done: this edit was sent before and is applied only once.",
                                 messages.INFO)
            except StaleForm as stale:
                messages.error(request, str(stale))
                offer.refresh_from_db()
                form = edit_forms.OfferEditForm.fresh(offer)
            except REFUSALS as refusal:
                form.add_error(None, str(refusal))
            else:
                return _to_offer(request, offer, f"The offer of {offer.card.name} is saved.")
    else:
        form = edit_forms.OfferEditForm.fresh(offer)
    context = {
        "campaign": request.campaign,
        "offer": offer,
        "form": form,
        "withdraw_form": edit_forms.WithdrawForm(),
    }
    return render(request, "armies/offer_edit.html", context)


@require_POST
@campaign_gm
def offer_withdraw(request: HttpRequest, offer_id: int) -> HttpResponse:
    offer = _offer(request, offer_id)
    form = edit_forms.WithdrawForm(request.POST)
    if not form.is_valid():
        return _to_offer(request, offer, form.error_sentence(), messages.ERROR)
    try:
        recruiting.offer_withdraw(
            offer=offer, gm=request.user, reason=form.cleaned_data["reason"],
            submission=form.cleaned_data["submission"],
        )
    except AlreadyDone:
        return _to_offer(request, offer, "Already done: the offer was withdrawn by this form.", messages.INFO)
    except REFUSALS as refusal:
        return _to_offer(request, offer, str(refusal), messages.ERROR)
    return _to_offer(request, offer, f"The offer of {offer.card.name} is withdrawn: no longer offered.")


@require_POST
@campaign_gm
def offer_restore(request: HttpRequest, offer_id: int) -> HttpResponse:
    offer = _offer(request, offer_id)
    try:
        recruiting.offer_restore(offer=offer, gm=request.user, submission=token_from(request.POST))
    except AlreadyDone:
        return _to_offer(request, offer, "Already done: the offer was restored by this form.", messages.INFO)
    except REFUSALS as refusal:
        return _to_offer(request, offer, str(refusal), messages.ERROR)
    return _to_offer(request, offer, f"The offer of {offer.card.name} is on offer again.")
