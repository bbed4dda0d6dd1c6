"""The computer's strengths, the names of its seats, and each decision's seed, budget and priority."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

from ..bots import BUDGETS
from ..engines.words import gettext_noop  # pure: marks at import without the settings (make run's loader)
from .priority import DEFAULT_NICENESS

STRENGTHS = ("quick", "normal", "strong")
# The strengths' names as the pages say them ("computer, quick"): translated where shown.
STRENGTH_NAMES = (gettext_noop("quick"), gettext_noop("normal"), gettext_noop("strong"))
COMPUTER_NAME = "Computer"


def computer_names(count: int) -> list[str]:
    """The guest names of ``count`` computer seats opened with a table: "Computer", or numbered."""
    return [COMPUTER_NAME] if count == 1 else [f"{COMPUTER_NAME} {n}" for n in range(1, count + 1)]


def strength_check(bot: str) -> str:
    if bot not in ("", *STRENGTHS):
        sentence = gettext("No computer strength called %(name)r: choose quick, normal or strong.")
        raise ValueError(sentence % {"name": bot})
    return bot


def decision_seed(table_seed: int, version: int) -> str:
    """A computer turn is reproducible: its seed is the table's seed and the version it decides at."""
    return f"{table_seed}:computer:{version}"


def budget() -> dict:
    """``decide``'s budget arguments: none in production (each strength has its own); the tests set
    ``BOT_BUDGET`` (e.g. ``{"iterations": 40}`` for a quick, seeded decision, or a ``seconds`` cap
    for a slow one)."""
    return dict(getattr(settings, "BOT_BUDGET", None) or {})


def seconds_cap(strength: str) -> float:
    """The longest a search at ``strength`` thinks: its seconds cap, or the tests' ``BOT_BUDGET`` seconds."""
    return float(budget().get("seconds") or BUDGETS.get(strength, BUDGETS["strong"])[1])


def niceness() -> int:
    """How much lower than the server's a decision's OS priority is (``COMPUTER_NICENESS``, ``priority``)."""
    return max(0, int(getattr(settings, "COMPUTER_NICENESS", DEFAULT_NICENESS)))
