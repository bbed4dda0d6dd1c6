"""The titles Muster gives tables itself, kept in English and shown in the reader's language (issue 41).

A GM types most tables' titles, and those stay as typed. Two kinds Muster writes itself: a battle's table
("Battle #3: Lady Vey against Lord Marr", armies/services/battle_tables.py) and a what-if ("What-if: <the
original's title> from move 9", services/forks.py). They are stored in English, as every stored word is, so a
table's title is the same whoever opened it; ``said`` reads such a title back into its template and values
and says it in the active language (a what-if of a battle says both). Any other title is shown as it is. The
page shows ``Table.shown_title``.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_noop

from campaign.activity import Line

BATTLE = gettext_noop("Battle #%(battle)s: %(attacker)s against %(defender)s")
WHAT_IF = gettext_noop("What-if: %(title)s from move %(move)s")

_BATTLE = re.compile(r"Battle #(?P<battle>\d+): (?P<attacker>.+?) against (?P<defender>.+)\Z", re.DOTALL)
_WHAT_IF = re.compile(r"What-if: (?P<title>.+) from move (?P<move>\d+)\Z", re.DOTALL)


def battle_title(battle: int, attacker: str, defender: str) -> str:
    """A battle's table's title, as stored (English)."""
    return BATTLE % {"battle": battle, "attacker": attacker, "defender": defender}


def what_if_title(title: str, move: int) -> str:
    """A what-if's title, as stored (English): ``title`` is its original's (services/forks.py shortens it)."""
    return WHAT_IF % {"title": title, "move": move}


def forked_from(title: str) -> str | None:
    """The original's title a what-if's ``title`` names, or None when ``title`` is no what-if's."""
    found = _WHAT_IF.match(title)
    return found["title"] if found else None


def as_line(title: str) -> Line | str:
    """``title``'s words when Muster wrote it (its template and values, a what-if's title within as words too),
    else the title as it is. An activity line keeps them as a value (campaign.activity.Line): the same English,
    said in each reader's language on the activity page."""
    found = _WHAT_IF.match(title)
    if found:
        return Line(WHAT_IF, title=as_line(found["title"]), move=found["move"])
    found = _BATTLE.match(title)
    return Line(BATTLE, **found.groupdict()) if found else title


def said(title: str) -> str:
    """``title`` in the active language when Muster wrote it (a battle's, a what-if's), else as it is (and as it
    is when a translation staff saved names a value the title does not give: the page still opens)."""
    words = as_line(title)
    if not isinstance(words, Line):
        return words
    try:
        return words.said()
    except (KeyError, TypeError, ValueError):
        return title
