"""The GM's corrections without the admin: edit, retire or return a commander; dismiss, release or
correct the training of a unit; edit, withdraw or restore an offer. GM only (players 403, others 404)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.permissions import campaign_gm
from campaign.submissions import token_from
from muster.answers import answer
from muster.refusals import Stale

from .. import selectors
from ..forms import commanders as commander_forms
from ..forms import recruiting as recruiting_forms
from ..forms import training as training_forms
from ..models import RecruitOffer
from ..services import commander_edits, recruiting
from ..services.commander_edits import commander_fingerprint
from ..services.training import unit_training_correct
from .common import REFUSING, _already, _commander, _done, _offer, _on_commander, _unit


def _fresh_commander_form(request: HttpRequest, commander) -> commander_forms.CommanderEditForm:
    initial = commander_forms.CommanderEditForm.initial_for(commander, commander_fingerprint(commander))
    return commander_forms.CommanderEditForm(initial=initial, campaign=request.campaign)


@require_http_methods(["GET", "POST"])
@campaign_gm
def commander_edit(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    if request.method != "POST":
        return _commander_edit_page(request, commander, _fresh_commander_form(request, commander))
    form = commander_forms.CommanderEditForm(request.POST, campaign=request.campaign)
    if not form.is_valid():
        return _commander_edit_page(request, commander, form)

    return answer(
        lambda: commander_edits.commander_edit(
            commander=commander, gm=request.user, **form.service_arguments(), submission=form.cleaned_data["submission"]
        ),
        refusing=REFUSING,
        done=lambda edited: _done(request, edited, gettext("%(commander)s is saved.") % {"commander": edited.name}),
        already=lambda _repeat: _already(
            request, commander, gettext("%(commander)s was edited.") % {"commander": commander.name}
        ),
        refused=_pinned_refused(
            request,
            form,
            commander,
            lambda edited: _commander_edit_page(request, commander, edited),
            fresh=lambda: _fresh_commander_form(request, commander),
        ),
    )


def _pinned_refused(request: HttpRequest, form, row, page, *, fresh):
    """The ``refused`` of a pinned edit form: a page out of date (``Stale``) gets the fresh form made from
    ``row`` as it is now, with the sentence on top; another refusal the form again with its sentence."""

    def refused(refusal) -> HttpResponse:
        if isinstance(refusal, Stale):
            messages.error(request, str(refusal))
            row.refresh_from_db()
            return page(fresh())
        form.add_error(None, str(refusal))
        return page(form)

    return refused


def _commander_edit_page(request: HttpRequest, commander, form) -> HttpResponse:
    context = {
        "campaign": request.campaign,
        "commander": commander,
        "form": form,
        "retire_form": commander_forms.RetireForm(),
    }
    return render(request, "armies/commander_edit.html", context)


@require_POST
@campaign_gm
def commander_retire_view(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    form = commander_forms.RetireForm(request.POST)
    return _on_commander(
        request,
        commander,
        form=form,
        change=lambda: commander_edits.commander_retire(
            commander=commander,
            gm=request.user,
            reason=form.cleaned_data["reason"],
            submission=form.cleaned_data["submission"],
        ),
        done=lambda retired: (
            gettext("%(commander)s is retired: kept with its history, out of play.") % {"commander": retired.name}
        ),
        already=lambda _repeat: gettext("%(commander)s was retired.") % {"commander": commander.name},
    )


@require_POST
@campaign_gm
def commander_return_view(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    return _on_commander(
        request,
        commander,
        change=lambda: commander_edits.commander_return(
            commander=commander, gm=request.user, submission=token_from(request.POST)
        ),
        done=lambda returned: gettext("%(commander)s is back in service.") % {"commander": returned.name},
        already=lambda _repeat: gettext("%(commander)s returned to service.") % {"commander": commander.name},
    )


@require_POST
@campaign_gm
def unit_remove(request: HttpRequest, pk: int, unit_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    unit = _unit(commander, unit_id)
    form = commander_forms.UnitRemoveForm(request.POST)

    def removed(_result) -> str:
        names = {"card": unit.card.name, "commander": commander.name}
        if form.cleaned_data["how"] == "dismissed":
            return gettext("%(card)s dismissed from %(commander)s's army.") % names
        return gettext("%(card)s released from %(commander)s's army.") % names

    return _on_commander(
        request,
        commander,
        form=form,
        change=lambda: commander_edits.unit_remove(unit=unit, gm=request.user, **form.cleaned_data),
        done=removed,
        already=lambda _repeat: (
            gettext("%(card)s left %(commander)s's army.") % {"card": unit.card.name, "commander": commander.name}
        ),
    )


@require_POST
@campaign_gm
def unit_training(request: HttpRequest, pk: int, unit_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    unit = _unit(commander, unit_id)
    form = training_forms.TrainingCorrectForm(request.POST)
    return _on_commander(
        request,
        commander,
        form=form,
        change=lambda: unit_training_correct(unit=unit, gm=request.user, **form.cleaned_data),
        done=lambda corrected: (
            (
                gettext("%(card)s are now trained; no coins or items moved.")
                if corrected.trained
                else gettext("%(card)s are now not trained; no coins or items moved.")
            )
            % {"card": corrected.card.name}
        ),
        already=lambda _repeat: gettext("%(card)s's training was corrected.") % {"card": unit.card.name},
    )


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


def _on_offer(request: HttpRequest, offer: RecruitOffer, change, *, done: str, already: str, form=None) -> HttpResponse:
    """A write about ``offer``, answered on its edit page with what it did, ``already`` or the refusal."""
    return answer(
        change,
        form=form,
        refusing=REFUSING,
        done=lambda _offer: _to_offer(request, offer, done),
        already=lambda _repeat: _to_offer(request, offer, already, messages.INFO),
        refused=lambda refusal: _to_offer(request, offer, str(refusal), messages.ERROR),
    )


@require_http_methods(["GET", "POST"])
@campaign_gm
def offer_edit(request: HttpRequest, offer_id: int) -> HttpResponse:
    offer = _offer(request, offer_id)
    if request.method != "POST":
        return _offer_edit_page(request, offer, recruiting_forms.OfferEditForm.fresh(offer))
    form = recruiting_forms.OfferEditForm(request.POST, offer=offer)
    if not form.is_valid():
        return _offer_edit_page(request, offer, form)

    return answer(
        lambda: recruiting.offer_edit(offer=offer, gm=request.user, **form.cleaned_data),
        refusing=REFUSING,
        done=lambda saved: _to_offer(
            request, saved, gettext("The offer of %(card)s is saved.") % {"card": saved.card.name}
        ),
        already=lambda _repeat: _to_offer(
            request, offer, gettext("Already done: this edit was sent before and is applied only once."), messages.INFO
        ),
        refused=_pinned_refused(
            request,
            form,
            offer,
            lambda edited: _offer_edit_page(request, offer, edited),
            fresh=lambda: recruiting_forms.OfferEditForm.fresh(offer),
        ),
    )


def _offer_edit_page(request: HttpRequest, offer: RecruitOffer, form) -> HttpResponse:
    context = {
        "campaign": request.campaign,
        "offer": offer,
        "form": form,
        "withdraw_form": recruiting_forms.WithdrawForm(),
    }
    return render(request, "armies/offer_edit.html", context)


@require_POST
@campaign_gm
def offer_withdraw(request: HttpRequest, offer_id: int) -> HttpResponse:
    offer = _offer(request, offer_id)
    form = recruiting_forms.WithdrawForm(request.POST)
    return _on_offer(
        request,
        offer,
        form=form,
        change=lambda: recruiting.offer_withdraw(offer=offer, gm=request.user, **form.cleaned_data),
        done=gettext("The offer of %(card)s is withdrawn: no longer offered.") % {"card": offer.card.name},
        already=gettext("Already done: the offer was withdrawn by this form."),
    )


@require_POST
@campaign_gm
def offer_restore(request: HttpRequest, offer_id: int) -> HttpResponse:
    offer = _offer(request, offer_id)
    return _on_offer(
        request,
        offer,
        change=lambda: recruiting.offer_restore(offer=offer, gm=request.user, submission=token_from(request.POST)),
        done=gettext("The offer of %(card)s is on offer again.") % {"card": offer.card.name},
        already=gettext("Already done: the offer was restored by this form."),
    )
