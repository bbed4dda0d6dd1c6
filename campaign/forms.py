"""The GM's campaign forms: a new campaign and its settings (one-time tokens), the activity log's filter."""

from __future__ import annotations

from django import forms
from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muster import languages

from . import bounds
from .models import MAX_TIME_ZONE, Activity, Campaign, default_time_zone, time_zone_named
from .services import DEFAULTS, MAX_DESCRIPTION, MAX_NAME
from .submissions import OnceForm

SCHEDULE = "schedule"
TIME_ZONES_LIST = "time-zones"  # the id of the page's <datalist> of common zones (_time_zones.html)
# Offered in the list; any other IANA name may be typed. Those this machine's tz database lacks are left out.
COMMON_TIME_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Dublin",
    "Europe/Lisbon",
    "Europe/Paris",
    "Europe/Brussels",
    "Europe/Amsterdam",
    "Europe/Berlin",
    "Europe/Zurich",
    "Europe/Vienna",
    "Europe/Rome",
    "Europe/Madrid",
    "Europe/Copenhagen",
    "Europe/Oslo",
    "Europe/Stockholm",
    "Europe/Warsaw",
    "Europe/Prague",
    "Europe/Budapest",
    "Europe/Helsinki",
    "Europe/Athens",
    "Europe/Kyiv",
    "Europe/Istanbul",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Phoenix",
    "America/Los_Angeles",
    "America/Toronto",
    "America/Vancouver",
    "America/Mexico_City",
    "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires",
    "Africa/Johannesburg",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Australia/Perth",
    "Australia/Sydney",
    "Pacific/Auckland",
)


def common_time_zones() -> list[str]:
    return [name for name in COMMON_TIME_ZONES if time_zone_named(name) == name]


class TimeZoneField(forms.CharField):
    """An IANA time zone name, typed or picked from the common ones; any case is read ("europe/berlin")."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("max_length", MAX_TIME_ZONE)
        kwargs.setdefault(
            "widget",
            forms.TextInput(attrs={"list": TIME_ZONES_LIST, "autocomplete": "off", "spellcheck": "false"}),
        )
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        named = time_zone_named(value)
        if named is None:
            raise forms.ValidationError(
                _(
                    "This site does not know that time zone: pick one from the list or type an IANA name "
                    "such as Europe/Berlin, America/New_York or UTC."
                ),
                code="time_zone",
            )
        return named


def _cooldown_help() -> str:
    return _(
        "How long the same two armies wait before they may fight again. The rulebook says 1 hour (60); "
        "0 means no wait; at most %(max)s (a week)."
    ) % {"max": number_format(bounds.MAX_COOLDOWN_MINUTES, force_grouping=True)}


class SettingsForm(OnceForm):
    name = forms.CharField(max_length=MAX_NAME, label=gettext_lazy("Name"))
    description = forms.CharField(
        max_length=MAX_DESCRIPTION, required=False, widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Description"),
    )
    desertion = forms.ChoiceField(
        choices=Campaign.Desertion.choices,
        label=gettext_lazy("Desertion policy"),
        help_text=gettext_lazy("Who deserts when a commander cannot pay the day's upkeep."),
    )
    allow_credit = forms.BooleanField(
        required=False, label=gettext_lazy("Allow credit"), help_text=gettext_lazy("Let treasuries go below zero.")
    )
    time_zone = TimeZoneField(
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy(
            "Where the campaign is played: the day-end time and the times on its pages are read in this zone."
        ),
    )
    language = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Language"),
        help_text=gettext_lazy(
            "The language of its guests' phones, its projector and its printed sheets. A player with an "
            "account reads the language chosen on the account page."
        ),
    )
    day_end_time = forms.TimeField(
        required=False,
        label=gettext_lazy("Day-end time"),
        help_text=gettext_lazy(
            "The day ends by itself at this time of day, in the campaign's time zone (e.g. 18:00). "
            "Leave empty to end days by hand only."
        ),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"invalid": gettext_lazy("Enter a time of day such as 18:00, or leave it empty.")},
    )
    battle_cooldown_minutes = forms.IntegerField(
        min_value=0,
        max_value=bounds.MAX_COOLDOWN_MINUTES,
        label=gettext_lazy("Battle cooldown (minutes)"),
        help_text=lazy(_cooldown_help, str)(),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [("", gettext_lazy("Each browser's own")), *languages.offered()]

    @staticmethod
    def initial_for(campaign: Campaign) -> dict:
        return {
            "name": campaign.name,
            "description": campaign.description,
            "desertion": campaign.desertion,
            "allow_credit": campaign.allow_credit,
            "time_zone": campaign.time_zone,
            "language": campaign.language,
            "day_end_time": campaign.day_end_time,
            "battle_cooldown_minutes": campaign.battle_cooldown_minutes,
        }

    def settings(self) -> dict:
        """The cleaned settings, without the token."""
        return {name: value for name, value in self.cleaned_data.items() if name != "submission"}


class CampaignNewForm(SettingsForm):
    """Start a campaign: its name, description, time zone and the settings, at their defaults."""

    @staticmethod
    def initial_defaults() -> dict:
        return {"time_zone": default_time_zone(), **DEFAULTS}


class ActivityFilterForm(forms.Form):
    """Filter the activity log by kind, by who acted (a GM or the schedule) and by day."""

    kind = forms.ChoiceField(
        required=False, choices=[("", gettext_lazy("Every kind")), *Activity.Kind.choices], label=gettext_lazy("Kind")
    )
    who = forms.ChoiceField(required=False, label=gettext_lazy("Who"))
    day = forms.IntegerField(required=False, min_value=1, max_value=bounds.MAX_DAY, label=gettext_lazy("Day"))

    def __init__(self, *args, gms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["who"].choices = [
            ("", _("Everyone")),
            *((str(gm.user_id), gm.display_name) for gm in gms),
            (SCHEDULE, _("The schedule")),
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
