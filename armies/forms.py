from __future__ import annotations

from django import forms

from campaign.models import Membership

from .models import COMMANDER_ROLES, Path, UnitCard


class SentenceErrors:
    """Turn a form's errors into one sentence for a flash message."""

    def error_sentence(self) -> str:
        parts = []
        for field, errors in self.errors.items():
            label = self.fields[field].label if field in self.fields else ""
            parts.extend(f"{label}: {error}" if label else str(error) for error in errors)
        return " ".join(parts) or "Please check the form."


class OfferForm(SentenceErrors, forms.Form):
    card = forms.ModelChoiceField(queryset=UnitCard.objects.filter(active=True).order_by("name"), label="Unit")
    price = forms.IntegerField(min_value=0, initial=0)
    quantity = forms.IntegerField(min_value=1, initial=1)
    until_day = forms.IntegerField(min_value=1, required=False, label="Until day")
    quest = forms.CharField(max_length=200, required=False, help_text="For a quest unit: what must be done.")


class TrainForm(SentenceErrors, forms.Form):
    pay_with = forms.ChoiceField(choices=[("items", "Item cards"), ("build_points", "Build points")], label="Pay with")
    weapons = forms.IntegerField(min_value=0, initial=0, required=False)
    shields = forms.IntegerField(min_value=0, initial=0, required=False)
    alchemy = forms.IntegerField(min_value=0, initial=0, required=False)

    def clean(self):
        cleaned = super().clean()
        for name in ("weapons", "shields", "alchemy"):
            cleaned[name] = cleaned.get(name) or 0
        return cleaned


class AdjustForm(SentenceErrors, forms.Form):
    amount = forms.IntegerField(help_text="Positive credits, negative debits.")
    reason = forms.CharField(max_length=240)

    def clean_amount(self) -> int:
        if self.cleaned_data["amount"] == 0:
            raise forms.ValidationError("Enter an amount other than 0.")
        return self.cleaned_data["amount"]


class CommanderForm(SentenceErrors, forms.Form):
    name = forms.CharField(max_length=120)
    membership = forms.ModelChoiceField(queryset=None, label="Run by", help_text="A player for a PC; you for an NPC.")
    kind = forms.ChoiceField(choices=[("pc", "Player character"), ("npc", "Non-player character")])
    role = forms.ChoiceField(choices=COMMANDER_ROLES)
    path = forms.ChoiceField(choices=Path.choices)
    progression = forms.IntegerField(min_value=0, initial=0, help_text="Non-bonus progression.")
    favors = forms.IntegerField(min_value=0, initial=0)
    influence_halves = forms.IntegerField(min_value=0, initial=0, label="Influence (in halves)")
    opening_balance = forms.IntegerField(min_value=0, initial=0)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["membership"]
        field.queryset = Membership.objects.filter(campaign=campaign).select_related("user")
        field.label_from_instance = lambda m: f"{m.display_name} ({m.get_role_display()})"


class ItemsForm(SentenceErrors, forms.Form):
    weapons = forms.IntegerField(min_value=0)
    shields = forms.IntegerField(min_value=0)
    alchemy = forms.IntegerField(min_value=0)
    build_points = forms.IntegerField(min_value=0)
