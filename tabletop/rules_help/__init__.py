"""Rules help on tap: every commander power and benefit, Role, Path and game term, in a sentence or two.

Each entry quotes the rulebook or follows it closely, and names the rulebook section it comes from
(``../shared/rulebooks/``); where Muster settles a question, the ruling's number is named
(docs/rulings.md). The page shows an entry through ``{% rules_help %}`` (tabletop/templatetags/rules_help.py):
the term becomes a button that opens the text in a popover, without JavaScript.

Keys are the engines' own words: a power's key (``"master_of_arms"``, the Army engine's ``POWERS``),
a Role (``"aggressor"``), a Path (``"steel"``), an Army term (``"unopposed"``), and each card game's
terms under its engine name (``"gridaris.reinforcement"``). ``GAME_TERMS`` lists the terms each
game's page offers. No text names a unit or a card: the pages' secrets tests look for card names.

The texts are in ``army`` (powers, Roles, Paths, Army terms) and ``card_games`` (each side event's terms).
"""

from __future__ import annotations

from dataclasses import dataclass

from .army import ARMY_TERMS, GLOSSARY_SOURCE, PATHS, POWERS, POWERS_SOURCE, ROLES, ROLES_SOURCE
from .card_games import GAME_TERM_TEXTS, SOURCES


@dataclass(frozen=True)
class Help:
    """A term's help in English; each string is marked, and the page shows it in the reader's language
    (tabletop/templatetags/rules_help.py)."""

    term: str
    text: str
    source: str


def _build() -> dict[str, Help]:
    entries = {}
    for key, (term, text) in POWERS.items():
        entries[key] = Help(term, text, POWERS_SOURCE)
    for key, (term, text) in ROLES.items():
        entries[key] = Help(term, text, ROLES_SOURCE)
    for key, (term, text) in PATHS.items():
        entries[key] = Help(term, text, POWERS_SOURCE)
    for key, (term, text) in ARMY_TERMS.items():
        entries[key] = Help(term, text, GLOSSARY_SOURCE)
    for game, terms in GAME_TERM_TEXTS.items():
        for key, (term, text) in terms.items():
            entries[f"{game}.{key}"] = Help(term, text, SOURCES[game])
    return entries


HELP: dict[str, Help] = _build()

# The terms each page offers in its "Rules help" row (the Army row adds the commanders' own powers).
GAME_TERMS: dict[str, tuple[str, ...]] = {
    "army": (
        "aggressor",
        "guardian",
        "healer",
        "savant",
        "equipment",
        "ritual",
        "offense",
        "defense",
        "unopposed",
        "unable",
        "pass",
        "exhausted",
        "disabled",
        "killed",
        "morale",
        "routed",
        "base",
        "phase",
    ),
    "commander": ("aggressor", "guardian", "healer", "savant", "equipment", "ritual", "favor"),
    **{game: tuple(f"{game}.{key}" for key in terms) for game, terms in GAME_TERM_TEXTS.items()},
}

_BY_TITLE = {entry.term.lower(): key for key, entry in HELP.items()}


def help_key(term: str) -> str | None:
    """The key of a term given as a key (``"master_of_arms"``) or as shown (``"Master of Arms"``)."""
    term = str(term or "").strip()
    if term in HELP:
        return term
    lowered = term.lower()
    if lowered in _BY_TITLE:
        return _BY_TITLE[lowered]
    slug = lowered.replace(" ", "_").replace("-", "_")
    return slug if slug in HELP else None


def help_for(term: str) -> Help | None:
    key = help_key(term)
    return HELP[key] if key else None
