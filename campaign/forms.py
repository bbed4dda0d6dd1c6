"""The GM's campaign forms: the settings (a one-time token) and the activity log's filter (a GET form)."""

from __future__ import annotations

from django import forms

from . import bounds
from .models import Activity, Campaign
from .services import MAX_DESCRIPTION, MAX_NAME
from .submissions import OnceForm

SCHEDULE = "schedule"


class SettingsForm(OnceForm):
    name = forms.CharField(max_length=MAX_NAME)
    description = forms.CharField(
        max_length=MAX_DESCRIPTION, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    desertion = forms.ChoiceField(
        choices=Campaign.Desertion.choices,
        label="Desertion policy",
        help_text="Who deserts when a commander cannot pay the day's upkeep.",
    )
    allow_credit = forms.BooleanField(
        required=False, label="Allow credit", help_text="Let treasuries go below zero."
    )
    day_end_time = forms.TimeField(
        required=False,
        label="Day-end time (UTC)",
        help_text="The day ends by itself at this time, in UTC (e.g. 18:00). Leave empty to end days by hand only.",
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"invalid": "Enter a time of day such as 18:00 (UTC), or leave it empty."},
    )
    battle_cooldown_minutes = forms.IntegerField(
        min_value=0,
        max_value=bounds.MAX_COOLDOWN_MINUTES,
        label="Battle cooldown (minutes)",
        help_text=(
            "How long the same two armies wait before they may fight again. The rulebook says 1 hour (60); "
            f"0 means no wait; at most {bounds.MAX_COOLDOWN_MINUTES:,} (a week)."
        ),
    )

    @staticmethod
    def initial_for(campaign: Campaign) -> dict:
        return {
            "name": campaign.name,
            "description": campaign.description,
            "desertion": campaign.desertion,
            "allow_credit": campaign.allow_credit,
            "day_end_time": campaign.day_end_time,
            "battle_cooldown_minutes": campaign.battle_cooldown_minutes,
        }

    def settings(self) -> dict:
        """The cleaned settings, without the token."""
        return {name: value for name, value in self.cleaned_data.items() if name != "submission"}


class ActivityFilterForm(forms.Form):
    """Filter the activity log by kind, by who acted (a GM or the schedule) and by day."""

    kind = forms.ChoiceField(required=False, choices=[("", "Every kind"), *Activity.Kind.choices])
    who = forms.ChoiceField(required=False, label="Who")
    day = forms.IntegerField(required=False, min_value=1, max_value=bounds.MAX_DAY)

    def __init__(self, *args, gms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["who"].choices = [
            ("", "Everyone"),
            *((str(gm.user_id), gm.display_name) for gm in gms),
            (SCHEDULE, "The schedule"),
        ]

    def filters(self) -> dict:
        """Keyword arguments for ``activity_for``: the valid fields only (a bad one is ignored)."""
        errors = self.errors  # cleans a bound form; an unbound one has no errors and no data
        data = getattr(self, "cleaned_data", {})
        valid = {name: data.get(name) for name in ("kind", "who", "day") if name not in errors}
        who = valid.get("who") or ""
        return {
            "kind": valid.get("kind") or "",
            "day": valid.get("day"),
            "by_schedule": who == SCHEDULE,
            "actor_id": int(who) if who.isdigit() else None,
        }
