from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS

from campaign import bounds
from campaign.models import Membership
from campaign.submissions import MISSING, OnceForm

from .models import COMMANDER_ROLES, Path, UnitCard


class SentenceErrors:
    """Turn a form's errors into one sentence for a flash message."""

    def error_sentence(self) -> str:
        parts = []
        for field, errors in self.errors.items():
            label = self.fields[field].label if field in self.fields else ""
            parts.extend(f"{label}: {error}" if label else str(error) for error in errors)
        return " ".join(parts) or "Please check the form."


class _Shown:
    """A hidden field holding what the page showed; a post without it is refused with ``old_page``."""

    def __init__(self, *, old_page: str, **kwargs) -> None:
        kwargs.setdefault("widget", forms.HiddenInput)
        super().__init__(**kwargs)
        self.error_messages = {**self.error_messages, "required": old_page, "invalid": old_page}


class ShownNumber(_Shown, forms.IntegerField):
    """A number the page showed (a price)."""


class ShownDigest(_Shown, forms.CharField):
    """A digest of the values the page showed (``armies.services.values_digest``)."""


class PinnedForm(SentenceErrors, OnceForm):
    """A form that carries the state its page was made from (CONVENTIONS 14b) in ``Shown*`` fields.

    The service compares it with the locked row and refuses a changed one (``StaleForm``). A post
    without it comes from a page made before the pin, or by hand: refused with the field's sentence
    asking to reload, as a form-wide error since the field is hidden (only one reload sentence:
    a post that also lacks its token says so once).
    """

    def _post_clean(self) -> None:
        super()._post_clean()
        errors = self._errors.setdefault(NON_FIELD_ERRORS, self.error_class(error_class="nonfield"))
        for name, field in self.fields.items():
            if isinstance(field, _Shown) and name in self._errors:
                shown_errors = self._errors.pop(name)
                if MISSING not in errors:
                    errors.extend(shown_errors)
        if not errors:
            del self._errors[NON_FIELD_ERRORS]


class BuyForm(PinnedForm):
    """A Recruit button: its one-time token and the price it showed (ruling E14)."""

    price = ShownNumber(
        min_value=0,
        max_value=bounds.MAX_COINS,
        old_page="This Recruit button comes from an older page that did not say its price: nothing was charged. "
        "Reload the page and recruit again.",
    )


class OfferForm(SentenceErrors, OnceForm):
    card = forms.ModelChoiceField(queryset=UnitCard.objects.filter(active=True).order_by("name"), label="Unit")
    price = forms.IntegerField(min_value=0, max_value=bounds.MAX_COINS, initial=0)
    quantity = forms.IntegerField(min_value=1, max_value=bounds.MAX_OFFER_QUANTITY, initial=1)
    until_day = forms.IntegerField(min_value=1, max_value=bounds.MAX_DAY, required=False, label="Until day")
    quest = forms.CharField(max_length=200, required=False, help_text="For a quest unit: what must be done.")


class TrainForm(SentenceErrors, OnceForm):
    pay_with = forms.ChoiceField(choices=[("items", "Item cards"), ("build_points", "Build points")], label="Pay with")
    weapons = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS, initial=0, required=False)
    shields = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS, initial=0, required=False)
    alchemy = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS, initial=0, required=False)

    def clean(self):
        cleaned = super().clean()
        for name in ("weapons", "shields", "alchemy"):
            cleaned[name] = cleaned.get(name) or 0
        return cleaned


class AdjustForm(SentenceErrors, OnceForm):
    amount = forms.IntegerField(
        min_value=-bounds.MAX_COINS, max_value=bounds.MAX_COINS, help_text="Positive credits, negative debits."
    )
    reason = forms.CharField(max_length=240)

    def clean_amount(self) -> int:
        if self.cleaned_data["amount"] == 0:
            raise forms.ValidationError("Enter an amount other than 0.")
        return self.cleaned_data["amount"]


class CommanderForm(SentenceErrors, OnceForm):
    name = forms.CharField(max_length=120)
    membership = forms.ModelChoiceField(queryset=None, label="Run by", help_text="A player for a PC; you for an NPC.")
    kind = forms.ChoiceField(choices=[("pc", "Player character"), ("npc", "Non-player character")])
    role = forms.ChoiceField(choices=COMMANDER_ROLES)
    path = forms.ChoiceField(choices=Path.choices)
    progression = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_PROGRESSION, initial=0, help_text="Non-bonus progression."
    )
    favors = forms.IntegerField(min_value=0, max_value=bounds.MAX_FAVORS, initial=0)
    influence_halves = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_INFLUENCE_HALVES, initial=0, label="Influence (in halves)"
    )
    opening_balance = forms.IntegerField(min_value=0, max_value=bounds.MAX_COINS, initial=0)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["membership"]
        field.queryset = Membership.objects.filter(campaign=campaign).select_related("user")
        field.label_from_instance = lambda m: f"{m.display_name} ({m.get_role_display()})"


class ItemsForm(SentenceErrors, OnceForm):
    weapons = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS)
    shields = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS)
    alchemy = forms.IntegerField(min_value=0, max_value=bounds.MAX_ITEM_CARDS)
    build_points = forms.IntegerField(min_value=0, max_value=bounds.MAX_BUILD_POINTS)


def _unit_label(unit) -> str:
    card = unit.card
    strength = "—" if card.strength is None else card.strength + (1 if unit.trained else 0)
    trained = ", trained" if unit.trained else ""
    return f"{card.name} (Strength {strength}{trained}, {card.get_role_display()}, upkeep {card.upkeep})"


# Who plays a side of a battle: its commander's player (or the GM, hot-seat, for an NPC), or the
# computer at a strength (tabletop.computer, ruling BOT31).
PLAYED_BY = [
    ("", "A person (the player, or the GM for an NPC)"),
    ("quick", "The computer: quick"),
    ("normal", "The computer: normal"),
    ("strong", "The computer: strong"),
]


class BattleForm(SentenceErrors, OnceForm):
    """The GM sets up a battle: the two armies, their units (all by default), the Base and the dice.

    The commanders and units come in as lists already read by the view, so the form adds no query.
    """

    attacker = forms.TypedChoiceField(coerce=int, label="Attacker")
    defender = forms.TypedChoiceField(coerce=int, label="Defender")
    attacker_units = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="The attacker's units"
    )
    defender_units = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="The defender's units"
    )
    defending = forms.ChoiceField(
        choices=[("defender", "The defender defends its Base"), ("attacker", "The attacker fights at its own Base"),
                 ("", "Nobody defends a Base")],
        required=False,
        initial="defender",
        label="Base",
    )
    base_morale = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_BASE_MORALE, initial=0, label="Base bonus Morale"
    )
    dice = forms.ChoiceField(
        choices=[("app", "App dice (rolled by Muster)"), ("physical", "Physical dice (the GM types each roll)")],
        initial="app",
        widget=forms.RadioSelect,
    )
    attacker_plays = forms.ChoiceField(choices=PLAYED_BY, required=False, label="Who plays the attacker")
    defender_plays = forms.ChoiceField(choices=PLAYED_BY, required=False, label="Who plays the defender")
    override_reason = forms.CharField(
        max_length=240, required=False, label="Open it anyway because",
        help_text="Only to open a battle despite a lock: the reason is kept with the battle.",
    )

    def __init__(self, *args, commanders, units: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.commanders = {commander.pk: commander for commander in commanders}
        choices = [("", "—")] + [(c.pk, f"{c.name} ({c.get_kind_display()})") for c in commanders]
        self.fields["attacker"].choices = self.fields["defender"].choices = choices
        for side in ("attacker", "defender"):
            chosen = self._chosen(side)
            self.fields[f"{side}_units"].choices = [
                (unit.pk, _unit_label(unit)) for unit in units.get(chosen, [])
            ]

    def _chosen(self, side: str) -> int | None:
        raw = self.data.get(side) if self.is_bound else self.initial.get(side)
        try:
            return int(raw)
        except (TypeError, ValueError):
            return None

    def clean(self):
        cleaned = super().clean()
        attacker, defender = cleaned.get("attacker"), cleaned.get("defender")
        if attacker is not None and attacker == defender:
            raise forms.ValidationError("Choose two different armies.")
        cleaned["defending"] = cleaned.get("defending") or None
        return cleaned

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        return {
            "attacker": self.commanders[data["attacker"]],
            "defender": self.commanders[data["defender"]],
            "attacker_units": data["attacker_units"],
            "defender_units": data["defender_units"],
            "defending": data["defending"],
            "base_morale": data["base_morale"],
            "dice": data["dice"],
            "override_reason": data["override_reason"],
            "computers": (data.get("attacker_plays") or "", data.get("defender_plays") or ""),
        }
