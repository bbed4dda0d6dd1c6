"""The GM takes back the latest day end: the confirmation page (the preview, or what is in the way) and the post."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from campaign.permissions import campaign_gm
from campaign.submissions import token_from
from muster.answers import answer, flash

from ..services.day_end_revert import AlreadyTakenBack, day_end_revert, day_end_revert_preview
from .day_end import _day_ended


@require_http_methods(["GET", "POST"])
@campaign_gm
def day_end_revert_view(request: HttpRequest) -> HttpResponse:
    """GET ?day=N: what taking back the end of day N would refund and return, or what is in the way.

    POST (day=N and a one-time token): take it back, then the armies overview with a message.
    The day pins the post to the day end the GM saw; the token makes a double tap revert once.
    """
    campaign = request.campaign
    data = request.GET if request.method == "GET" else request.POST
    day = _day_ended(data)
    if request.method == "GET":
        preview = day_end_revert_preview(campaign, day)
        return render(request, "armies/day_end_revert_confirm.html", {"campaign": campaign, "preview": preview})
    if day is None:
        messages.error(request, gettext("Which day? Reload the page and press Take back again."))
        return redirect("armies:list", campaign.slug)
    back = ("armies:list", campaign.slug)
    return answer(
        lambda: day_end_revert(campaign=campaign, day=day, gm=request.user, submission=token_from(request.POST)),
        done=lambda activity: flash(
            request,
            messages.SUCCESS,
            gettext("%(summary)s. The campaign is on day %(day)s again.") % {"summary": activity.summary, "day": day},
            *back,
        ),
        already=lambda _repeat: flash(
            request,
            messages.INFO,
            gettext("Already taken back: the end of day %(day)s was taken back once; this form is applied once.")
            % {"day": day},
            *back,
        ),
        refused=lambda refusal: flash(
            request, messages.INFO if isinstance(refusal, AlreadyTakenBack) else messages.ERROR, str(refusal), *back
        ),
    )
