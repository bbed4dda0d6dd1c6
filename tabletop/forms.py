"""Forms that open a table: who sits where, and each game's options."""

from __future__ import annotations

from django import forms

from campaign.models import Membership

from .catalogs import gridaris_config_cards, gridaris_scenario_choices
from .services import SeatSpec

MAP_CHOICES = [
    ("", "Decide at the table if two board shapes are drawn"),
    ("earthquake", "Earthquake (2×8)"),
    ("tremor", "Tremor (S/Z shape)"),
    ("two_islands", "Two Islands (two 2×4)"),
]


class TableForm(forms.Form):
    """Seats: campaign members, then guests who join by secret link."""

    min_seats = 2
    max_seats = 5

    title = forms.CharField(max_length=120)
    members = forms.ModelMultipleChoiceField(
        queryset=Membership.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Members sit in the order listed, then guests.",
    )
    guests = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), help_text="One guest name per line."
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["members"].queryset = Membership.objects.filter(campaign=campaign).select_related("user")
        self.fields["members"].label_from_instance = lambda m: f"{m.display_name} ({m.get_role_display()})"

    def clean_guests(self) -> list[str]:
        return [name.strip()[:60] for name in self.cleaned_data["guests"].splitlines() if name.strip()]

    def clean(self):
        cleaned = super().clean()
        count = len(cleaned.get("members") or []) + len(cleaned.get("guests") or [])
        if not self.min_seats <= count <= self.max_seats:
            raise forms.ValidationError(
                f"This game seats {self.min_seats} to {self.max_seats} players; you chose {count}."
            )
        return cleaned

    def seat_specs(self) -> list[SeatSpec]:
        members = [SeatSpec(membership=m) for m in self.cleaned_data["members"]]
        return members + [SeatSpec(guest_name=name) for name in self.cleaned_data["guests"]]


class GridarisTableForm(TableForm):
    mode = forms.ChoiceField(
        choices=[("standard", "Standard play"), ("enhanced", "Enhanced play (two scenarios)")], initial="standard"
    )
    scenarios = forms.MultipleChoiceField(
        choices=(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Enhanced play: tick two, or none to draw two at random.",
    )
    map = forms.ChoiceField(choices=MAP_CHOICES, required=False, label="Board shape")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenarios"].choices = gridaris_scenario_choices()

    def clean(self):
        cleaned = super().clean()
        chosen = cleaned.get("scenarios") or []
        if chosen and cleaned.get("mode") != "enhanced":
            self.add_error("scenarios", "Scenarios are only used in enhanced play.")
        elif chosen and len(chosen) != 2:
            self.add_error("scenarios", "Tick exactly two scenarios, or none to draw them at random.")
        return cleaned

    def engine_config(self) -> dict:
        config = {"mode": self.cleaned_data["mode"], "cards": gridaris_config_cards()}
        if self.cleaned_data["scenarios"]:
            config["scenarios"] = list(self.cleaned_data["scenarios"])
        if self.cleaned_data["map"]:
            config["map"] = self.cleaned_data["map"]
        return config


TABLE_FORMS = {"gridaris": GridarisTableForm}
