"""The GM's members page: every member with their role, name, commanders and when they joined; change
a role, remove a member, hand a commander to another member. GM only (players 403, others 404).

Every post answers through ``_write`` (``muster.answers.answer`` with this page's answers): a form that cannot be read
(empty, huge, wrong types) or a refused change is the page again with its sentence (400), a page that
was out of date the fresh page with its sentence (409), a repeated form "Already done" (applied once),
and a change done a redirect to the page with what it did. A GM demoted by another GM meanwhile gets
the service's ``PermissionDenied`` (403), as any player would.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from armies.models import Commander
from campaign.models import Membership
from campaign.permissions import campaign_gm
from muster.answers import answer, flash, status_of

from ..forms.members import CommanderHandForm, MemberRemoveForm, MemberRoleForm
from ..selectors.members import gm_count, member_rows
from ..services.members import commander_hand, member_remove, member_role_change

MAX_ID = 2**63 - 1  # a BigAutoField's largest id


def _page(request: HttpRequest, *, error: str = "", status: int = 200) -> HttpResponse:
    rows = member_rows(request.campaign, gm=request.user)
    context = {
        "campaign": request.campaign,
        "me": request.membership,
        "rows": rows,
        "gm_count": gm_count(rows),
        "error": error,
    }
    return render(request, "people/members.html", context, status=status)


def _write(request: HttpRequest, form, change: Callable[[dict], str]) -> HttpResponse:
    """Run ``change(cleaned_data)`` (a service call; it returns what to tell the GM) and answer (see above)."""
    return answer(
        lambda: change(form.cleaned_data),
        form=form,
        done=lambda said: _done(request, said),
        already=lambda _repeat: flash(
            request, messages.INFO, _("Already done: this form was sent before and is applied only once."),
            "people:members", request.campaign.slug,
        ),
        refused=lambda refusal: _page(request, error=str(refusal), status=status_of(refusal)),
    )


def _done(request: HttpRequest, done: str) -> HttpResponse:
    messages.success(request, done)
    if not Membership.objects.filter(pk=request.membership.pk, role=Membership.Role.GM).exists():
        return redirect("campaign:detail", request.campaign.slug)  # the GM made themselves a player
    return redirect("people:members", request.campaign.slug)


def _member(request: HttpRequest, membership_id: int) -> Membership:
    """The campaign's member ``membership_id``; one removed meanwhile still reaches the service, which
    answers a repeated form "Already done" and a new one with a sentence."""
    member = Membership.objects.select_related("user").filter(campaign=request.campaign, pk=membership_id).first()
    if member is None and not 0 < membership_id <= MAX_ID:
        raise Http404("No such member.")  # no row ever had this id (nor could: the database would refuse it)
    return member or Membership(pk=membership_id, campaign=request.campaign)


@require_GET
@campaign_gm
def members(request: HttpRequest) -> HttpResponse:
    return _page(request)


@require_POST
@campaign_gm
def member_role(request: HttpRequest, membership_id: int) -> HttpResponse:
    member = _member(request, membership_id)

    def change(data: dict) -> str:
        changed = member_role_change(
            membership=member, role=data["role"], gm=request.user, based_on=data["based_on"],
            submission=data["submission"],
        )
        if changed.pk == request.membership.pk and not changed.is_gm:
            return _("You are now a player of this campaign: the other GMs run it.")
        if changed.is_gm:
            return _("%(name)s is now a GM.") % {"name": changed.display_name}
        return _("%(name)s is now a player.") % {"name": changed.display_name}

    return _write(request, MemberRoleForm(request.POST), change)


@require_POST
@campaign_gm
def member_remove_view(request: HttpRequest, membership_id: int) -> HttpResponse:
    member = _member(request, membership_id)

    def change(data: dict) -> str:
        removal = member_remove(
            membership=member, gm=request.user, based_on=data["based_on"], submission=data["submission"]
        )
        said = _("%(name)s was removed from the campaign.") % {"name": removal.name}
        if removal.commanders:
            said += " " + ngettext(
                "You now run %(commanders)s as an NPC: hand it on below.",
                "You now run %(commanders)s as NPCs: hand them on below.",
                len(removal.commanders),
            ) % {"commanders": ", ".join(removal.commanders)}
        return said

    return _write(request, MemberRemoveForm(request.POST), change)


@require_POST
@campaign_gm
def commander_hand_view(request: HttpRequest, pk: int) -> HttpResponse:
    commander = Commander.objects.filter(campaign=request.campaign, pk=pk).first()
    if commander is None:
        raise Http404("No such commander.")

    def change(data: dict) -> str:
        handed = commander_hand(
            commander=commander, to=data["to"], gm=request.user, based_on=data["based_on"],
            submission=data["submission"],
        )
        words = {"commander": handed.name, "member": handed.membership.display_name}
        if handed.kind == Commander.Kind.NPC:
            return _("%(commander)s is now run by %(member)s (an NPC).") % words
        return _("%(commander)s is now run by %(member)s (a PC).") % words

    return _write(request, CommanderHandForm(request.POST, campaign=request.campaign), change)
