"""Training a unit (its player pays with item cards or build points), and the GM's correction of it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.submissions import OnceForm
from muster.forms import SentenceErrors


class TrainForm(SentenceErrors, OnceForm):
    pay_with = forms.ChoiceField(
        choices=[("items", _("Item cards")), ("build_points", _("Build points"))], label=_("Pay with")
    )
    weapons = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_ITEM_CARDS, initial=0, required=False, label=_("Weapons")
    )
    shields = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_ITEM_CARDS, initial=0, required=False, label=_("Shields")
    )
    alchemy = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_ITEM_CARDS, initial=0, required=False, label=_("Alchemy")
    )

    def clean(self):
        cleaned = super().clean()
        for name in ("weapons", "shields", "alchemy"):
            cleaned[name] = cleaned.get(name) or 0
        return cleaned


class TrainingCorrectForm(SentenceErrors, OnceForm):
    trained = forms.TypedChoiceField(
        choices=[("1", _("Trained")), ("0", _("Not trained"))], coerce=lambda value: value == "1", label=_("Set to")
    )
    reason = forms.CharField(
        max_length=200,
        label=_("Reason"),
        help_text=_("No coins or item cards move: adjust the treasury or the items separately if needed."),
    )
