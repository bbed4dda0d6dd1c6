"""Adventures as data: what the set-up deals (ruling D25).

"Based on the adventure, the following needs to be set up. Resource Area. Monster Deck & Reserve
Monster Deck. Area Feature Deck." An adventure is ``{"code", "name", "text", "monster_table",
"ambush_top", "ambush_bottom", "champion", "starting_deck", "resource", "area_features"}``:

* ``monster_table``: for each game type (``competitive-4``, ``competitive-3``, ``cooperative-4``,
  ``cooperative-3``) how many of each monster make the Monster Deck;
* ``ambush_top`` / ``ambush_bottom``: the ambush cards shuffled into each half (a list, a code
  once per card);
* ``champion``: the champion shuffled into the bottom ten cards ("" for none);
* ``starting_deck``: ``[[code, how many], ...]`` for each mercenary;
* ``resource``: the codes of the Resource Area stacks (each stack holds the card's ``copies``);
* ``area_features``: ``{code: how many}``; absent, every area feature of the catalog with its copies.

The Reserve Monster Deck is what is left of each monster of the table ("all the remaining Monster
cards with the same name"): a card's ``copies`` less the table's count. ``adventure_problems``
checks the shape alone (the import checks each row with it); ``catalog_problems`` in ``catalog``
checks an adventure against the cards, the reserve covering every ambush included.
"""

from __future__ import annotations

from ..shapes import TEXT, Kind, field_problems, list_of, whole
from . import cards as starter

TABLE_KEYS = ("competitive-4", "competitive-3", "cooperative-4", "cooperative-3")
MAX_CARDS = 100

STARTER_ADVENTURE = {
    "code": "distelblute-mansion",
    "name": "The Distelblute Mansion",
    "text": "STARTER DATA: the first adventure as the rulebook sets it up; the card values are Muster's design.",
    "monster_table": {f"{mode}-{count}": dict(counts) for (mode, count), counts in starter.MONSTER_COUNTS.items()},
    "ambush_top": list(starter.AMBUSH_TOP),
    "ambush_bottom": list(starter.AMBUSH_BOTTOM),
    "champion": starter.CHAMPION,
    "starting_deck": [[code, count] for code, count in starter.STARTING_DECK],
    "resource": list(starter.RESOURCE_STACKS),
    "area_features": {code: copies for code, _, _, _, copies, _ in starter.AREA_FEATURES},
}
# Tables set up before adventures were data carry none in their config: they replay with this one,
# whose area features are the catalog's (as they were then).
LEGACY_ADVENTURE = {key: value for key, value in STARTER_ADVENTURE.items() if key != "area_features"}

COUNT = whole(0, MAX_CARDS)
FIELDS = {
    "code": TEXT, "name": TEXT, "text": Kind("a text", lambda value: isinstance(value, str)),
    "monster_table": None, "ambush_top": list_of(TEXT, MAX_CARDS), "ambush_bottom": list_of(TEXT, MAX_CARDS),
    "champion": Kind("a card code, or empty for none", lambda value: value == "" or TEXT.accepts(value)),
    "starting_deck": None, "resource": list_of(TEXT, MAX_CARDS), "area_features": None,
}
REQUIRED = ("name", "monster_table", "ambush_top", "ambush_bottom", "starting_deck", "resource")


def _counts_problems(value, what) -> list[str]:
    if not isinstance(value, dict) or not value:
        return [f"{what} must be a JSON object of card codes and how many, e.g. {{\"goblin\": 10}}"]
    return [f"{what}: {code!r} must be a whole number from 0 to {MAX_CARDS}"
            for code, count in value.items() if not COUNT.accepts(count)]


def adventure_problems(adventure) -> list[str]:
    """Why this is not an adventure's shape (empty when it is); the cards are checked in ``catalog``."""
    if not isinstance(adventure, dict):
        return ["an adventure must be a JSON object"]
    simple = {name: kind for name, kind in FIELDS.items() if kind is not None}
    given = {name: value for name, value in adventure.items() if name in simple}
    problems = field_problems(given, simple, (), what="the adventure")
    problems += [f"the adventure needs {name!r}" for name in REQUIRED if name not in adventure]
    problems += [f"the adventure has no field {name!r}" for name in adventure if name not in FIELDS]
    table = adventure.get("monster_table")
    if "monster_table" in adventure:
        if not isinstance(table, dict) or sorted(table) != sorted(TABLE_KEYS):
            problems.append(f"monster_table must hold exactly {', '.join(TABLE_KEYS)}")
        else:
            for key in TABLE_KEYS:
                problems += _counts_problems(table[key], f"monster_table {key}")
    deck = adventure.get("starting_deck")
    if "starting_deck" in adventure and not (
            isinstance(deck, list) and deck and len(deck) <= MAX_CARDS
            and all(isinstance(p, list) and len(p) == 2 and TEXT.accepts(p[0]) and COUNT.accepts(p[1]) for p in deck)):
        problems.append("starting_deck must be a list of [card code, how many] pairs, e.g. [[\"basic-melee\", 6]]")
    if adventure.get("area_features") is not None:
        problems += _counts_problems(adventure["area_features"], "area_features")
    return problems


def dealt_codes(adventure) -> dict[str, str]:
    """Every card code the set-up deals, with the kinds it may be."""
    codes = {code: ("skill", "ability") for code in adventure["resource"]}
    codes.update({code: ("skill", "ability", "monster") for code, _ in adventure["starting_deck"]})
    codes.update({code: ("ambush",) for code in adventure["ambush_top"] + adventure["ambush_bottom"]})
    for counts in adventure["monster_table"].values():
        codes.update({code: ("monster",) for code in counts})
    if adventure.get("champion"):
        codes[adventure["champion"]] = ("monster",)
    codes.update({code: ("area_feature",) for code in adventure.get("area_features") or {}})
    return codes


def reserve_problems(adventure, catalog) -> list[str]:
    """Game types whose Reserve Monster Deck cannot summon every ambush of the adventure."""
    wanted: dict[str, int] = {}
    for code in adventure["ambush_top"] + adventure["ambush_bottom"]:
        for summoned in catalog[code]["stats"]["summons"]:
            wanted[summoned] = wanted.get(summoned, 0) + 1
    problems = []
    for key in TABLE_KEYS:
        table = adventure["monster_table"][key]
        for code, needed in sorted(wanted.items()):
            left = catalog[code]["stats"].get("copies", 0) - table.get(code, 0)
            if left < needed:
                problems.append(f"{key}: the ambushes summon {needed} {catalog[code]['name']} but the reserve "
                                f"holds {max(0, left)} (copies {catalog[code]['stats'].get('copies', 0)} less "
                                f"{table.get(code, 0)} in the Monster Deck)")
    return problems
