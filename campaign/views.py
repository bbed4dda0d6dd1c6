from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from muster.answers import answer, flash, on_the_form

from . import first_steps, live, panels, selectors
from .activity import activity_for, actor_said, line_said, target_url
from .forms import TIME_ZONES_LIST, ActivityFilterForm, CampaignNewForm, SettingsForm, common_time_zones
from .permissions import campaign_gm, campaign_member, may_create_campaigns, require_campaign_creator
from .quotas import QuotaExceeded
from .services import campaign_create, campaign_settings_update
from .submissions import AlreadyDone

ACTIVITY_PAGE_SIZE = 50


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "memberships": selectors.memberships_of(request.user),
        "may_create": may_create_campaigns(request.user),
    }
    return render(request, "campaign/home.html", context)


def _zone_form_context(form) -> dict:
    return {"form": form, "time_zones": common_time_zones(), "time_zones_list": TIME_ZONES_LIST}


@require_http_methods(["GET", "POST"])
@login_required
def campaign_new(request: HttpRequest) -> HttpResponse:
    """Start a campaign (name, description, time zone, settings): the starter is its GM, on day 1."""
    require_campaign_creator(request.user)
    if request.method == "GET":
        form = CampaignNewForm(initial=CampaignNewForm.initial_defaults())
        return render(request, "campaign/new.html", _zone_form_context(form))
    form = CampaignNewForm(request.POST)
    if not form.is_valid():
        return render(request, "campaign/new.html", _zone_form_context(form))

    def started_before(repeat: AlreadyDone) -> HttpResponse:
        if repeat.result is None:
            return flash(
                request, messages.INFO, _("Already done: this form was sent before. This form is applied once."),
                "campaign:home",
            )
        sentence = _("Already done: %(campaign)s was started by this form before.") % {"campaign": repeat.result.name}
        return flash(request, messages.INFO, sentence, "campaign:detail", repeat.result.slug)

    def refused(refusal) -> HttpResponse:
        form.add_error(None, str(refusal))
        status = refusal.status if isinstance(refusal, QuotaExceeded) else 200  # the form again, or 429
        return render(request, "campaign/new.html", _zone_form_context(form), status=status)

    return answer(
        lambda: campaign_create(creator=request.user, submission=form.cleaned_data["submission"], **form.settings()),
        done=lambda campaign: flash(
            request, messages.SUCCESS,
            _("%(campaign)s is started: you are its GM, and day 1 is open.") % {"campaign": campaign.name},
            "campaign:detail", campaign.slug,
        ),
        already=started_before,
        refused=refused,
    )


@require_GET
@campaign_member
def campaign_detail(request: HttpRequest) -> HttpResponse:
    campaign, membership = request.campaign, request.membership
    live_key = None if membership.is_gm else live.home_key(membership)
    if live_key is not None and request.htmx and request.GET.get("v") == live_key:
        return HttpResponse(status=204)  # a player's page polling: nothing changed, nothing renders
    context = {"campaign": campaign, "membership": membership, "panels": panels.render_for(membership)}
    if membership.is_gm:
        context.update(
            days=selectors.campaign_days(campaign),
            members=selectors.campaign_members(campaign),
            first_steps=first_steps.still_to_do(campaign),
        )
        return render(request, "campaign/gm_home.html", context)
    # A player's page is live (issue 25; campaign/live.py): its region fetches itself on a push, or
    # each second while the push is down (answered 204 above while its key is unchanged).
    context["live_key"] = live_key
    template = "campaign/player_home.html#live" if request.htmx else "campaign/player_home.html"
    return render(request, template, context)


@require_GET
@campaign_gm
def activity(request: HttpRequest) -> HttpResponse:
    """The GM activity log, newest first: filter by kind, who and day; 50 lines a page. Read only."""
    campaign = request.campaign
    form = ActivityFilterForm(request.GET or None, gms=selectors.campaign_gms(campaign))
    filters = form.filters()
    page = Paginator(activity_for(campaign, **filters), ACTIVITY_PAGE_SIZE).get_page(request.GET.get("page"))
    lines = [
        (entry, target_url(entry, campaign.slug), line_said(entry), actor_said(entry)) for entry in page.object_list
    ]
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "campaign": campaign,
        "form": form,
        "page": page,
        "lines": lines,
        "query": query.urlencode(),
        "filtered": any(value not in ("", None, False) for value in filters.values()),
    }
    template = "campaign/activity.html#log" if request.htmx else "campaign/activity.html"
    return render(request, template, context)


@require_http_methods(["GET", "POST"])
@campaign_gm
def campaign_settings(request: HttpRequest) -> HttpResponse:
    """The GM changes the campaign's name, description, desertion policy, credit, time zone, day-end time and
    cooldown. Times are shown in the campaign's time zone."""
    campaign = request.campaign
    if request.method == "GET":
        form = SettingsForm(initial=SettingsForm.initial_for(campaign))
        return render(request, "campaign/settings.html", _settings_context(campaign, form))
    form = SettingsForm(request.POST)
    if not form.is_valid():
        return render(request, "campaign/settings.html", _settings_context(campaign, form))
    back = ("campaign:settings", campaign.slug)

    def saved_before(repeat: AlreadyDone) -> HttpResponse:
        if repeat.result is None:
            sentence = _("Already done: these settings were saved before. This form is applied once.")
        else:  # the activity log's line, as it was written
            sentence = _(
                "Already done: these settings were saved before (%(summary)s). This form is applied once."
            ) % {"summary": repeat.result.summary}
        return flash(request, messages.INFO, sentence, *back)

    def saved(changed) -> HttpResponse:
        if changed is None:
            return flash(request, messages.INFO, _("Nothing to change: the settings are as they were."), *back)
        return flash(request, messages.SUCCESS, _("Settings saved. %(summary)s.") % {"summary": changed.summary}, *back)

    return answer(
        lambda: campaign_settings_update(
            campaign=campaign, gm=request.user, submission=form.cleaned_data["submission"], **form.settings()
        ),
        refusing=(PermissionDenied,),  # a GM made a player meanwhile: said on the form, as it always was
        done=saved,
        already=saved_before,
        refused=on_the_form(form, lambda: render(request, "campaign/settings.html", _settings_context(campaign, form))),
    )


def _settings_context(campaign, form) -> dict:
    return {"campaign": campaign, "now_there": timezone.now(), **_zone_form_context(form)}
