"""Setting up a battle between two armies, and its result page."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from campaign.permissions import campaign_gm, campaign_member
from muster.answers import answer

from ..forms.battles import BattleForm
from ..selectors import battles as battle_selectors
from ..selectors import luck
from ..services.battle_tables import battle_table_open
from ..services.battles import BattleLocked, battle_day_refusal, battle_open_check
from .common import REFUSING, _int_or_none

logger = logging.getLogger(__name__)


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
        form = BattleForm(request.POST, commanders=commanders, units=fit)
    else:
        initial = {"attacker": attacker and attacker.pk, "defender": defender and defender.pk}
        for side, commander in (("attacker", attacker), ("defender", defender)):
            if commander is not None:
                initial[f"{side}_units"] = [unit.pk for unit in sides[commander.pk][0]]
        form = BattleForm(initial=initial, commanders=commanders, units=fit)

    locks: list[str] = []
    day = campaign.current_day
    day_refusal = battle_day_refusal(campaign_id=campaign.pk, day=day, current_day=day)
    ready = attacker is not None and defender is not None and attacker != defender
    if ready:
        locks = battle_open_check(attacker=attacker, defender=defender, now=timezone.now(), day=day)

    def page(locks: list[str]) -> HttpResponse:
        context = {
            "campaign": campaign,
            "form": form,
            "army_fields": [form["attacker"], form["defender"]],
            "ready": ready,
            "locks": locks,
            "day_refusal": day_refusal,
            "unfit": {
                side: sides[c.pk][1] if c else [] for side, c in (("attacker", attacker), ("defender", defender))
            },
            "attacker": attacker,
            "defender": defender,
        }
        template = "armies/battle_new.html#setup" if request.htmx else "armies/battle_new.html"
        return render(request, template, context)

    if request.method != "POST" or not form.is_valid():
        return page(locks)

    def refused(refusal) -> HttpResponse:
        if isinstance(refusal, BattleLocked):
            form.add_error("override_reason", gettext("Give a reason to open this battle despite the locks above."))
            return page(refusal.reasons)
        form.add_error(None, str(refusal))
        return page(locks)

    def opened(battle) -> HttpResponse:
        messages.success(
            request,
            gettext("Battle #%(battle_id)s is open: %(attacker)s attacks %(defender)s.")
            % {"battle_id": battle.pk, "attacker": attacker.name, "defender": defender.name},
        )
        return redirect("tabletop:gm_table", campaign.slug, battle.table_id)

    return answer(
        lambda: battle_table_open(
            **form.service_arguments(), opened_by=request.user, submission=form.cleaned_data["submission"]
        ),
        refusing=REFUSING,
        done=opened,
        already=lambda repeat: _battle_already_open(request, repeat.result),
        refused=refused,
    )


def _battle_already_open(request: HttpRequest, battle) -> HttpResponse:
    if battle is None or battle.table_id is None:
        messages.info(request, gettext("Already done: this battle was opened by an earlier post of this form."))
        return redirect("armies:list", request.campaign.slug)
    messages.info(
        request,
        gettext("Already done: Battle #%(battle_id)s was opened by this form; here is its table.")
        % {"battle_id": battle.pk},
    )
    return redirect("tabletop:gm_table", request.campaign.slug, battle.table_id)


@require_GET
@campaign_member
def battle_result(request: HttpRequest, pk: int) -> HttpResponse:
    """A battle's summary for the GM and the players of its two commanders (anyone else: 404)."""
    membership = request.membership
    battle = battle_selectors.battle_for(membership, pk)
    sides = battle_selectors.battle_sides(battle, membership)
    context = {
        "campaign": request.campaign,
        "battle": battle,
        "sides": sides,
        "is_gm": membership.is_gm,
        "luck": luck.battle_report(battle),
    }
    return render(request, "armies/battle_result.html", context)
