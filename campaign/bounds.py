"""The bounds of every number a person types, in one place (CONVENTIONS 14c).

Each bound is enforced three times: the form (a message next to the field), the service (a
domain error with a sentence) and the database (a CheckConstraint), plus the model field's
validators so the admin and catalog imports (``full_clean()``) refuse it too. The figures are
generous for a LARP campaign and far below what any column or SUM could overflow: a ledger
entry is at most a billion coins, so even a billion entries sum far inside a 64-bit integer,
and every small-integer column stays below 32767 on every database.

The figures and their reasons: docs/rulings.md N1; old rows beyond them: N2.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import CheckConstraint, Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from muster.refusals import Refusal

# --- money -------------------------------------------------------------------------------------------
MAX_COINS = 1_000_000  # a price, an upkeep, an entry fee, an opening balance, one GM adjustment (either sign)
MAX_LEDGER_AMOUNT = 1_000_000_000  # one ledger entry of any kind: a pot of five fees, a day's upkeep

# --- time --------------------------------------------------------------------------------------------
MAX_DAY = 100_000  # a campaign day (a day number, the last day of an offer)
MAX_COOLDOWN_MINUTES = 7 * 24 * 60  # how long two armies wait between battles (a week)

# --- commanders --------------------------------------------------------------------------------------
MAX_PROGRESSION = 1_000
MAX_FAVORS = 1_000
MAX_INFLUENCE_HALVES = 2_000
MAX_ITEM_CARDS = 10_000  # weapons, shields, alchemy held for training
MAX_BUILD_POINTS = 1_000_000

# --- catalogs and offers -----------------------------------------------------------------------------
MAX_STRENGTH = 100  # a unit card's printed Strength
MAX_OFFER_QUANTITY = 10_000
MAX_BASE_MORALE = 20
MAX_SERIES_GAME = 1_000  # GOT'M: which game of a series
GRIDARIS_STARS = (1, 9)
MERCENARIUM_VALUES = (2, 15)
MERCENARIUM_DOTS = (0, 5)
MERCENARIUM_HYMN_NUMBERS = (1, 15)
MAX_CARD_COPIES = 100  # how many of a dungeon card the box holds
MAX_CARD_STAT = 1_000  # any other number on a dungeon card (health, cost, value, exp...)


class OutOfBounds(Refusal):
    """A typed number outside its bounds; the message is a sentence."""


def between(low: int, high: int) -> list:
    """The model field validators for ``low <= value <= high``."""
    return [MinValueValidator(low), MaxValueValidator(high)]


def check_between(field: str, low: int, high: int, *, name: str, nullable: bool = False) -> CheckConstraint:
    """The database's copy of a bound."""
    condition = Q(**{f"{field}__gte": low, f"{field}__lte": high})
    if nullable:
        condition |= Q(**{f"{field}__isnull": True})
    return CheckConstraint(condition=condition, name=name)


def require_between(label: str, value: int, low: int, high: int) -> int:
    """The service's copy of a bound: raises ``OutOfBounds`` with a sentence."""
    if isinstance(value, bool) or not isinstance(value, int):
        # Translators: label names the number ("The battle cooldown"); value is what was typed, as Python shows it.
        words = {"label": label, "value": repr(value)}
        raise OutOfBounds(_("%(label)s must be a whole number, not %(value)s.") % words)
    if not low <= value <= high:
        raise OutOfBounds(
            _("%(label)s must be between %(low)s and %(high)s (got %(value)s).")
            % {"label": label, "low": _grouped(low), "high": _grouped(high), "value": _grouped(value)}
        )
    return value


def _grouped(number: int) -> str:
    """A number with the language's thousands separator (1,000 in English, 1.000 in German)."""
    return number_format(number, force_grouping=True)
