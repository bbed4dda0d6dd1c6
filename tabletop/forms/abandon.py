"""The GM's form to abandon a table: why, and what happens to the armies."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.submissions import OnceForm

from ..services import abandon

RELEASE, KEEP = "release", "keep"


class AbandonForm(OnceForm):
    reason = forms.CharField(
        max_length=abandon.MAX_REASON,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=_("Reason"),
        help_text=_("The players read it on the table page."),
    )
    outcome = forms.ChoiceField(
        label=_("What happens to the armies"),
        widget=forms.RadioSelect,
        initial=RELEASE,
        choices=[
            (RELEASE, _("Release the units: nothing is written to the rosters (no kills, no units used, no upkeep).")),
            (
                KEEP,
                _(
                    "Keep the result so far: Killed cards leave the rosters and every unit that took part "
                    "is used today (upkeep). Nobody wins; nobody is routed."
                ),
            ),
        ],
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args, can_keep_result: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not can_keep_result:
            del self.fields["outcome"]
