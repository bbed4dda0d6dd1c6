"""The GM ends a day: the confirmation page, the post, and the progress box."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from campaign.permissions import campaign_gm
from muster.answers import answer, flash

from ..models import DayEnd
from ..services.day_end import DayEndUnderway, DayOver, day_end_check, day_end_report, day_end_start
from ..services.upkeep import day_end_preview

logger = logging.getLogger(__name__)


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
        messages.error(request, gettext("Which day? Reload the page and press End day again."))
        return redirect("armies:list", campaign.slug)
    back = ("armies:list", campaign.slug)

    def refused(refusal: Exception) -> HttpResponse:
        """A day already over or being settled is news (info); any other refusal is an error."""
        level = messages.INFO if isinstance(refusal, DayOver | DayEndUnderway) else messages.ERROR
        return flash(request, level, str(refusal), *back)

    def reported(failure: Exception | None = None) -> HttpResponse:
        report = day_end_report(campaign_id=campaign.pk, day=day, failure=failure)
        return flash(request, MESSAGE_LEVELS[report.tone], report.sentence, *back)

    try:
        if request.method == "GET":
            return answer(lambda: _confirmation(request, day), done=lambda page: page, refused=refused)
        return answer(
            lambda: day_end_start(campaign=campaign, day=day, started_by=request.user),
            done=lambda _run: reported(),
            refused=refused,
        )
    except Exception as failure:  # without Redis the task runs right here; say what the database shows
        logger.exception("Ending day %s of %s failed", day, campaign.slug)
        return reported(failure)


def _confirmation(request: HttpRequest, day: int) -> HttpResponse:
    """The confirmation of "End day N": who pays what and who deserts, and a failed or running day end of N."""
    campaign = request.campaign
    day_end_check(day=day, current=campaign.current_day)
    context = {
        "campaign": campaign,
        "preview": day_end_preview(campaign=campaign, day=day),
        "day_end": DayEnd.objects.filter(campaign=campaign, day=day).first(),  # a failed or running one
    }
    return render(request, "armies/day_end_confirm.html", context)


@require_GET
@campaign_gm
def day_end_progress(request: HttpRequest, run_id: int) -> HttpResponse:
    run = DayEnd.objects.filter(campaign=request.campaign, pk=run_id).first()
    if run is None:
        raise Http404("No such day end.")
    return render(request, "armies/gm_armies.html#progress", {"campaign": request.campaign, "day_end": run})


# --- battles ----------------------------------------------------------------------------------------
