"""Each game's form to open a table (``TABLE_FORMS``, by engine name): its seats and its options, on top
of the shared seats, preview and stakes of ``tables.TableForm``."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign import bounds

from ..catalog.snapshot import gridaris_config_cards, gridaris_scenario_choices, mercenarium_config_catalog
from ..catalog.starter_dungeon import dungeon_adventure_choices, dungeon_config_adventure, dungeon_config_cards
from .tables import TableForm

MAP_CHOICES = [
    ("", _("Decide at the table if two board shapes are drawn")),
    ("earthquake", _("Earthquake (2×8)")),
    ("tremor", _("Tremor (S/Z shape)")),
    ("two_islands", _("Two Islands (two 2×4)")),
]


class GridarisTableForm(TableForm):
    game = "gridaris"
    mode = forms.ChoiceField(
        choices=[("standard", _("Standard play")), ("enhanced", _("Enhanced play (two scenarios)"))],
        initial="standard",
        label=_("Mode"),
    )
    scenarios = forms.MultipleChoiceField(
        choices=(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Scenarios"),
        help_text=_("Enhanced play: tick two, or none to draw two at random."),
    )
    map = forms.ChoiceField(choices=MAP_CHOICES, required=False, label=_("Board shape"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenarios"].choices = gridaris_scenario_choices()

    def clean(self):
        cleaned = super().clean()
        chosen = cleaned.get("scenarios") or []
        if chosen and cleaned.get("mode") != "enhanced":
            self.add_error("scenarios", gettext("Scenarios are only used in enhanced play."))
        elif chosen and len(chosen) != 2:
            self.add_error("scenarios", gettext("Tick exactly two scenarios, or none to draw them at random."))
        return cleaned

    def engine_config(self) -> dict:
        config = {"mode": self.cleaned_data["mode"], "cards": gridaris_config_cards()}
        if self.cleaned_data["scenarios"]:
            config["scenarios"] = list(self.cleaned_data["scenarios"])
        if self.cleaned_data["map"]:
            config["map"] = self.cleaned_data["map"]
        return config


class GotmTableForm(TableForm):
    """Mercenaries (GOT'M): two players; the dealer alternates between games of a series."""

    min_seats = max_seats = 2
    game = "gotm"
    seat_note = _("Two players. In even games of a series (0, 2, ...) the first seat deals; in odd ones the second.")

    series_game = forms.IntegerField(
        min_value=0,
        max_value=bounds.MAX_SERIES_GAME,
        initial=0,
        label=_("Game of the series"),
        help_text=_("0 for the first game; the first seat deals in even games, the second in odd ones."),
    )

    def engine_config(self) -> dict:
        return {"series_game": self.cleaned_data["series_game"]}


class MercenariumTableForm(TableForm):
    """Mercenarium: two to four players; the deck and hymns come from the active catalog."""

    min_seats, max_seats = 2, 4
    game = "mercenarium"

    def clean(self):
        cleaned = super().clean()
        try:
            self._catalog = mercenarium_config_catalog()
        except ValueError as error:
            self.add_error(None, str(error))
        return cleaned

    def engine_config(self) -> dict:
        return dict(self._catalog)


class DungeonTableForm(TableForm):
    """Mercenaries, the dungeon deck-builder: the rulebook's game types.

    3 or 4 players: competitive or co-operative. 2 players: two mercenaries each, as "2 Pairs"
    (the 4-player co-operative set-up, played competitively or co-operatively) or "4 Singles"
    (4-player competitive). With a Deck Master (the last seat): 5 players (four mercenaries)
    or 3 (two players with two mercenaries each, co-operative, against the DM).
    """

    min_seats, max_seats = 2, 5
    game = "dungeon"
    seat_note = _(
        "Two players lead two mercenaries each; three or four players one each. With a Deck Master "
        "the last seat is the Deck Master (3 or 5 players)."
    )

    mode = forms.ChoiceField(
        choices=[("competitive", _("Competitive")), ("cooperative", _("Co-operative"))],
        initial="competitive",
        label=_("Mode"),
    )
    variant = forms.ChoiceField(
        choices=[("pairs", _("2 Pairs (two players)")), ("singles", _("4 Singles (two players, competitive)"))],
        initial="pairs",
        required=False,
        label=_("Two-player game"),
    )
    deck_master = forms.BooleanField(
        required=False,
        label=_("The last seat is the Deck Master"),
        help_text=_("With 5 players (4 mercenaries), or 3 players (two pairs against the DM)."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        adventures = dungeon_adventure_choices()
        if len(adventures) > 1:  # the GM picks the adventure only when the admin has set up more than one
            self.fields["adventure"] = forms.ChoiceField(choices=adventures, label=gettext("Adventure"))

    def clean(self):
        cleaned = super().clean()
        count = len(cleaned.get("members") or []) + len(cleaned.get("guests") or []) + (cleaned.get("computers") or 0)
        if cleaned.get("deck_master") and count not in (3, 5):
            self.add_error("deck_master", gettext("A Deck Master game has 3 or 5 players."))
        if count == 5 and not cleaned.get("deck_master"):
            self.add_error("deck_master", gettext("Five players play with a Deck Master."))
        try:  # the active catalog as the engine will take it: one the admin broke is said on the form
            adventure = dungeon_config_adventure(cleaned.get("adventure"))
            self._catalog = {"cards": dungeon_config_cards(adventure), "adventure": adventure}
        except ValueError as error:
            self.add_error(None, str(error))
        return cleaned

    def engine_config(self) -> dict:
        config = {
            "mode": self.cleaned_data["mode"],
            "deck_master": bool(self.cleaned_data["deck_master"]),
            **self._catalog,
        }
        if self.cleaned_data.get("variant"):
            config["variant"] = self.cleaned_data["variant"]
        return config


TABLE_FORMS = {
    "gridaris": GridarisTableForm,
    "gotm": GotmTableForm,
    "mercenarium": MercenariumTableForm,
    "dungeon": DungeonTableForm,
}
