"""Forms that open a table: who sits where, and each game's options."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.models import Account, Membership
from campaign.submissions import MISSING, OnceForm

from .catalog.snapshot import gridaris_config_cards, gridaris_scenario_choices, mercenarium_config_catalog
from .catalog.starter_dungeon import dungeon_adventure_choices, dungeon_config_adventure, dungeon_config_cards
from .computer.strengths import STRENGTHS, computer_names
from .engines import get_engine
from .models import Stake
from .services import abandon
from .services.stakes import StakeTerms, stakes_refusals
from .services.tables import SeatSpec

MAP_CHOICES = [
    ("", _("Decide at the table if two board shapes are drawn")),
    ("earthquake", _("Earthquake (2×8)")),
    ("tremor", _("Tremor (S/Z shape)")),
    ("two_islands", _("Two Islands (two 2×4)")),
]
# The computer's strengths as the form offers them.
STRENGTH_LABELS = {"quick": _("Quick"), "normal": _("Normal"), "strong": _("Strong")}


class TableForm(OnceForm):
    """Seats: campaign members, then guests who join by secret link."""

    min_seats = 2
    max_seats = 5

    title = forms.CharField(max_length=120, label=_("Title"))
    members = forms.ModelMultipleChoiceField(
        queryset=Membership.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Members"),
        help_text=_("Members sit in the order listed, then guests."),
    )
    guests = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), label=_("Guests"),
        help_text=_("One guest name per line."),
    )
    # Computer players (issue 16): guest seats the computer plays, after the members and guests.
    computers = forms.IntegerField(
        required=False, min_value=0, max_value=5, initial=0, label=_("Computer players"),
        help_text=_("Seats the computer plays, after the members and guests; the GM can hand any seat to the "
                    "computer, or back, during the game."),
    )
    computer_strength = forms.ChoiceField(
        choices=[(strength, STRENGTH_LABELS[strength]) for strength in STRENGTHS], initial="normal", required=False,
        label=_("Computer strength"), help_text=_("Quick answers at once; strong thinks longest and plays best."),
    )
    # Stakes: see the "stakes" block below.
    entry_fee = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=bounds.MAX_COINS,
        label=_("Entry fee per member"),
        help_text=_("Coins each seated member pays in when the table opens; empty or 0: no stakes. "
                    "Guests play without stakes."),
    )
    payout = forms.ChoiceField(choices=Stake.Payout.choices, required=False, label=_("The pot"))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["members"].queryset = Membership.objects.filter(campaign=campaign).select_related("user")
        self.fields["members"].label_from_instance = lambda m: f"{m.display_name} ({m.get_role_display()})"
        self._add_stake_account_fields()

    def clean_guests(self) -> list[str]:
        return [name.strip()[:60] for name in self.cleaned_data["guests"].splitlines() if name.strip()]

    def clean(self):
        cleaned = super().clean()
        self._clean_stakes(cleaned)
        count = len(cleaned.get("members") or []) + len(cleaned.get("guests") or []) + (cleaned.get("computers") or 0)
        if not self.min_seats <= count <= self.max_seats:
            sentence = gettext("This game seats %(range)s; you chose %(count)s.")
            raise forms.ValidationError(sentence % {"range": self.seat_range(), "count": count})
        return cleaned

    # --- the preview above the button (issue 15): which game, how many seats, who sits where ---------
    game = ""  # the engine's name, set by each game's form
    seat_note = _("Members sit in the order listed above, then guests in the order typed.")

    def game_title(self) -> str:
        return get_engine(self.game).TITLE

    def seat_range(self) -> str:
        if self.min_seats == self.max_seats:
            return ngettext("%(count)s player", "%(count)s players", self.min_seats) % {"count": self.min_seats}
        return gettext("%(low)s to %(high)s players") % {"low": self.min_seats, "high": self.max_seats}

    def typed_guests(self) -> list[str]:
        """The guest names as typed so far (a re-shown form), for the preview; cleaning does the rest."""
        raw = self.data.get(self.add_prefix("guests"), "") if self.is_bound else ""
        return [name.strip()[:60] for name in raw.splitlines() if name.strip()]

    # What stops the table from opening, for the top of the preview: the form's own errors (the seat count,
    # the stakes' refusals from ``stakes_refusals``, each game's checks), so the preview never says "ready
    # to open" for a form its clean refuses. The title is the browser's to ask for (``required``).
    PREVIEW_SKIPS = frozenset({"title", "submission"})

    def preview_problems(self) -> list[str]:
        if not self.is_bound or self.is_valid():
            return []
        problems = []
        for name, errors in self.errors.items():
            if name not in self.PREVIEW_SKIPS:
                problems += [str(error) for error in errors if str(error) not in problems]
        return [problem for problem in problems if problem != MISSING]

    def seat_count(self) -> int:
        if not self.is_bound:
            return 0
        cleaned = getattr(self, "cleaned_data", {})
        return len(cleaned.get("members") or []) + len(cleaned.get("guests") or []) + (cleaned.get("computers") or 0)

    def preview_count(self) -> str:
        """The line under the seats: the server's word on a re-shown form or an htmx preview."""
        count, low, high = self.seat_count(), self.min_seats, self.max_seats
        seats = f"{low}" if low == high else gettext("%(low)s to %(high)s") % {"low": low, "high": high}
        if not self.is_bound or count == 0:
            return gettext("No seats chosen yet: tick members or type guests above.")
        if count < low:
            return ngettext(
                "%(count)s seat chosen; this game seats %(seats)s: add %(more)s more.",
                "%(count)s seats chosen; this game seats %(seats)s: add %(more)s more.",
                count,
            ) % {"count": count, "seats": seats, "more": low - count}
        # Below, ``count`` is at least the game's fewest seats (two): always more than one.
        if count > high:
            return gettext("%(count)s seats chosen; this game seats %(seats)s: remove %(fewer)s.") % {
                "count": count, "seats": seats, "fewer": count - high,
            }
        if self.preview_problems():
            return gettext("%(count)s seats, but not ready to open: see above.") % {"count": count}
        return gettext("%(count)s seats: ready to open.") % {"count": count}

    # --- end of the preview ----------------------------------------------------------------------

    def typed_computers(self) -> list[dict]:
        """The computer seats asked for so far (a re-shown form), for the preview: name and strength."""
        if not self.is_bound:
            return []
        try:
            count = int(self.data.get(self.add_prefix("computers")) or 0)
        except ValueError:
            return []
        count = max(0, min(count, self.fields["computers"].max_value))
        strength = self.data.get(self.add_prefix("computer_strength")) or "normal"
        strength = strength if strength in STRENGTHS else "normal"
        return [{"name": name, "strength": strength} for name in computer_names(count)]

    def seat_specs(self) -> list[SeatSpec]:
        members = [SeatSpec(membership=m) for m in self.cleaned_data["members"]]
        guests = [SeatSpec(guest_name=name) for name in self.cleaned_data["guests"]]
        strength = self.cleaned_data.get("computer_strength") or "normal"
        computers = [
            SeatSpec(guest_name=name, bot=strength) for name in computer_names(self.cleaned_data.get("computers") or 0)
        ]
        return members + guests + computers

    # --- stakes (issue 6; docs/rulings.md S1-S2) ------------------------------------
    # One "stake_account_<membership pk>" choice per member who owns an account: which of
    # their accounts pays the fee and takes any winnings. Left empty, a member's only account is used.

    def _add_stake_account_fields(self) -> None:
        self._stake_accounts_by_owner: dict[int, list[Account]] = {}
        owned = (
            Account.objects.filter(campaign=self.campaign, owner__isnull=False)
            .select_related("owner__user")
            .order_by("owner__role", "owner__user__username", "name")
        )
        for account in owned:
            self._stake_accounts_by_owner.setdefault(account.owner_id, []).append(account)
        for accounts in self._stake_accounts_by_owner.values():
            owner = accounts[0].owner
            self.fields[f"stake_account_{owner.pk}"] = forms.TypedChoiceField(
                choices=[("", gettext("Their only account") if len(accounts) == 1 else gettext("Choose…"))]
                + [(account.pk, account.name) for account in accounts],
                coerce=int,
                required=False,
                label=gettext("%(name)s stakes from") % {"name": owner.display_name},
            )

    def stake_fields(self) -> list:
        return [field for field in self if field.name in {"entry_fee", "payout"} or field.name.startswith("stake_")]

    def other_fields(self) -> list:
        staked = {field.name for field in self.stake_fields()}
        return [field for field in self if field.name not in staked]

    def _clean_stakes(self, cleaned: dict) -> None:
        """The stakes' own check (``stakes_refusals``, shared with the service) on the ticked members; its
        sentences go on the entry fee and, through ``preview_problems``, to the top of the preview."""
        self._stake_terms = None
        if not cleaned.get("entry_fee"):
            return
        members = cleaned.get("members") or []
        refusals = stakes_refusals(
            members=[member.display_name for member in members],
            without_account=[m.display_name for m in members if not self._stake_accounts_by_owner.get(m.pk)],
        )
        for refusal in refusals:
            self.add_error("entry_fee", refusal)
        if refusals:
            return
        accounts = {}
        for member in members:
            owned = {account.pk: account for account in self._stake_accounts_by_owner[member.pk]}
            chosen = cleaned.get(f"stake_account_{member.pk}")
            if chosen in owned:
                accounts[member.pk] = owned[chosen]
            elif len(owned) == 1:
                accounts[member.pk] = next(iter(owned.values()))
            else:
                self.add_error(
                    f"stake_account_{member.pk}",
                    gettext("Choose which account %(name)s stakes from.") % {"name": member.display_name},
                )
        if len(accounts) == len(members):
            payout = cleaned.get("payout") or Stake.Payout.WINNER_TAKES_ALL
            self._stake_terms = StakeTerms(entry_fee=cleaned["entry_fee"], payout=payout, accounts=accounts)

    def stake_terms(self) -> StakeTerms | None:
        return self._stake_terms

    # --- end of stakes ----------------------------------------------------------------------


class GridarisTableForm(TableForm):
    game = "gridaris"
    mode = forms.ChoiceField(
        choices=[("standard", _("Standard play")), ("enhanced", _("Enhanced play (two scenarios)"))],
        initial="standard", label=_("Mode"),
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
        min_value=0, max_value=bounds.MAX_SERIES_GAME, initial=0, label=_("Game of the series"),
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


TABLE_FORMS = {"gridaris": GridarisTableForm, "gotm": GotmTableForm}
TABLE_FORMS["mercenarium"] = MercenariumTableForm


class DungeonTableForm(TableForm):
    """Mercenaries, the dungeon deck-builder: the rulebook's game types.

    3 or 4 players: competitive or co-operative. 2 players: two mercenaries each, as "2 Pairs"
    (the 4-player co-operative set-up, played competitively or co-operatively) or "4 Singles"
    (4-player competitive). With a Deck Master (the last seat): 5 players (four mercenaries)
    or 3 (two players with two mercenaries each, co-operative, against the DM).
    """

    min_seats, max_seats = 2, 5
    game = "dungeon"
    seat_note = _("Two players lead two mercenaries each; three or four players one each. With a Deck Master "
                  "the last seat is the Deck Master (3 or 5 players).")

    mode = forms.ChoiceField(choices=[("competitive", _("Competitive")), ("cooperative", _("Co-operative"))],
                             initial="competitive", label=_("Mode"))
    variant = forms.ChoiceField(
        choices=[("pairs", _("2 Pairs (two players)")), ("singles", _("4 Singles (two players, competitive)"))],
        initial="pairs", required=False, label=_("Two-player game"),
    )
    deck_master = forms.BooleanField(
        required=False, label=_("The last seat is the Deck Master"),
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
        config = {"mode": self.cleaned_data["mode"], "deck_master": bool(self.cleaned_data["deck_master"]),
                  **self._catalog}
        if self.cleaned_data.get("variant"):
            config["variant"] = self.cleaned_data["variant"]
        return config


TABLE_FORMS["dungeon"] = DungeonTableForm


# --- the GM's other table forms ------------------------------------------------------------------

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
            (KEEP, _("Keep the result so far: Killed cards leave the rosters and every unit that took part "
                     "is used today (upkeep). Nobody wins; nobody is routed.")),
        ],
    )
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args, can_keep_result: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not can_keep_result:
            del self.fields["outcome"]


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
