"""The form that opens a table, the base of every game's (``games.py``): who sits where (members, guests,
computer players), the preview above the button, and the stakes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.models import Account, Membership
from campaign.submissions import MISSING, OnceForm

from ..computer.strengths import STRENGTHS, computer_names
from ..engines import get_engine
from ..models import Stake
from ..services.stakes import StakeTerms, stakes_refusals
from ..services.tables import SeatSpec

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
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=_("Guests"),
        help_text=_("One guest name per line."),
    )
    # Computer players (issue 16): guest seats the computer plays, after the members and guests.
    computers = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=5,
        initial=0,
        label=_("Computer players"),
        help_text=_(
            "Seats the computer plays, after the members and guests; the GM can hand any seat to the "
            "computer, or back, during the game."
        ),
    )
    computer_strength = forms.ChoiceField(
        choices=[(strength, STRENGTH_LABELS[strength]) for strength in STRENGTHS],
        initial="normal",
        required=False,
        label=_("Computer strength"),
        help_text=_("Quick answers at once; strong thinks longest and plays best."),
    )
    # Stakes: see the "stakes" block below.
    entry_fee = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=bounds.MAX_COINS,
        label=_("Entry fee per member"),
        help_text=_(
            "Coins each seated member pays in when the table opens; empty or 0: no stakes. Guests play without stakes."
        ),
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
        return gettext(get_engine(self.game).TITLE)  # the game's name as its table choice says it

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
                "count": count,
                "seats": seats,
                "fewer": count - high,
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
