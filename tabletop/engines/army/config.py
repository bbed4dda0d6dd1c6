"""Army battle configuration: validation, the starter config and random configs.

A config is plain JSON::

    {"players": ["Ann", "Ben"],              # the two commanders' players (seat 0, seat 1)
     "dice": "app" | "physical",             # physical: the GM types every die (default app)
     "commanders": [{"name": "Lady Vey", "kind": "pc" | "npc", "progression": 6,
                     "favors": 1, "influence_halves": 3,
                     "role": "guardian", "path": "steel",     # class = role x path -> power
                     "morale": 5,                             # optional: Morale carried from an
                                                              # earlier battle today (ruling AR11)
                     "options": {"dervish_target": {"path": "magic"} | {"role": "healer"},
                                 "cleric_available": true,    # once per Day, tracked outside
                                 "granted_card": {...}}},     # optional Alchemy Lab / Chaplain card
                    {...}],
     "units": [[card, ...], [card, ...]],    # each side's participating cards, inline
     "defender": 1, "base_morale": 2}        # optional Base: defending seat and its bonus Morale

    card = {"id", "name", "strength": int >= 0 | null, "role", "path", "traits": [...],
            "abilities": [...], "upkeep": int}

Card ids must be unique in the battle. Abilities are checked against the vocabulary of
``abilities.py``; an unknown kind is a ``ValueError``. Rulings: docs/rulings.md.
"""

from __future__ import annotations

import copy

from . import abilities
from .common import PATHS, POWER_TABLE, ROLES, UNIT_ROLES
from .starter import RECRUITABLE, side_units

NAMES = ["Ann", "Ben"]
COMMANDER_NAMES = ["Lady Vey", "Captain Orrin"]


def _fail(message: str) -> None:
    raise ValueError(message)


def _count(value, where: str, default: int = 0) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        _fail(f"{where} must be a whole number of at least 0, not {value!r}.")
    return value


def normalise_card(raw, where: str) -> dict:
    if not isinstance(raw, dict):
        _fail(f"{where} must be a dict with id, name, strength, role, path, traits, abilities and upkeep.")
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not card_id.strip():
        _fail(f"{where} needs a non-empty string id.")
    where = f"Card {card_id!r}"
    if not isinstance(raw.get("name"), str) or not raw["name"].strip():
        _fail(f"{where} needs a name.")
    strength = raw.get("strength")
    if strength is not None:
        strength = _count(strength, f"{where}: strength")
    role = raw.get("role")
    if role not in ROLES:
        _fail(f"{where} has role {role!r}; roles are {', '.join(ROLES)}.")
    path = raw.get("path")
    if path not in PATHS:
        _fail(f"{where} has path {path!r}; paths are {', '.join(PATHS)}.")
    traits = raw.get("traits", [])
    if not isinstance(traits, list) or not all(isinstance(t, str) and t.strip() for t in traits):
        _fail(f"{where}: traits must be a list of words.")
    raw_abilities = raw.get("abilities", [])
    if not isinstance(raw_abilities, list):
        _fail(f"{where}: abilities must be a list.")
    cleaned = [abilities.validate(ability, where, role) for ability in raw_abilities]
    if role == "ritual" and not any(a["kind"] in abilities.RITUAL_KINDS for a in cleaned):
        _fail(f"{where} is a Ritual without a ritual effect.")
    return {"id": card_id, "name": raw["name"].strip(), "strength": strength, "role": role, "path": path,
            "traits": sorted({t.strip().lower() for t in traits}), "abilities": cleaned,
            "upkeep": _count(raw.get("upkeep"), f"{where}: upkeep")}


def normalise_commander(raw, seat: int) -> dict:
    where = f"Commander {seat + 1}"
    if not isinstance(raw, dict):
        _fail(f"{where} must be a dict.")
    if not isinstance(raw.get("name"), str) or not raw["name"].strip():
        _fail(f"{where} needs a name.")
    kind = raw.get("kind", "pc")
    if kind not in ("pc", "npc"):
        _fail(f"{where}: kind must be 'pc' or 'npc', not {kind!r}.")
    role, path = raw.get("role"), raw.get("path")
    if role not in UNIT_ROLES:
        _fail(f"{where}: role must be one of {', '.join(UNIT_ROLES)}, not {role!r}.")
    if path not in PATHS:
        _fail(f"{where}: path must be one of {', '.join(PATHS)}, not {path!r}.")
    options = raw.get("options") or {}
    if not isinstance(options, dict):
        _fail(f"{where}: options must be a dict.")
    clean_options: dict = {"cleric_available": bool(options.get("cleric_available", True))}
    target = options.get("dervish_target")
    if target is not None:
        if not isinstance(target, dict) or len(target) != 1 or not (
                target.get("path") in PATHS or target.get("role") in ROLES):
            _fail(f"{where}: dervish_target must be {{'path': <path>}} or {{'role': <role>}}.")
        clean_options["dervish_target"] = dict(target)
    if options.get("granted_card") is not None:
        clean_options["granted_card"] = normalise_card(options["granted_card"], f"{where}: granted_card")
    progression = _count(raw.get("progression"), f"{where}: progression")
    morale = raw.get("morale")
    if morale is not None:
        morale = _count(morale, f"{where}: morale")
    return {"name": raw["name"].strip(), "kind": kind, "progression": progression,
            "favors": _count(raw.get("favors"), f"{where}: favors"),
            "influence_halves": _count(raw.get("influence_halves"), f"{where}: influence_halves"),
            "role": role, "path": path, "power": POWER_TABLE[(role, path)], "morale": morale,
            "options": clean_options}


def validate(config) -> dict:
    """A cleaned copy of ``config``; raises ValueError with a clear message when it is unusable."""
    if not isinstance(config, dict):
        _fail("The config must be a dict.")
    players = config.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(
            isinstance(p, str) and p.strip() for p in players):
        _fail("An Army Rules battle needs players: a list of two names.")
    dice = config.get("dice", "app")
    if dice not in ("app", "physical"):
        _fail(f"dice must be 'app' or 'physical', not {dice!r}.")
    commanders = config.get("commanders")
    if not isinstance(commanders, list) or len(commanders) != 2:
        _fail("commanders must be a list of two commanders.")
    clean_commanders = [normalise_commander(raw, seat) for seat, raw in enumerate(commanders)]
    units = config.get("units")
    if not isinstance(units, list) or len(units) != 2 or not all(isinstance(side, list) for side in units):
        _fail("units must be two lists of cards, one per commander.")
    sides = [[normalise_card(raw, f"Side {seat + 1} card {n + 1}") for n, raw in enumerate(side)]
             for seat, side in enumerate(units)]
    ids = [card["id"] for side in sides for card in side]
    ids += [c["options"]["granted_card"]["id"] for c in clean_commanders if "granted_card" in c["options"]]
    duplicates = sorted({card_id for card_id in ids if ids.count(card_id) > 1})
    if duplicates:
        _fail(f"Card ids must be unique in a battle; repeated: {', '.join(duplicates)}.")
    defender = config.get("defender")
    if defender is not None and defender not in (0, 1):
        _fail(f"defender must be 0 or 1 (the seat defending a Base), not {defender!r}.")
    base = _count(config.get("base_morale"), "base_morale")
    if base and defender is None:
        _fail("base_morale needs a defender: the seat whose Base grants it.")
    return {"players": [p.strip() for p in players], "dice": dice, "commanders": clean_commanders,
            "units": sides, "defender": defender, "base_morale": base if defender is not None else 0}


def starter_config(players=("Ann", "Ben"), commanders=None, units=(("spearmen", "soldier", "soldier"),
                   ("soldier", "soldier", "spearmen")), dice: str = "app", defender=None, base_morale: int = 0) -> dict:
    """A config from starter codes; commanders default to a Master of Arms and a Tactician."""
    default = [{"name": COMMANDER_NAMES[0], "kind": "pc", "progression": 6, "favors": 1, "influence_halves": 2,
                "role": "aggressor", "path": "steel"},
               {"name": COMMANDER_NAMES[1], "kind": "npc", "progression": 4, "favors": 0, "influence_halves": 0,
                "role": "guardian", "path": "steel"}]
    config = {"players": list(players), "dice": dice,
              "commanders": copy.deepcopy(list(commanders) if commanders else default),
              "units": [side_units(list(codes), f"s{seat}") for seat, codes in enumerate(units)]}
    if defender is not None:
        config["defender"], config["base_morale"] = defender, base_morale
    return config


def random_config(rng) -> dict:
    """A random legal battle: any of the twenty classes, PC or NPC, 3-8 units a side, Bases, dice modes."""
    classes = sorted(POWER_TABLE)
    commanders = []
    for seat in range(2):
        role, path = classes[rng.randint(0, len(classes) - 1)]
        commander = {"name": COMMANDER_NAMES[seat], "kind": ("pc", "npc")[rng.randint(0, 1)],
                     "progression": rng.randint(0, 10), "favors": rng.randint(0, 2),
                     "influence_halves": rng.randint(0, 3), "role": role, "path": path,
                     "options": {"cleric_available": rng.randint(0, 3) > 0}}
        if rng.randint(0, 1):
            commander["options"]["dervish_target"] = (
                {"path": PATHS[rng.randint(0, 4)]} if rng.randint(0, 1) else {"role": ROLES[rng.randint(0, 4)]})
        if rng.randint(0, 3) == 0:
            commander["morale"] = rng.randint(1, 6)
        commanders.append(commander)
    units = [[RECRUITABLE[rng.randint(0, len(RECRUITABLE) - 1)] for _ in range(rng.randint(3, 8))]
             for _ in range(2)]
    config = starter_config(NAMES, commanders, units, dice="physical" if rng.randint(0, 7) == 0 else "app")
    if rng.randint(0, 2) == 0:
        config["defender"], config["base_morale"] = rng.randint(0, 1), rng.randint(0, 3)
    return config
