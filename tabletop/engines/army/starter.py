"""STARTER UNITS for Army Rules battles -- starter data designed by Muster, NOT official.

The Army Rules rulebook describes how cards work but prints no catalog beyond its
example (Spearmen, Soldier) and the two power-granted units (the Chirurgeon's Alchemy
Lab, the Chaplain's Mediating Chaplain). These invented cards let a campaign start
playing at once; a GM replaces or extends them in the admin catalog. Every card uses
only the ability vocabulary of ``abilities.py``.

Each entry has a stable ``code``, ``name``, ``strength`` (None: cannot fight),
``role``, ``path``, ``traits``, ``abilities``, ``upkeep`` (per Day, if used) and
``price`` (recruit price, used by the campaign economy). ``granted_by`` marks the two
units a commander power adds to a hand; they are never recruited.

``side_units(codes, prefix)`` builds one side's inline card list with unique ids.
"""

from __future__ import annotations

import copy


def _u(code, name, strength, role, path, traits=(), abilities=(), upkeep=1, price=10, granted_by=None):
    entry = {"code": code, "name": name, "strength": strength, "role": role, "path": path,
             "traits": list(traits), "abilities": [dict(a) for a in abilities], "upkeep": upkeep, "price": price}
    if granted_by:
        entry["granted_by"] = granted_by
    return entry


PLUS_ONE_EITHER = {"kind": "discard_bonus", "amount": 1, "target": "either"}

STARTER_UNITS: list[dict] = [
    # Steel
    _u("spearmen", "Spearmen", 3, "aggressor", "steel", ["reach"], upkeep=2, price=20),
    _u("soldier", "Soldier", 2, "aggressor", "steel", abilities=[PLUS_ONE_EITHER], upkeep=1, price=12),
    _u("shield_wall", "Shield Wall", 3, "guardian", "steel", upkeep=2, price=18),
    _u("heavy_cavalry", "Heavy Cavalry", 4, "aggressor", "steel", upkeep=3, price=30),
    _u("crossbowmen", "Crossbowmen", 2, "aggressor", "steel", ["ranged"], upkeep=2, price=16),
    _u("field_surgeon", "Field Surgeon", 1, "healer", "steel", upkeep=1, price=12),
    _u("drill_sergeant", "Drill Sergeant", 2, "savant", "steel",
       abilities=[{"kind": "discard_bonus", "amount": 2, "target": "own"}], upkeep=2, price=20),
    _u("siege_ram", "Siege Ram", 0, "equipment", "steel",
       abilities=[{"kind": "discard_bonus", "amount": 2, "target": "own"}], upkeep=1, price=8),
    _u("ballista", "Ballista", 3, "equipment", "steel", ["ranged"], upkeep=2, price=22),
    _u("war_banner", "Rite of the War Banner", None, "ritual", "steel",
       abilities=[{"kind": "ritual_morale", "amount": 2}], upkeep=1, price=15),
    # Magic
    _u("battle_mage", "Battle Mage", 3, "savant", "magic", upkeep=3, price=28),
    _u("fire_elemental", "Fire Elemental", 4, "aggressor", "magic", ["elemental"], upkeep=3, price=32),
    _u("arcane_ward", "Arcane Ward", 2, "guardian", "magic",
       abilities=[{"kind": "discard_bonus", "amount": -1, "target": "enemy"}], upkeep=2, price=18),
    _u("apprentice", "Apprentice", 1, "savant", "magic", abilities=[PLUS_ONE_EITHER], upkeep=1, price=10),
    _u("mana_battery", "Mana Battery", 1, "equipment", "magic",
       abilities=[{"kind": "discard_bonus", "amount": 2, "target": "either"}], upkeep=1, price=12),
    _u("skeleton_horde", "Skeleton Horde", 2, "aggressor", "magic", ["undead"], upkeep=1, price=12),
    _u("storm_call", "Ritual of the Storm Call", None, "ritual", "magic",
       abilities=[{"kind": "ritual_damage", "amount": 1}], upkeep=1, price=18),
    # Faith
    _u("temple_guard", "Temple Guard", 3, "guardian", "faith", upkeep=2, price=20),
    _u("priestess", "Priestess", 2, "healer", "faith", upkeep=2, price=18),
    _u("zealots", "Zealots", 3, "aggressor", "faith", upkeep=2, price=20),
    _u("reliquary", "Reliquary", 1, "equipment", "faith",
       abilities=[{"kind": "discard_heal", "max_strength": None}], upkeep=1, price=16),
    _u("blessing", "Rite of Blessing", None, "ritual", "faith",
       abilities=[{"kind": "ritual_bonus", "amount": 1}], upkeep=1, price=20),
    _u("revenant_knight", "Revenant Knight", 4, "guardian", "faith", ["undead"], upkeep=3, price=30),
    # Nature
    _u("wolf_pack", "Wolf Pack", 3, "aggressor", "nature", upkeep=2, price=18),
    _u("treant", "Treant", 4, "guardian", "nature", ["elemental"], upkeep=3, price=30),
    _u("druid", "Druid", 3, "healer", "nature", upkeep=2, price=22),
    _u("rangers", "Rangers", 2, "savant", "nature", ["ranged"], upkeep=2, price=16),
    _u("herbalist", "Herbalist", 1, "healer", "nature",
       abilities=[{"kind": "discard_heal", "max_strength": 2}], upkeep=1, price=10),
    _u("entangle", "Rite of Entangling Roots", None, "ritual", "nature",
       abilities=[{"kind": "ritual_disable"}], upkeep=1, price=18),
    _u("earth_elemental", "Earth Elemental", 3, "guardian", "nature", ["elemental"], upkeep=2, price=22),
    # Mind
    _u("spies", "Spies", 1, "savant", "mind", ["ranged"], upkeep=1, price=10),
    _u("tactician_aide", "Tactician's Aide", 2, "savant", "mind", abilities=[PLUS_ONE_EITHER], upkeep=2, price=18),
    _u("mind_flayer", "Mind Flayer", 4, "aggressor", "mind", upkeep=3, price=32),
    _u("illusory_host", "Illusory Host", 2, "guardian", "mind", upkeep=1, price=12),
    _u("mesmerist", "Mesmerist", 2, "healer", "mind", upkeep=2, price=16),
    _u("psychic_lens", "Psychic Lens", 0, "equipment", "mind",
       abilities=[{"kind": "discard_bonus", "amount": 1, "target": "own"}], upkeep=1, price=6),
    _u("dread", "Ritual of Dread", None, "ritual", "mind",
       abilities=[{"kind": "ritual_damage", "amount": 1}, {"kind": "ritual_morale", "amount": 1}],
       upkeep=1, price=24),
    _u("courier", "Courier", None, "savant", "mind", abilities=[PLUS_ONE_EITHER, {"kind": "no_skirmish"}],
       upkeep=1, price=8),
    # Power-granted units (never recruited)
    _u("alchemy_lab", "Alchemy Lab", 1, "equipment", "steel",
       abilities=[{"kind": "discard_heal", "max_strength": 3}, {"kind": "kill_immune_to_disabled"}],
       upkeep=0, price=0, granted_by="chirurgeon"),
    _u("mediating_chaplain", "Mediating Chaplain", 2, "savant", "faith",
       abilities=[{"kind": "no_damage"}], upkeep=0, price=0, granted_by="chaplain"),
]

STARTER_BY_CODE: dict[str, dict] = {entry["code"]: entry for entry in STARTER_UNITS}
RECRUITABLE = [entry["code"] for entry in STARTER_UNITS if "granted_by" not in entry]


def card_from(code: str, card_id: str) -> dict:
    """An inline card (config form) of a starter unit, with the given id."""
    try:
        entry = STARTER_BY_CODE[code]
    except KeyError:
        raise ValueError(f"There is no starter unit {code!r}.") from None
    card = {key: copy.deepcopy(value) for key, value in entry.items() if key not in ("code", "price", "granted_by")}
    card["id"] = card_id
    return card


def side_units(codes: list[str], prefix: str) -> list[dict]:
    """One side's inline units from starter codes, ids ``{prefix}-{n}`` (unique per side)."""
    return [card_from(code, f"{prefix}-{n}") for n, code in enumerate(codes, start=1)]
