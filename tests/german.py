"""Finding English on a page that should be German (issue 41), for the German page tests.

A page's words are its text and the attributes a person hears or reads (``title``, ``aria-label``,
``placeholder``, ``alt``, an input button's ``value``); scripts, styles and anything marked ``lang="en"`` or
``translate="no"`` are left out. Data is left out too: what the admin, a GM or a player typed (card names and
texts, people's, campaigns' and tables' names: ``typed_data``), the games' titles and the commanders' powers'
rulebook titles, which stay English. What is left must hold no English word that German never uses: such a word
means a sentence nobody marked, or one marked and not translated.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from django.apps import apps
from django.db import models

from tabletop.engines.army.common import PATHS, UNIT_ROLES
from tabletop.engines.army.powers.base import POWERS

# English words German text never holds (not "will", "was", "so", "an", "in", "man", "bin": German words too).
ENGLISH = frozenset(
    """the your you and with this that these those of to for from has have had is are isn't don't can't
    not yet when who which what where why how please click here there their them they his her its our
    be been being would should could must may might shall do does did done until while after before
    about into onto over under again each every other than then only just still already left right
    turn move moves seat seats table tables player players card cards unit units battle battles day days
    game games choose chosen pick picked send sent waiting wait open opened close closed new none""".split()
)
GAME_TITLES = ("Army Rules", "Mercenaries of Gridaris", "Mercenaries", "Mercenarium", "GOT'M", "Muster")
# The rulebook's titles stay too: the commanders' powers ("Aggressor of Nature: ..." in the rules help and the luck
# report) and the Paths, also in a German compound ("Path-of-Steel-Befehlshaber:in").
POWER_TITLES = (
    *(f"{role.title()} of {path.title()}" for role in UNIT_ROLES for path in PATHS),
    *(f"Path{joint}of{joint}{path.title()}" for path in PATHS for joint in " -"),
    *(power.title for power in POWERS.values()),  # "Master of Arms"
)
STATE_NAMES = ("name", "text", "title", "power", "flavor", "role", "path", "adventure")  # a state's names
DATUM = "\x00"  # where a known datum stood
# A list of names an engine joined in English ("Swivel Sweeper and Gouda Lookout"): the one English word issue
# 41 leaves on a German page (an engine's list of card names is one value; said in German it would need the
# names apart, which a name holding " and " would not survive). Docs: the closing note.
NAMES_LISTED = re.compile(rf"{DATUM}(?:, {DATUM})* and {DATUM}")
SILENT = {"script", "style", "template", "code", "pre", "svg", "noscript"}
HEARD = ("title", "aria-label", "placeholder", "alt", "aria-description", "aria-roledescription")
WORD = re.compile(r"[^\W\d_][\w']+")  # a whole word, umlauts and ß included ("höher" is no "her")


class _Words(HTMLParser):
    """Each text and heard attribute of a page, outside silent elements and English-marked ones."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, silent from here down)
        self.words: list[str] = []

    def _silent(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        silent = (
            self._silent()
            or tag in SILENT
            or (values.get("lang") or "").startswith("en")
            or values.get("translate") == "no"
        )
        if not silent:
            self.words.extend(value for name, value in attrs if name in HEARD and value)
            if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
                self.words.append(values["value"])
        if tag not in {"br", "img", "input", "meta", "link", "hr", "source", "col", "area", "base", "wbr"}:
            self.stack.append((tag, silent))

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data):
        if not self._silent() and data.strip():
            self.words.append(data)


def english_left(html: str, data: set[str] = frozenset()) -> list[str]:
    """The page's texts that still hold an English word, with the known data (longest first) taken out."""
    parser = _Words()
    parser.feed(html)
    known = sorted({*data, *GAME_TITLES, *POWER_TITLES}, key=len, reverse=True)
    found = []
    for text in parser.words:
        text = text.replace("\u00ad", "")  # soft hyphens split a German word for the eye, not for the reader
        rest = text
        for value in known:
            if value and value in rest:  # a whole word only: "Ben" is no part of "Beben"
                rest = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", DATUM, rest)
        rest = NAMES_LISTED.sub(DATUM, rest)
        if any(word.lower() in ENGLISH for word in WORD.findall(rest)):
            found.append(" ".join(text.split())[:160])
    return found


def typed_data() -> set[str]:
    """Every text a person typed or a catalog holds: each char and text field of every model, but the
    activity log's stored lines (which the log's page must say in German), and the names a game's state holds."""
    data = set()
    activity = apps.get_model("campaign", "Activity")
    for model in apps.get_models():
        if model is activity or not model.__module__.startswith(("armies", "campaign", "tabletop", "people")):
            continue
        fields = [
            f.attname
            for f in model._meta.concrete_fields
            if isinstance(f, (models.CharField, models.TextField)) and not f.choices
        ]
        if fields:
            for row in model.objects.values_list(*fields):
                data.update(value for value in row if isinstance(value, str) and len(value) > 1)
    for state in apps.get_model("tabletop", "Table").objects.values_list("state", flat=True):
        _strings_in(state, data)
    return data


def _strings_in(value, into: set[str]) -> None:
    """The names a game's state holds (its cards' names and texts, the seats' names)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in STATE_NAMES and isinstance(item, str):
                into.add(item)
            else:
                _strings_in(item, into)
    elif isinstance(value, list):
        for item in value:
            _strings_in(item, into)
