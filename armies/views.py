"""Army pages: a player's commanders (roster, treasury, offers, training) and the GM's armies and day end."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.bounds import OutOfBounds
from campaign.permissions import campaign_gm, campaign_member
from campaign.services import InsufficientFunds, ledger_adjust
from campaign.submissions import AlreadyDone, SubmissionMissing, token_from

from . import battle_selectors, forms, reports, selectors
from .models import ArmyUnit, Commander, DayEnd, RecruitOffer
from .services import ArmyError
from .services.battle_tables import battle_table_open
from .services.battles import BattleLocked, battle_day_refusal, battle_open_check
from .services.commanders import commander_create, commander_update_items
from .services.day_end import DayEndUnderway, DayOver, day_end_check, day_end_report, day_end_start
from .services.recruiting import offer_post, quest_grant, recruit_buy
from .services.training import unit_train
from .services.upkeep import day_end_preview

REFUSALS = (ArmyError, InsufficientFunds, PermissionDenied, OutOfBounds, SubmissionMissing)
logger = logging.getLogger(__name__)


def _commander(request: HttpRequest, pk: int) -> Commander:
    """The commander ``pk`` if the member may see it: their own PC, or any for the GM; else 404."""
    commander = selectors.commanders_for(request.membership).filter(pk=pk).first()
    if commander is None:
        raise Http404("No such commander.")
    return commander


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
            battles=battle_selectors.campaign_battles(campaign.pk),
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
    }
    if request.membership.is_gm:
        context["adjust_form"] = forms.AdjustForm()
        context["items_form"] = forms.ItemsForm(
            initial={name: getattr(commander, name) for name in ("weapons", "shields", "alchemy", "build_points")}
        )
        context["quests"] = selectors.offers_open(campaign.pk, campaign.current_day).exclude(quest="")
    return render(request, "armies/commander.html", context)


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


@require_POST
@campaign_member
def buy(request: HttpRequest, pk: int, offer_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    offer = _offer(request, offer_id)
    try:
        unit = recruit_buy(
            offer=offer,
            commander=commander,
            day=request.campaign.current_day,
            bought_by=request.user,
            submission=token_from(request.POST),
        )
    except AlreadyDone:
        return _already(request, commander, f"{offer.card.name} joined {commander.name}'s army.")
    except REFUSALS as refusal:
        return _refused(request, commander, refusal)
    return _done(request, commander, f"{unit.card.name} joined {commander.name}'s army for {offer.price} coins.")


@require_POST
@campaign_member
def train(request: HttpRequest, pk: int, unit_id: int) -> HttpResponse:
    commander = _commander(request, pk)
    unit = ArmyUnit.objects.filter(commander=commander, pk=unit_id).select_related("card").first()
    if unit is None:
        raise Http404("No such unit.")
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
def offer_new(request: HttpRequest) -> HttpResponse:
    form = forms.OfferForm(request.POST)
    if form.is_valid():
        try:
            offer = offer_post(campaign=request.campaign, **form.cleaned_data)
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


MESSAGE_LEVELS = {"success": messages.SUCCESS, "info": messages.INFO, "error": messages.ERROR}


def _day_ended(data) -> int | None:
    """The day a day-end form says it ends (the ``day`` it was made on), or None."""
    try:
        day = int(data["day"])
    except (KeyError, ValueError):
        return None
    return day if day >= 1 else None


@require_http_methods(["GET", "POST"])
@campaign_gm
def day_end(request: HttpRequest) -> HttpResponse:
    """GET: the confirmation of "End day N" (the preview: who pays what, who deserts). POST: end day N."""
    campaign = request.campaign
    day = _day_ended(request.GET if request.method == "GET" else request.POST)
    if day is None:
        messages.error(request, "Which day? Reload the page and press End day again.")
        return redirect("armies:list", campaign.slug)
    try:
        if request.method == "GET":
            day_end_check(day=day, current=campaign.current_day)
            context = {
                "campaign": campaign,
                "preview": day_end_preview(campaign=campaign, day=day),
                "day_end": DayEnd.objects.filter(campaign=campaign, day=day).first(),  # a failed or running one
            }
            return render(request, "armies/day_end_confirm.html", context)
        day_end_start(campaign=campaign, day=day, started_by=request.user)
    except (DayOver, DayEndUnderway) as refusal:
        messages.info(request, str(refusal))
    except ArmyError as refusal:
        messages.error(request, str(refusal))
    except Exception as failure:  # without Redis the task runs right here; say what the database shows
        logger.exception("Ending day %s of %s failed", day, campaign.slug)
        report = day_end_report(campaign_id=campaign.pk, day=day, failure=failure)
        messages.add_message(request, MESSAGE_LEVELS[report.tone], report.sentence)
    else:
        report = day_end_report(campaign_id=campaign.pk, day=day)
        messages.add_message(request, MESSAGE_LEVELS[report.tone], report.sentence)
    return redirect("armies:list", campaign.slug)


@require_GET
@campaign_gm
def day_end_progress(request: HttpRequest, run_id: int) -> HttpResponse:
    run = DayEnd.objects.filter(campaign=request.campaign, pk=run_id).first()
    if run is None:
        raise Http404("No such day end.")
    return render(request, "armies/gm_armies.html#progress", {"campaign": request.campaign, "day_end": run})


# --- battles ----------------------------------------------------------------------------------------


def _int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_http_methods(["GET", "POST"])
@campaign_gm
def battle_new(request: HttpRequest) -> HttpResponse:
    """Set up a battle: choose the armies (GET, or htmx as the selects change), then their units and post."""
    campaign = request.campaign
    commanders = battle_selectors.battle_commanders(campaign.pk)
    by_pk = {commander.pk: commander for commander in commanders}
    source = request.POST if request.method == "POST" else request.GET
    attacker, defender = (by_pk.get(_int_or_none(source.get(side))) for side in ("attacker", "defender"))
    chosen = [commander.pk for commander in (attacker, defender) if commander is not None]
    units = battle_selectors.battle_units(chosen)
    sides = {pk: battle_selectors.fighting(units[pk]) for pk in chosen}
    fit = {pk: fighting for pk, (fighting, _unfit) in sides.items()}
    if request.method == "POST":
        form = forms.BattleForm(request.POST, commanders=commanders, units=fit)
    else:
        initial = {"attacker": attacker and attacker.pk, "defender": defender and defender.pk}
        for side, commander in (("attacker", attacker), ("defender", defender)):
            if commander is not None:
                initial[f"{side}_units"] = [unit.pk for unit in sides[commander.pk][0]]
        form = forms.BattleForm(initial=initial, commanders=commanders, units=fit)

    locks: list[str] = []
    day = campaign.current_day
    day_refusal = battle_day_refusal(campaign_id=campaign.pk, day=day, current_day=day)
    ready = attacker is not None and defender is not None and attacker != defender
    if ready:
        locks = battle_open_check(attacker=attacker, defender=defender, now=timezone.now(), day=day)
    if request.method == "POST" and form.is_valid():
        try:
            battle = battle_table_open(
                **form.service_arguments(), opened_by=request.user, submission=form.cleaned_data["submission"]
            )
        except AlreadyDone as done:
            return _battle_already_open(request, done.result)
        except BattleLocked as locked:
            locks = locked.reasons
            form.add_error("override_reason", "Give a reason to open this battle despite the locks above.")
        except REFUSALS as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, f"Battle #{battle.pk} is open: {attacker.name} attacks {defender.name}.")
            return redirect("tabletop:gm_table", campaign.slug, battle.table_id)
    context = {
        "campaign": campaign,
        "form": form,
        "army_fields": [form["attacker"], form["defender"]],
        "ready": ready,
        "locks": locks,
        "day_refusal": day_refusal,
        "unfit": {side: sides[c.pk][1] if c else [] for side, c in (("attacker", attacker), ("defender", defender))},
        "attacker": attacker,
        "defender": defender,
    }
    template = "armies/battle_new.html#setup" if request.htmx else "armies/battle_new.html"
    return render(request, template, context)


def _battle_already_open(request: HttpRequest, battle) -> HttpResponse:
    if battle is None or battle.table_id is None:
        messages.info(request, "Already done: this battle was opened by an earlier post of this form.")
        return redirect("armies:list", request.campaign.slug)
    messages.info(request, f"Already done: Battle #{battle.pk} was opened by this form; here is its table.")
    return redirect("tabletop:gm_table", request.campaign.slug, battle.table_id)


@require_GET
@campaign_member
def battle_result(request: HttpRequest, pk: int) -> HttpResponse:
    """A battle's summary for the GM and the players of its two commanders (anyone else: 404)."""
    membership = request.membership
    battle = battle_selectors.battle_for(membership, pk)
    sides = battle_selectors.battle_sides(battle, membership)
    context = {"campaign": request.campaign, "battle": battle, "sides": sides, "is_gm": membership.is_gm}
    return render(request, "armies/battle_result.html", context)
