from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from . import panels, selectors
from .permissions import campaign_member


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "campaign/home.html", {"memberships": selectors.memberships_of(request.user)})


@require_GET
@campaign_member
def campaign_detail(request: HttpRequest) -> HttpResponse:
    campaign, membership = request.campaign, request.membership
    context = {"campaign": campaign, "membership": membership, "panels": panels.render_for(membership)}
    if membership.is_gm:
        context.update(days=selectors.campaign_days(campaign), members=selectors.campaign_members(campaign))
        return render(request, "campaign/gm_home.html", context)
    return render(request, "campaign/player_home.html", context)
