"""User names that look alike: a key per name, so "аdmin" (Cyrillic а), "admin." and "ADMIN" cannot
sit beside "admin" (issue 34).

Django only NFKC-normalizes a user name (``normalize_username``) and the sign-up compares it case-
insensitively. Here a name's key is its confusables skeleton (Unicode UTS #39, the same idea as
Chromium's IDN spoof checks and the ``confusable_homoglyphs`` package whose data this reads), taken
after NFKC and case folding, with the punctuation a user name may hold (``. @ + - _``) dropped at
both ends, and case-folded again (a skeleton may be a capital: "0" becomes "O"). Two names with one
key are the same name to a reader; the key is stored per account with a unique index
(``people.NameKey``), so the check is one indexed lookup rather than a scan of every account, and
two look-alike sign-ups at the same moment cannot both pass.

The skeleton table: confusables.txt maps every confusable character to its class's prototype; the
package's JSON lists, for a character that is not a prototype, its prototype alone (and for a
prototype all its look-alikes). A class of two is listed both ways round: its two characters then
both map to the smaller, which is as good a representative as the prototype for telling equality.

A name mixing Latin with Cyrillic or Greek is refused outright (``name_problem``): no one needs it,
and it is the usual disguise.
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs.categories import alias
from confusable_homoglyphs.confusables import confusables_data
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

NAME_PUNCTUATION = ".@+-_"
MAX_KEY = 600  # characters: 150 typed, grown by NFKC and skeletons, well inside an index entry
LOOK_ALIKE_SCRIPTS = {"LATIN", "CYRILLIC", "GREEK"}
MIXED = gettext_noop(
    "A user name mixes Latin letters with Cyrillic or Greek ones, which can pass for others: use one alphabet."
)
NO_LETTER = gettext_noop("A user name needs a letter or a digit.")
LRM = "\u200e"  # the package wraps right-to-left characters in it


def _skeleton_table(data: dict) -> dict[int, str]:
    table: dict[int, str] = {}
    for char, entries in data.items():
        if len(char) != 1 or len(entries) != 1:
            continue  # a prototype (listed with its look-alikes), or a sequence
        target = entries[0]["c"].replace(LRM, "")
        back = data.get(target, [])
        if len(back) == 1 and back[0]["c"].replace(LRM, "") == char:
            target = min(char, target)  # a class of two, listed both ways
        if target != char:
            table[ord(char)] = target
    return table


SKELETON = _skeleton_table(confusables_data)


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character to its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(SKELETON))


def name_key(username: str) -> str:
    """The key two look-alike user names share (see the module docstring)."""
    key = unicodedata.normalize("NFKC", username).casefold().strip(NAME_PUNCTUATION)
    for _round in range(3):  # case folding after a skeleton may uncover another look-alike: to a fixed point
        folded = skeleton(key).casefold()
        if folded == key:
            break
        key = folded
    return key


def name_problem(username: str) -> str | None:
    """Why ``username`` cannot be a user name whatever the others are (mixed scripts, no letter), or None."""
    if not any(char.isalnum() for char in username):
        return _(NO_LETTER)
    scripts = {alias(char) for char in username} & LOOK_ALIKE_SCRIPTS
    if len(scripts) > 1:
        return _(MIXED)
    if len(name_key(username)) > MAX_KEY:
        return _("That user name is too long: choose a shorter one.")
    return None


def look_alike_sentence(existing: str) -> str:
    return _("That user name looks too much like an existing one (“%(existing)s”); choose another.") % {
        "existing": existing
    }
