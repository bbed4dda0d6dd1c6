"""The GM sets up a battle: the two armies, their units, the Base, the dice and who plays each side."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.submissions import OnceForm
from muster.forms import SentenceErrors


def _unit_label(unit) -> str:
    card = unit.card
    strength = "—" if card.strength is None else card.strength + (1 if unit.trained else 0)
    values = {"name": card.name, "strength": strength, "role": card.get_role_display(), "upkeep": card.upkeep}
    if unit.trained:
        return gettext("%(name)s (Strength %(strength)s, trained, %(role)s, upkeep %(upkeep)s)") % values
    return gettext("%(name)s (Strength %(strength)s, %(role)s, upkeep %(upkeep)s)") % values


# Who plays a side of a battle: its commander's player (or the GM, hot-seat, for an NPC), or the
# computer at a strength (tabletop.computer, ruling BOT31).
PLAYED_BY = [
    ("", _("A person (the player, or the GM for an NPC)")),
    ("quick", _("The computer: quick")),
    ("normal", _("The computer: normal")),
    ("strong", _("The computer: strong")),
]


class BattleForm(SentenceErrors, OnceForm):
    """The GM sets up a battle: the two armies, their units (all by default), the Base and the dice.

    The commanders and units come in as lists already read by the view, so the form adds no query.
    """

    attacker = forms.TypedChoiceField(coerce=int, label=_("Attacker"))
    defender = forms.TypedChoiceField(coerce=int, label=_("Defender"))
    attacker_units = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label=_("The attacker's units")
    )
    defender_units = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label=_("The defender's units")
    )
    defending = forms.ChoiceField(
        choices=[
            ("defender", _("The defender defends its Base")),
            ("attacker", _("The attacker fights at its own Base")),
            ("", _("Nobody defends a Base")),
        ],
        required=False,
        initial="defender",
        label=_("Base"),
    )
    base_morale = forms.IntegerField(
        min_value=0, max_value=bounds.MAX_BASE_MORALE, initial=0, label=_("Base bonus Morale")
    )
    dice = forms.ChoiceField(
        choices=[("app", _("App dice (rolled by Muster)")), ("physical", _("Physical dice (the GM types each roll)"))],
        initial="app",
        label=_("Dice"),
        widget=forms.RadioSelect,
    )
    attacker_plays = forms.ChoiceField(choices=PLAYED_BY, required=False, label=_("Who plays the attacker"))
    defender_plays = forms.ChoiceField(choices=PLAYED_BY, required=False, label=_("Who plays the defender"))
    override_reason = forms.CharField(
        max_length=240,
        required=False,
        label=_("Open it anyway because"),
        help_text=_("Only to open a battle despite a lock: the reason is kept with the battle."),
    )

    def __init__(self, *args, commanders, units: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.commanders = {commander.pk: commander for commander in commanders}
        choices = [("", "—")] + [(c.pk, f"{c.name} ({c.get_kind_display()})") for c in commanders]
        self.fields["attacker"].choices = self.fields["defender"].choices = choices
        for side in ("attacker", "defender"):
            chosen = self._chosen(side)
            self.fields[f"{side}_units"].choices = [(unit.pk, _unit_label(unit)) for unit in units.get(chosen, [])]

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
            raise forms.ValidationError(gettext("Choose two different armies."))
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
