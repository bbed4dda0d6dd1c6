"""The GM's form to fork a what-if at a move: for the GM alone or for the same players."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.submissions import OnceForm


class ForkForm(OnceForm):
    """Fork at a move, for the GM alone (the real deal) or for the same players (dealt anew; ruling WI10)."""

    GM_ONLY, PLAYERS = "gm", "players"
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    who = forms.ChoiceField(
        choices=[
            (GM_ONLY, _("Only me, on this tablet: the real deal, no seat links")),
            (PLAYERS, _("The same players: the cards nobody at the table could see are dealt anew")),
        ],
        initial=GM_ONLY,
        required=False,
        widget=forms.RadioSelect,
        label=_("Who plays this what-if"),
    )

    def clean_who(self) -> str:
        return self.cleaned_data.get("who") or self.GM_ONLY
