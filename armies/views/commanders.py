"""A player's commanders (roster, treasury, offers, training) and the GM's army overview."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.permissions import campaign_gm, campaign_member
from campaign.services import ledger_adjust
from campaign.submissions import AlreadyDone, token_from
from muster.answers import answer, flash, on_the_form

from .. import reports, selectors
from ..forms import commanders as commander_forms
from ..forms import recruiting as recruiting_forms
from ..forms import training as training_forms
from ..history import commander_history
from ..models import DayEnd
from ..selectors import battles as battle_selectors
from ..selectors import luck
from ..services.commanders import commander_create, commander_update_items
from ..services.recruiting import offer_post, quest_grant, recruit_buy, unit_catalog_start
from ..services.training import unit_train
from ..services.upkeep import day_end_preview
from .common import REFUSING, _already, _commander, _day_param, _offer, _on_commander, _unit

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
            offer_form=recruiting_forms.OfferForm(),
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
        context["adjust_form"] = commander_forms.AdjustForm()
        context["items_form"] = commander_forms.ItemsForm(
            initial={name: getattr(commander, name) for name in ("weapons", "shields", "alchemy", "build_points")}
        )
        context["quests"] = selectors.offers_open(campaign.pk, campaign.current_day).exclude(quest="")
    return render(request, "armies/commander.html", context)


@require_POST
@campaign_member
def buy(request: HttpRequest, pk: int, offer_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    offer = _offer(request, offer_id)
    form = recruiting_forms.BuyForm(request.POST)

    def bought(unit) -> str:
        price = form.cleaned_data["price"]
        names = {"card": unit.card.name, "commander": commander.name, "price": price}
        if price == 0:
            return gettext("%(card)s joined %(commander)s's army for free.") % names
        return (
            ngettext(
                "%(card)s joined %(commander)s's army for %(price)s coin.",
                "%(card)s joined %(commander)s's army for %(price)s coins.",
                price,
            )
            % names
        )

    return _on_commander(
        request,
        commander,
        form=form,
        change=lambda: recruit_buy(
            offer=offer,
            commander=commander,
            day=request.campaign.current_day,
            bought_by=request.user,
            price=form.cleaned_data["price"],  # what the page showed: charged as it is, or refused (ruling E14)
            submission=form.cleaned_data["submission"],
        ),
        done=bought,
        already=lambda _repeat: (
            gettext("%(card)s joined %(commander)s's army.") % {"card": offer.card.name, "commander": commander.name}
        ),
    )


@require_POST
@campaign_member
def train(request: HttpRequest, pk: int, unit_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    unit = _unit(commander, unit_id)
    form = training_forms.TrainForm(request.POST)
    return _on_commander(
        request,
        commander,
        form=form,
        change=lambda: unit_train(
            unit=unit, day=request.campaign.current_day, trained_by=request.user, **form.cleaned_data
        ),
        done=lambda _unit: gettext("%(card)s are trained: +1 Strength for good.") % {"card": unit.card.name},
        already=lambda _repeat: gettext("%(card)s were trained.") % {"card": unit.card.name},
    )


@require_POST
@campaign_gm
def adjust(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    form = commander_forms.AdjustForm(request.POST)

    def posted_before(repeat: AlreadyDone) -> str:
        if repeat.result:
            return gettext("%(amount)s was posted to %(commander)s's treasury.") % {
                "amount": f"{repeat.result.amount:+}",
                "commander": commander.name,
            }
        return gettext("the adjustment was posted.")

    # Only a refusal (too little in the treasury) is a sentence: any other error of the ledger is a bug (500).
    return _on_commander(
        request,
        commander,
        form=form,
        refusing=(),
        change=lambda: ledger_adjust(account=commander.account, gm=request.user, **form.cleaned_data),
        done=lambda entry: (
            gettext("Posted %(amount)s to %(commander)s's treasury.")
            % {"amount": f"{entry.amount:+}", "commander": commander.name}
        ),
        already=posted_before,
    )


@require_POST
@campaign_gm
def grant(request: HttpRequest, pk: int, offer_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    offer = _offer(request, offer_id)
    return _on_commander(
        request,
        commander,
        change=lambda: quest_grant(
            offer=offer,
            commander=commander,
            day=request.campaign.current_day,
            gm=request.user,
            submission=token_from(request.POST),
        ),
        done=lambda unit: (
            gettext("%(card)s joined %(commander)s's army: quest done.")
            % {"card": unit.card.name, "commander": commander.name}
        ),
        already=lambda _repeat: (
            gettext("%(card)s was granted to %(commander)s.") % {"card": offer.card.name, "commander": commander.name}
        ),
    )


@require_http_methods(["GET", "POST"])
@campaign_gm
def commander_new(request: HttpRequest) -> HttpResponse:
    form = commander_forms.CommanderForm(request.POST or None, campaign=request.campaign)

    def page() -> HttpResponse:
        return render(request, "armies/commander_new.html", {"campaign": request.campaign, "form": form})

    if request.method != "POST" or not form.is_valid():
        return page()

    def created_before(repeat: AlreadyDone) -> HttpResponse:
        if repeat.result is None:
            sentence = gettext("Already done: this commander was created by an earlier post of this form.")
            return flash(request, messages.INFO, sentence, "armies:list", request.campaign.slug)
        return _already(
            request, repeat.result, gettext("%(name)s was created by this form.") % {"name": repeat.result.name}
        )

    return answer(
        lambda: commander_create(campaign=request.campaign, created_by=request.user, **form.cleaned_data),
        refusing=REFUSING,
        done=lambda commander: flash(
            request,
            messages.SUCCESS,
            gettext("%(commander)s now commands an army (with no units yet).") % {"commander": commander.name},
            "armies:commander",
            request.campaign.slug,
            commander.pk,
        ),
        already=created_before,
        refused=on_the_form(form, page),
    )


@require_POST
@campaign_gm
def items(request: HttpRequest, pk: int) -> HttpResponse:
    commander = _commander(request, pk)
    form = commander_forms.ItemsForm(request.POST)
    return _on_commander(
        request,
        commander,
        form=form,
        change=lambda: commander_update_items(commander=commander, gm=request.user, **form.cleaned_data),
        done=lambda _commander: (
            gettext("%(commander)s's items and build points are updated.") % {"commander": commander.name}
        ),
        already=lambda _repeat: (
            gettext("%(commander)s's items and build points were updated.") % {"commander": commander.name}
        ),
    )


@require_POST
@campaign_gm
def unit_catalog_start_view(request: HttpRequest) -> HttpResponse:
    """The GM fills an empty unit catalog with Muster's starter units (ruling AC2), then posts offers."""
    offers = reverse("armies:list", args=[request.campaign.slug]) + "#offers"

    def filled(created: int) -> HttpResponse:
        sentence = ngettext(
            "%(n)s starter unit is in the catalog: post offers of them below.",
            "%(n)s starter units are in the catalog: post offers of them below.",
            created,
        ) % {"n": created}
        return flash(request, messages.SUCCESS, sentence, offers)

    return answer(
        lambda: unit_catalog_start(campaign=request.campaign, gm=request.user),
        refusing=REFUSING,
        done=filled,
        refused=lambda refusal: flash(request, messages.ERROR, str(refusal), offers),
    )


@require_POST
@campaign_gm
def offer_new(request: HttpRequest) -> HttpResponse:
    form = recruiting_forms.OfferForm(request.POST)
    back = ("armies:list", request.campaign.slug)

    def posted_before(repeat: AlreadyDone) -> HttpResponse:
        sentence = gettext("Already done: this offer was posted before and is posted only once.")
        if repeat.result:
            sentence += " " + gettext("%(quantity)s × %(card)s is on offer.") % {
                "quantity": repeat.result.quantity,
                "card": repeat.result.card.name,
            }
        return flash(request, messages.INFO, sentence, *back)

    return answer(
        lambda: offer_post(campaign=request.campaign, posted_by=request.user, **form.cleaned_data),
        form=form,
        refusing=REFUSING,
        done=lambda offer: flash(
            request,
            messages.SUCCESS,
            gettext("Offer posted: %(quantity)s × %(card)s.") % {"quantity": offer.quantity, "card": offer.card.name},
            *back,
        ),
        already=posted_before,
        refused=lambda refusal: flash(request, messages.ERROR, str(refusal), *back),
    )
