"""The GM sets up a battle: the two armies, their units, the Base, the dice and who plays each side."""

from __future__ import annotations

from django import forms

from campaign import bounds
from campaign.submissions import OnceForm
from muster.forms import SentenceErrors


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
