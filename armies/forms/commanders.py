"""The GM's commander forms: make one, edit or retire it, remove one of its units, adjust its treasury
and its items."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.models import Membership
from campaign.submissions import OnceForm
from muster.forms import SentenceErrors

from ..models import COMMANDER_ROLES, Commander, Path
from ..services.commander_edits import commander_values


class CommanderForm(SentenceErrors, OnceForm):
    name = forms.CharField(max_length=120, label=_("Name"))
    membership = forms.ModelChoiceField(
        queryset=None, label=_("Run by"), help_text=_("A player for a PC; you for an NPC.")
    )
    kind = forms.ChoiceField(choices=Commander.Kind.choices, label=_("Kind"))
    role = forms.ChoiceField(choices=COMMANDER_ROLES, label=_("Role"))
    path = forms.ChoiceField(choices=Path.choices, label=_("Path"))
    progression = forms.IntegerField(
        min_value=0,
        max_value=bounds.MAX_PROGRESSION,
        initial=0,
        label=_("Progression"),
        help_text=_("Non-bonus progression."),
    )
    favors = forms.IntegerField(min_value=0, max_value=bounds.MAX_FAVORS, initial=0, label=_("Favors"))
    influence_halves = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_INFLUENCE_HALVES, initial=0, label=_("Influence (in halves)")
    )
    opening_balance = forms.IntegerField(min_value=0, max_value=bounds.MAX_COINS, initial=0, label=_("Opening balance"))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["membership"]
        field.queryset = Membership.objects.filter(campaign=campaign).select_related("user")
        field.label_from_instance = lambda m: f"{m.display_name} ({m.get_role_display()})"


class AdjustForm(SentenceErrors, OnceForm):
    amount = forms.IntegerField(
        min_value=-bounds.MAX_COINS,
        max_value=bounds.MAX_COINS,
        label=_("Amount"),
        help_text=_("Positive credits, negative debits."),
    )
    reason = forms.CharField(max_length=240, label=_("Reason"))

    def clean_amount(self) -> int:
        if self.cleaned_data["amount"] == 0:
            raise forms.ValidationError(gettext("Enter an amount other than 0."))
        return self.cleaned_data["amount"]


class ItemsForm(SentenceErrors, OnceForm):
    weapons = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS, label=_("Weapons"))
    shields = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS, label=_("Shields"))
    alchemy = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS, label=_("Alchemy"))
    build_points = forms.IntegerField(min_value=0, max_value=bounds.MAX_BUILD_POINTS, label=_("Build points"))


class CommanderEditForm(SentenceErrors, OnceForm):
    name = forms.CharField(max_length=120, label=_("Name"))
    membership = forms.ModelChoiceField(
        queryset=None, label=_("Run by"), help_text=_("A player for a PC; you for an NPC.")
    )
    kind = forms.ChoiceField(choices=Commander.Kind.choices, label=_("PC or NPC"))
    role = forms.ChoiceField(choices=COMMANDER_ROLES, label=_("Class (power)"))
    path = forms.ChoiceField(choices=Path.choices, label=_("Path (benefit)"))
    progression = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_PROGRESSION, label=_("Progression"), help_text=_("Non-bonus progression.")
    )
    favors = forms.IntegerField(min_value=0, max_value=bounds.MAX_FAVORS, label=_("Favors"))
    influence = forms.DecimalField(
        min_value=0,
        max_value=Decimal(bounds.MAX_INFLUENCE_HALVES) / 2,
        step_size=Decimal("0.5"),
        decimal_places=1,
        label=_("Influence"),
        help_text=_("In steps of 0.5."),
    )
    based_on = forms.CharField(widget=forms.HiddenInput, max_length=40)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["membership"]
        field.queryset = Membership.objects.filter(campaign=campaign).select_related("user").order_by("role", "pk")
        field.label_from_instance = lambda m: f"{m.display_name} ({m.get_role_display()})"

    @classmethod
    def initial_for(cls, commander: Commander, fingerprint: str) -> dict:
        values = commander_values(commander)
        values["influence"] = Decimal(values.pop("influence_halves")) / 2
        return {**values, "based_on": fingerprint}

    def service_arguments(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("submission", None)
        data["influence_halves"] = int(data.pop("influence") * 2)
        return data


class RetireForm(SentenceErrors, OnceForm):
    reason = forms.CharField(max_length=200, label=_("Why it retires"))


class UnitRemoveForm(SentenceErrors, OnceForm):
    how = forms.ChoiceField(
        choices=[("dismissed", _("Dismiss (sent away)")), ("released", _("Release (let go for a story reason)"))],
        widget=forms.RadioSelect,
        initial="dismissed",
        label=_("How it leaves"),
    )
    reason = forms.CharField(
        max_length=200, label=_("Reason"), help_text=_("The player reads it in the roster's history.")
    )
