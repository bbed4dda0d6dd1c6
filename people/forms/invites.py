"""The invites page's forms: a new invite, the printable sheet of invites, and an invite's revoke or
re-issue button.

Each carries a one-time token (``OnceForm``), bounds its numbers as the services and the database do
(CONVENTIONS 14c), and caps every text, so no typed value can break a page.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from armies.models import Commander
from campaign.models import Campaign, Membership
from campaign.submissions import OnceForm

from .. import selectors
from ..models import DEFAULT_INVITE_DAYS, MAX_GM_INVITE_USES, MAX_INVITE_DAYS, MAX_INVITE_USES
from ..services.invites import MAX_SHEET_SEATS


class InviteForm(OnceForm):
    role = forms.ChoiceField(
        choices=Membership.Role.choices, initial=Membership.Role.PLAYER, label=gettext_lazy("Joins as")
    )
    commander = forms.ModelChoiceField(
        queryset=Commander.objects.none(), required=False, empty_label=gettext_lazy("No commander (a seat)"),
        label=gettext_lazy("Runs the commander"),
        help_text=gettext_lazy(
            "A commander the GM runs now: the newcomer takes it over. An invite with one is used once."
        ),
    )
    max_uses = forms.IntegerField(
        min_value=1, max_value=MAX_INVITE_USES, initial=1, label=gettext_lazy("How many people")
    )
    days = forms.IntegerField(min_value=1, max_value=MAX_INVITE_DAYS, initial=DEFAULT_INVITE_DAYS,
                              label=gettext_lazy("Open for (days)"))

    def __init__(self, *args, campaign: Campaign, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["commander"].queryset = selectors.commanders_for_invites(campaign).select_related(
            "membership__user"
        )
        self.fields["commander"].label_from_instance = lambda c: f"{c.name} ({c.get_kind_display()})"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("role") == Membership.Role.GM and (cleaned.get("max_uses") or 1) > MAX_GM_INVITE_USES:
            self.add_error("max_uses", _("A GM invite is for one person: make each co-GM a link of their own."))
        if cleaned.get("commander") is not None:
            if cleaned.get("role") == Membership.Role.GM:
                self.add_error("role", _("An invite with a commander makes a player."))
            if cleaned.get("max_uses") not in (None, 1):
                self.add_error("max_uses", _("An invite with a commander is for one person."))
        return cleaned


class SheetForm(OnceForm):
    commanders = forms.ModelMultipleChoiceField(
        queryset=Commander.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("A card for each of these commanders"),
        help_text=gettext_lazy("Commanders you run, without an open invite; the PCs without a player are ticked."),
    )
    seats = forms.IntegerField(
        min_value=0, max_value=MAX_SHEET_SEATS, initial=0, label=gettext_lazy("Seats without a commander")
    )
    days = forms.IntegerField(min_value=1, max_value=MAX_INVITE_DAYS, initial=DEFAULT_INVITE_DAYS,
                              label=gettext_lazy("Open for (days)"))


    def __init__(self, *args, campaign: Campaign, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["commanders"]
        field.queryset = selectors.commanders_for_invites(campaign).exclude(
            pk__in=selectors.open_invite_commanders(campaign)
        )
        field.label_from_instance = lambda c: f"{c.name} ({c.get_kind_display()})"
        if not self.is_bound:
            unplayed = selectors.commanders_without_player(campaign)
            self.initial["commanders"] = list(unplayed.values_list("pk", flat=True))


class InviteActionForm(OnceForm):
    """Revoke or re-issue: a button with its one-time token."""
