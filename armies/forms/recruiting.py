"""Offers and the Recruit button: post, edit or withdraw an offer (the GM), buy from it at the price the
page showed (ruling E14)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.submissions import OnceForm
from muster.forms import PinnedForm, SentenceErrors, ShownDigest, ShownNumber

from ..models import UnitCard
from ..services.recruiting import offer_digest, offer_values


class BuyForm(PinnedForm, OnceForm):
    """A Recruit button: its one-time token and the price it showed (ruling E14)."""

    price = ShownNumber(
        min_value=0,
        max_value=bounds.MAX_COINS,
        old_page=_(
            "This Recruit button comes from an older page that did not say its price: nothing was charged. "
            "Reload the page and recruit again."
        ),
    )


class OfferForm(SentenceErrors, OnceForm):
    card = forms.ModelChoiceField(queryset=UnitCard.objects.filter(active=True).order_by("name"), label=_("Unit"))
    price = forms.IntegerField(min_value=0, max_value=bounds.MAX_COINS, initial=0, label=_("Price"))
    quantity = forms.IntegerField(min_value=1, max_value=bounds.MAX_OFFER_QUANTITY, initial=1, label=_("Quantity"))
    until_day = forms.IntegerField(min_value=1, max_value=bounds.MAX_DAY, required=False, label=_("Until day"))
    quest = forms.CharField(
        max_length=200, required=False, label=_("Quest"), help_text=_("For a quest unit: what must be done.")
    )


class OfferEditForm(PinnedForm, OnceForm):
    price = forms.IntegerField(min_value=0, max_value=bounds.MAX_COINS, label=_("Price"))
    quantity = forms.IntegerField(min_value=1, max_value=bounds.MAX_OFFER_QUANTITY, label=_("Quantity"))
    until_day = forms.IntegerField(
        min_value=1, max_value=bounds.MAX_DAY, required=False, label=_("Last day"), help_text=_("Empty: no limit.")
    )
    quest = forms.CharField(
        max_length=200, required=False, label=_("Quest"), help_text=_("For a quest unit: what must be done.")
    )
    based_on = ShownDigest(
        max_length=40,
        old_page=_(
            "This offer form comes from an older page: nothing was saved. Reload the page and make your change again."
        ),
    )

    def __init__(self, *args, offer, **kwargs):
        super().__init__(*args, **kwargs)
        self.sold = offer.sold
        if offer.sold:
            self.fields["quantity"].widget.attrs["min"] = offer.sold
            self.fields["quantity"].help_text = gettext("%(sold)s recruited already: not below %(sold)s.") % {
                "sold": offer.sold
            }

    @classmethod
    def fresh(cls, offer) -> OfferEditForm:
        """The form as the offer is now, pinned to it."""
        return cls(initial={**offer_values(offer), "based_on": offer_digest(offer)}, offer=offer)

    def clean_quantity(self) -> int:
        quantity = self.cleaned_data["quantity"]
        if quantity < self.sold:
            raise forms.ValidationError(
                gettext("%(sold)s were recruited already: the quantity cannot go below %(sold)s.") % {"sold": self.sold}
            )
        return quantity


class WithdrawForm(SentenceErrors, OnceForm):
    reason = forms.CharField(max_length=200, required=False, label=_("Why (optional)"))
