"""Invites: the GM's page (make, list, revoke, re-issue, who joined by which), the printable sheet of
QR codes, and the page an invite link opens on a phone (sign up or log in, then join in one step)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign.permissions import campaign_gm
from muster import languages
from muster.answers import answer, flash, on_the_form

from .. import selectors
from ..forms.invites import InviteActionForm, InviteForm, SheetForm
from ..forms.signup import SignupForm
from ..models import Invite
from ..presenters import invite_card, invite_cards, invite_for, landing
from ..services.claims import already_member
from ..services.invites import Joined, invite_accept, invite_create, invite_reissue, invite_revoke, invites_for_sheet

# A service's PermissionDenied (the GM made a player meanwhile) is said on these pages as a sentence.
REFUSING = (PermissionDenied,)


def _invite(request: HttpRequest, pk: int) -> Invite:
    invite = Invite.objects.filter(campaign=request.campaign, pk=pk).select_related("campaign", "commander").first()
    if invite is None:
        raise Http404("No such invite.")
    return invite


def _at(request: HttpRequest, invite_pk: int) -> str:
    """The invites page at one invite's line."""
    return reverse("people:invites", args=[request.campaign.slug]) + f"#invite-{invite_pk}"


def _list(request: HttpRequest, *, form=None, sheet_form=None, status: int = 200) -> HttpResponse:
    campaign = request.campaign
    lines = selectors.campaign_invites(campaign)
    context = {
        "campaign": campaign,
        "lines": [
            (line, invite_card(request, line.invite) if line.is_open else None, invite_for(line.invite))
            for line in lines
        ],
        "form": form or InviteForm(campaign=campaign),
        "sheet_form": sheet_form or SheetForm(campaign=campaign),
    }
    return render(request, "people/invites.html", context, status=status)


@require_http_methods(["GET", "POST"])
@campaign_gm
def invites(request: HttpRequest) -> HttpResponse:
    """GET: the campaign's invites and the form; POST: a new invite."""
    if request.method == "GET":
        return _list(request)
    form = InviteForm(request.POST, campaign=request.campaign)
    if not form.is_valid():
        return _list(request, form=form, status=400)
    data = form.cleaned_data
    return answer(
        lambda: invite_create(
            campaign=request.campaign, created_by=request.user, role=data["role"], commander=data["commander"],
            max_uses=data["max_uses"], days=data["days"], submission=data["submission"],
        ),
        refusing=REFUSING,
        done=lambda invite: flash(
            request, messages.SUCCESS, _("The invite is ready: show its QR code or send its link."),
            _at(request, invite.pk),
        ),
        already=lambda _repeat: flash(
            request, messages.INFO, _("Already done: this invite was made by an earlier post of the form."),
            "people:invites", request.campaign.slug,
        ),
        refused=on_the_form(form, lambda: _list(request, form=form, status=400)),
    )


def _invite_action(request: HttpRequest, pk: int, service, done: str) -> HttpResponse:
    invite = _invite(request, pk)
    form = InviteActionForm(request.POST)
    back = ("people:invites", request.campaign.slug)
    if not form.is_valid():
        return flash(
            request, messages.ERROR, " ".join(form.non_field_errors()) or _("Reload the page and try again."), *back
        )
    return answer(
        lambda: service(invite=invite, gm=request.user, submission=form.cleaned_data["submission"]),
        refusing=REFUSING,
        done=lambda result: flash(
            request, messages.SUCCESS, done, _at(request, result.pk)
        ),
        already=lambda _repeat: flash(
            request, messages.INFO,
            _("Already done: %(done)s This button was pressed before and is applied only once.") % {"done": done},
            *back,
        ),
        refused=lambda refusal: flash(request, messages.ERROR, str(refusal), *back),
    )


@require_POST
@campaign_gm
def invite_revoke_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _invite_action(request, pk, invite_revoke, _("The invite is revoked: its link opens nothing now."))


@require_POST
@campaign_gm
def invite_reissue_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _invite_action(request, pk, invite_reissue, _("A new link with the same terms; the old one is revoked."))


@require_http_methods(["GET", "POST"])
@campaign_gm
def invite_sheet(request: HttpRequest) -> HttpResponse:
    """GET: every open invite as a card to print (one QR code each); POST: an invite for each PC
    without a player and for the seats asked, then the sheet (printed in the campaign's language when it has
    one; the form's answers are the GM's own)."""
    if request.method == "POST":
        form = SheetForm(request.POST, campaign=request.campaign)
        if not form.is_valid():
            return _list(request, sheet_form=form, status=400)
        data = form.cleaned_data
        sheet = ("people:invite_sheet", request.campaign.slug)
        return answer(
            lambda: invites_for_sheet(
                campaign=request.campaign, gm=request.user, seats=data["seats"], days=data["days"],
                commanders=list(data["commanders"]), submission=data["submission"],
            ),
            refusing=REFUSING,
            done=lambda _made: redirect(*sheet),
            already=lambda _repeat: flash(
                request, messages.INFO, _("Already done: these invites were made by an earlier post of the form."),
                *sheet,
            ),
            refused=on_the_form(form, lambda: _list(request, sheet_form=form, status=400)),
        )
    campaign = request.campaign
    languages.use_campaign_language(request, campaign.language)
    cards = invite_cards(request, [line.invite for line in selectors.open_invites(campaign)])
    return render(request, "people/invite_sheet.html", {"campaign": campaign, "cards": cards})


# --- the page an invite link opens -----------------------------------------------------------------


def refused(request: HttpRequest, sentence: str, *, status: int) -> HttpResponse:
    """A forged (404) or spent (410) invite, or a claim for someone already a member (409): a sentence, and
    nothing written."""
    return render(request, "people/invite_refused.html", {"refusal": sentence}, status=status)


def login_url(invite: Invite) -> str:
    """The login page, coming back to the invite: logged in, one tap joins."""
    return reverse("login") + "?" + urlencode({REDIRECT_FIELD_NAME: reverse("people:join", args=[invite.token])})


def join_page(request: HttpRequest, invite: Invite, *, form=None, status: int = 200, locked: str = "") -> HttpResponse:
    claim = selectors.claim_of(invite)
    context = {
        "invite": invite,
        "claim": claim,
        "holds": selectors.claim_holds(claim) if claim is not None else None,
        "campaign": invite.campaign,
        "form": form or (None if request.user.is_authenticated else SignupForm()),
        "login_url": login_url(invite),
        "locked": locked,
    }
    return render(request, "people/invite_join.html", context, status=status)


def open_invite(request: HttpRequest, token: str) -> Invite | HttpResponse:
    """The invite ``token`` names if it still opens, else the refusal page; a member already in its
    campaign is sent there (a claim invite, another member's place, refuses them: 409)."""
    invite = selectors.invite_by_token(token)
    if invite is None:
        return refused(request, _(selectors.FORGED), status=404)
    member = selectors.member_of(request.user, invite.campaign_id)
    claim = selectors.claim_of(invite)
    if member is not None and claim is not None:
        return refused(request, str(already_member(claim, invite.campaign)), status=409)
    if member is not None:
        messages.info(request, _("You are already in %(campaign)s.") % {"campaign": invite.campaign.name})
        mine = invite.commander if invite.commander_id and invite.commander.membership_id == member.pk else None
        return landing(Joined(membership=member, commander=mine, joined=False))
    refusal = selectors.invite_refusal(invite, used=selectors.uses_count(invite))
    if refusal:
        return refused(request, refusal, status=410)
    return invite


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the invite offers, with the sign-up form (or, logged in, the join button);
    POST (logged in): join, and land on one's commander or the campaign."""
    opened = open_invite(request, token)
    if isinstance(opened, HttpResponse):
        return opened
    if request.method == "GET":
        return join_page(request, opened)
    if not request.user.is_authenticated:
        return redirect(login_url(opened))
    return answer(
        lambda: invite_accept(token=token, user=request.user),
        done=lambda joined: _welcomed(request, joined),
        refused=lambda refusal: refused(request, str(refusal), status=410),
    )


def _welcomed(request: HttpRequest, joined: Joined) -> HttpResponse:
    messages.success(request, _("Welcome to %(campaign)s.") % {"campaign": joined.membership.campaign.name})
    return landing(joined)
