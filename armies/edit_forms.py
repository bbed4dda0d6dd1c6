"""The GM's correction forms: edit or retire a commander, remove a unit or correct its training,
edit or withdraw an offer. Each carries a one-time token (``OnceForm``) and the bounds of
``campaign/bounds.py``; the services check them again."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from campaign import bounds
from campaign.models import Membership
from campaign.submissions import OnceForm

from .forms import PinnedForm, SentenceErrors, ShownDigest
from .models import COMMANDER_ROLES, Commander, Path
from .services.commander_edits import commander_values
from .services.recruiting import offer_digest, offer_values


class CommanderEditForm(SentenceErrors, OnceForm):
    name = forms.CharField(max_length=120)
    membership = forms.ModelChoiceField(queryset=None, label="Run by", help_text="A player for a PC; you for an NPC.")
    kind = forms.ChoiceField(choices=Commander.Kind.choices, label="PC or NPC")
    role = forms.ChoiceField(choices=COMMANDER_ROLES, label="Class (power)")
    path = forms.ChoiceField(choices=Path.choices, label="Path (benefit)")
    progression = forms.IntegerField(min_value=0, max_value=bounds.MAX_PROGRESSION, help_text="Non-bonus progression.")
    favors = forms.IntegerField(min_value=0, max_value=bounds.MAX_FAVORS, label="Favors")
    influence = forms.DecimalField(
        min_value=0,
        max_value=Decimal(bounds.MAX_INFLUENCE_HALVES) / 2,
        step_size=Decimal("0.5"),
        decimal_places=1,
        label="Influence",
        help_text="In steps of 0.5.",
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
    reason = forms.CharField(max_length=200, label="Why it retires")


class UnitRemoveForm(SentenceErrors, OnceForm):
    how = forms.ChoiceField(
        choices=[("dismissed", "Dismiss (sent away)"), ("released", "Release (let go for a story reason)")],
        widget=forms.RadioSelect,
        initial="dismissed",
        label="How it leaves",
    )
    reason = forms.CharField(max_length=200, label="Reason", help_text="The player reads it in the roster's history.")


class TrainingCorrectForm(SentenceErrors, OnceForm):
    trained = forms.TypedChoiceField(
        choices=[("1", "Trained"), ("0", "Not trained")], coerce=lambda value: value == "1", label="Set to"
    )
    reason = forms.CharField(
        max_length=200,
        label="Reason",
        help_text="No coins or item cards move: adjust the treasury or the items separately if needed.",
    )


class OfferEditForm(PinnedForm):
    price = forms.IntegerField(min_value=0, max_value=bounds.MAX_COINS)
    quantity = forms.IntegerField(min_value=1, max_value=bounds.MAX_OFFER_QUANTITY)
    until_day = forms.IntegerField(
        min_value=1, max_value=bounds.MAX_DAY, required=False, label="Last day", help_text="Empty: no limit."
    )
    quest = forms.CharField(max_length=200, required=False, help_text="For a quest unit: what must be done.")
    based_on = ShownDigest(
        max_length=40,
        old_page="This offer form comes from an older page: nothing was saved. Reload the page and make your change "
        "again.",
    )

    def __init__(self, *args, offer, **kwargs):
        super().__init__(*args, **kwargs)
        self.sold = offer.sold
        if offer.sold:
            self.fields["quantity"].widget.attrs["min"] = offer.sold
            self.fields["quantity"].help_text = f"{offer.sold} recruited already: not below {offer.sold}."

    @classmethod
    def fresh(cls, offer) -> OfferEditForm:
        """The form as the offer is now, pinned to it."""
        return cls(initial={**offer_values(offer), "based_on": offer_digest(offer)}, offer=offer)

    def clean_quantity(self) -> int:
        quantity = self.cleaned_data["quantity"]
        if quantity < self.sold:
            raise forms.ValidationError(
                f"{self.sold} were recruited already: the quantity cannot go below {self.sold}."
            )
        return quantity


class WithdrawForm(SentenceErrors, OnceForm):
    reason = forms.CharField(max_length=200, required=False, label="Why (optional)")
