"""A player's commanders (roster, treasury, offers, training) and the GM's army overview."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.permissions import campaign_gm, campaign_member
from campaign.services import InsufficientFunds, ledger_adjust
from campaign.submissions import AlreadyDone, token_from

from .. import forms, reports, selectors
from ..history import commander_history
from ..models import DayEnd
from ..selectors import battles as battle_selectors
from ..selectors import luck
from ..services import ArmyError
from ..services.commanders import commander_create, commander_update_items
from ..services.recruiting import coins, offer_post, quest_grant, recruit_buy, unit_catalog_start
from ..services.training import unit_train
from ..services.upkeep import day_end_preview
from .common import REFUSALS, _already, _commander, _day_param, _done, _offer, _refused, _unit

logger = logging.getLogger(__name__)


@require_GET
@campaign_member
def army_list(request: HttpRequest) -> HttpResponse:
    campaign = request.campaign
    commanders = reports.commander_summaries(request.membership)
    context = {"campaign": campaign, "commanders": commanders}
    if request.membership.is_gm:
        context.update(
            preview=day_end_preview(campaign=campaign, day=campaign.current_day),
            day_end=DayEnd.objects.filter(campaign=campaign, day=campaign.current_day).first(),
            history=reports.settlement_history(campaign),
            chart=reports.treasury_chart(campaign),
            offers=selectors.offers_open(campaign.pk, campaign.current_day),
            offer_form=forms.OfferForm(),
            unit_catalog_empty=selectors.unit_catalog_empty(),
            battles=battle_selectors.campaign_battles(campaign.pk),
            luck_tallies=luck.campaign_report(campaign.pk),
        )
        return render(request, "armies/gm_armies.html", context)
    return render(request, "armies/my_commanders.html", context)


@require_GET
@campaign_member
def commander_detail(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    campaign = request.campaign
    day = _day_param(request, campaign.current_day)
    lines = selectors.roster_on_day(commander, day) if day else selectors.roster(commander)
    context = {
        "campaign": campaign,
        "commander": commander,
        "roster": lines,
        "roster_day": day,
        "days": range(campaign.current_day, 0, -1),
        "treasury": selectors.treasury(commander.account),
        "offers": selectors.offers_affordable(commander),
        "training": selectors.training_options(commander),
        "upkeep_today": sum(line.upkeep for line in lines),
        "is_gm": request.membership.is_gm,
        "battles": battle_selectors.commander_battles(commander, request.membership),
        "luck": luck.commander_report(commander),
        "history": commander_history(commander, slug=campaign.slug, viewer_is_gm=request.membership.is_gm),
    }
    if request.membership.is_gm:
        context["adjust_form"] = forms.AdjustForm()
        context["items_form"] = forms.ItemsForm(
            initial={name: getattr(commander, name) for name in ("weapons", "shields", "alchemy", "build_points")}
        )
        context["quests"] = selectors.offers_open(campaign.pk, campaign.current_day).exclude(quest="")
    return render(request, "armies/commander.html", context)


@require_POST
@campaign_member
def buy(request: HttpRequest, pk: int, offer_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    offer = _offer(request, offer_id)
    form = forms.BuyForm(request.POST)
    if not form.is_valid():
        return _refused(request, commander, ArmyError(form.error_sentence()))
    price = form.cleaned_data["price"]  # what the page showed: charged as it is, or refused (ruling E14)
    try:
        unit = recruit_buy(
            offer=offer,
            commander=commander,
            day=request.campaign.current_day,
            bought_by=request.user,
            price=price,
            submission=form.cleaned_data["submission"],
        )
    except AlreadyDone:
        return _already(request, commander, f"{offer.card.name} joined {commander.name}'s army.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    cost = "for free" if price == 0 else f"for {coins(price)}"
    return _done(request, commander, f"{unit.card.name} joined {commander.name}'s army {cost}.")


@require_POST
@campaign_member
def train(request: HttpRequest, pk: int, unit_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    unit = _unit(commander, unit_id)
    form = forms.TrainForm(request.POST)
    if not form.is_valid():
        return _refused(request, commander, ArmyError(form.error_sentence()))
    try:
        unit_train(unit=unit, day=request.campaign.current_day, trained_by=request.user, **form.cleaned_data)
    except AlreadyDone:
        return _already(request, commander, f"{unit.card.name} were trained.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    return _done(request, commander, f"{unit.card.name} are trained: +1 Strength for good.")


@require_POST
@campaign_gm
def adjust(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    form = forms.AdjustForm(request.POST)
    if not form.is_valid():
        return _refused(request, commander, ArmyError(form.error_sentence()))
    try:
        entry = ledger_adjust(account=commander.account, gm=request.user, **form.cleaned_data)
    except AlreadyDone as done:
        first = f"{done.result.amount:+} was posted to {commander.name}'s treasury." if done.result else ""
        return _already(request, commander, first or "the adjustment was posted.")
    except (ValueError, InsufficientFunds) as refusal:
        return _refused(request, commander, refusal)
    return _done(request, commander, f"Posted {entry.amount:+} to {commander.name}'s treasury.")


@require_POST
@campaign_gm
def grant(request: HttpRequest, pk: int, offer_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    offer = _offer(request, offer_id)
    try:
        unit = quest_grant(
            offer=offer,
            commander=commander,
            day=request.campaign.current_day,
            gm=request.user,
            submission=token_from(request.POST),
        )
    except AlreadyDone:
        return _already(request, commander, f"{offer.card.name} was granted to {commander.name}.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    return _done(request, commander, f"{unit.card.name} joined {commander.name}'s army: quest done.")


@require_http_methods(["GET", "POST"])
@campaign_gm
def commander_new(request: HttpRequest) -> HttpResponse:
    form = forms.CommanderForm(request.POST or None, campaign=request.campaign)
    if request.method == "POST" and form.is_valid():
        try:
            commander = commander_create(campaign=request.campaign, created_by=request.user, **form.cleaned_data)
        except AlreadyDone as done:
            if done.result is None:
                messages.info(request, "Already done: this commander was created by an earlier post of this form.")
                return redirect("armies:list", request.campaign.slug)
            return _already(request, done.result, f"{done.result.name} was created by this form.")
        except REFUSALS as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, f"{commander.name} now commands an army (with no units yet).")
            return redirect("armies:commander", request.campaign.slug, commander.pk)
    return render(request, "armies/commander_new.html", {"campaign": request.campaign, "form": form})


@require_POST
@campaign_gm
def items(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    form = forms.ItemsForm(request.POST)
    if not form.is_valid():
        return _refused(request, commander, ArmyError(form.error_sentence()))
    try:
        commander_update_items(commander=commander, gm=request.user, **form.cleaned_data)
    except AlreadyDone:
        return _already(request, commander, f"{commander.name}'s items and build points were updated.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    return _done(request, commander, f"{commander.name}'s items and build points are updated.")


@require_POST
@campaign_gm
def unit_catalog_start_view(request: HttpRequest) -> HttpResponse:
    """The GM fills an empty unit catalog with Muster's starter units (ruling AC2), then posts offers."""
    try:
        created = unit_catalog_start(campaign=request.campaign, gm=request.user)
    except REFUSALS as refusal:
        messages.error(request, str(refusal))
    else:
        units = f"{created} starter unit{' is' if created == 1 else 's are'}"
        messages.success(request, f"{units} in the catalog: post offers of them below.")
    return redirect(reverse("armies:list", args=[request.campaign.slug]) + "#offers")


@require_POST
@campaign_gm
def offer_new(request: HttpRequest) -> HttpResponse:
    form = forms.OfferForm(request.POST)
    if form.is_valid():
        try:
            offer = offer_post(campaign=request.campaign, posted_by=request.user, **form.cleaned_data)
        except AlreadyDone as done:
            posted = f" {done.result.quantity} × {done.result.card.name} is on offer." if done.result else ""
            messages.info(request, f"Already done: this offer was posted before and is posted only once.{posted}")
        except REFUSALS as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, f"Offer posted: {offer.quantity} × {offer.card.name}.")
    else:
        messages.error(request, form.error_sentence())
    return redirect("armies:list", request.campaign.slug)
