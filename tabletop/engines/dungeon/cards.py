"""STARTER DATA for The Distelblute Mansion: designed by Muster, not the official cards.

The rulebook names the cards and how many of some are used; their values and texts
here are the project's own design, loaded into the ``DungeonCard`` catalog as starter
data (``source="starter"``) and snapshotted into each table's config. The mercenary cards
print no values (an attack is its Skill cards alone, D21), so the attack cards are worth
2, 3 and 4. 20 goblins leave the reserve enough for every ambush (D25). An engine card is
``{"code", "kind", "name", "stats", "text"}``; ``stats["copies"]`` is how many the box holds.
"""

from __future__ import annotations

MONSTERS = [
    # code, name, type, champion, health, melee, ranged, defence, exp, mvp, copies
    ("goblin", "Goblin", "melee", False, 2, 2, 0, 0, 1, 1, 20),
    ("goblin-archer", "Goblin Archer", "ranged", False, 2, 1, 2, 0, 1, 1, 10),
    ("orc", "Orc", "melee", False, 4, 3, 0, 1, 2, 2, 11),
    ("orc-arbalest", "Orc Arbalest", "ranged", False, 3, 1, 3, 0, 2, 2, 7),
    ("orc-champion", "Orc Champion", "melee", True, 6, 4, 0, 1, 4, 5, 1),
]

SKILLS = [
    # code, name, skill, value, min_range, max_range, cost, copies, condition
    ("basic-melee", "Basic Melee Attack", "melee", 2, 0, 0, 1, 16, ""),
    ("basic-block", "Basic Blocking", "defence", 1, 0, 0, 1, 16, ""),
    ("basic-ranged", "Basic Ranged Attack", "ranged", 2, 1, 5, 1, 0, ""),
    ("advanced-melee", "Advanced Melee Attack", "melee", 3, 0, 0, 3, 8, ""),
    ("advanced-block", "Advanced Blocking", "defence", 2, 0, 0, 3, 8, ""),
    ("advanced-ranged", "Advanced Ranged Attack", "ranged", 3, 1, 4, 3, 8, ""),
    ("charge-attack", "Charge Attack", "melee", 4, 0, 0, 4, 4, "kill"),
    ("elven-bow-string", "Elven Bow String", "ranged", 4, 2, 5, 5, 4, ""),
    ("shield-of-protection", "Shield of Protection", "defence", 3, 0, 0, 4, 4, "defence"),
]

ABILITIES = [
    # code, name, effect, amount, cost, copies, condition
    ("healing-potion", "Healing Potion", "heal", 3, 1, 20, ""),
    ("gauntlet-of-power", "Gauntlet of Power", "exp", 2, 2, 4, "kill"),
    ("vigour", "Vigour", "heal", 5, 3, 4, ""),
    ("change-stance", "Change Stance", "draw", 1, 2, 4, ""),
    ("positioning", "Positioning", "draw", 2, 3, 4, ""),
    ("defensive-stance", "Defensive Stance", "heal", 2, 1, 4, "defence"),
]

# Blue boxes: a monster card in a mercenary's hand may be played for this effect, like an
# ability card (it is not one). Effects, as for ability cards: heal, exp, draw.
BLUE_BOXES = {"goblin-archer": ("draw", 1), "orc": ("heal", 2)}
EFFECTS = ("heal", "exp", "draw")
EFFECT_TEXT = {"heal": "heal {}", "exp": "gain {} EXP", "draw": "draw {} card(s)"}

AREA_FEATURES = [
    # code, name, effect, amount, copies, text
    ("empty-area", "Empty Area", "none", 0, 2, "Nothing here."),
    ("cooking-area", "Cooking Area", "heal_all", 2, 1, "When drawn, every mercenary heals 2."),
    ("dart-trap", "Dart Trap", "trap_first", 3, 1, "When drawn, the First Player's mercenary suffers 3 wounds."),
    ("reinforcements", "Reinforcements", "extra_monster", 1, 1, "Draw one more monster card for this area."),
    ("weapons-cache", "Weapons Cache", "exp_all", 1, 1, "When drawn, every mercenary gains 1 EXP."),
    ("frenzy-brew", "Frenzy Brew", "monster_melee", 1, 1, "Constant: monsters have +1 melee attack in this area."),
    ("treasure-chest", "Treasure Chest", "exp_first", 3, 1, "When drawn, the First Player's mercenary gains 3 EXP."),
    ("tripwire", "Tripwire", "trap_all", 1, 1, "When drawn, every mercenary suffers 1 wound."),
    ("foul-fungus-patch", "Foul Fungus Patch", "monster_defence", -1, 1,
     "Constant: monsters have -1 defence in this area (never below 0)."),
]

AMBUSHES = [
    ("ambush-goblin", "Ambush!! – Goblin!", ["goblin", "goblin"], 3),
    ("ambush-goblin-archer", "Ambush!! – Goblin Archer!", ["goblin-archer", "goblin"], 2),
    ("ambush-orc", "Ambush!! – Orc!", ["orc"], 2),
    ("ambush-orc-arbalest", "Ambush!! – Orc Arbalest!", ["orc-arbalest"], 1),
]

MERCENARIES = [
    ("red", "Red Mercenary"), ("green", "Green Mercenary"), ("blue", "Blue Mercenary"), ("purple", "Purple Mercenary"),
]

CONDITIONS = {
    "": "",
    "kill": "May only be acquired in a turn in which this mercenary killed a monster.",
    "defence": "May only be acquired in a turn in which this mercenary made a successful defence.",
}


def starter_cards() -> list[dict]:
    """Every starter card as the engine takes it (the catalog rows hold the same data)."""
    cards = []
    for code, name, kind, champion, health, melee, ranged, defence, exp, mvp, copies in MONSTERS:
        entry = {"code": code, "kind": "monster", "name": name, "text": "",
                 "stats": {"type": kind, "champion": champion, "health": health, "melee": melee,
                           "ranged": ranged, "defence": defence, "exp": exp, "mvp": mvp, "copies": copies}}
        if code in BLUE_BOXES:
            effect, amount = BLUE_BOXES[code]
            entry["stats"].update(blue_effect=effect, blue_amount=amount)
            entry["text"] = "Blue box: play from your hand to " + EFFECT_TEXT[effect].format(amount) + "."
        cards.append(entry)
    for code, name, skill, value, lo, hi, cost, copies, condition in SKILLS:
        cards.append({"code": code, "kind": "skill", "name": name, "text": CONDITIONS[condition],
                      "stats": {"skill": skill, "value": value, "min_range": lo, "max_range": hi, "cost": cost,
                                "copies": copies, "condition": condition}})
    for code, name, effect, amount, cost, copies, condition in ABILITIES:
        cards.append({"code": code, "kind": "ability", "name": name, "text": CONDITIONS[condition],
                      "stats": {"effect": effect, "amount": amount, "cost": cost, "copies": copies,
                                "condition": condition}})
    for code, name, effect, amount, copies, text in AREA_FEATURES:
        cards.append({"code": code, "kind": "area_feature", "name": name, "text": text,
                      "stats": {"effect": effect, "amount": amount, "copies": copies}})
    for code, name, summons, copies in AMBUSHES:
        cards.append({"code": code, "kind": "ambush", "name": name, "text": "Summon: " + ", ".join(summons),
                      "stats": {"summons": summons, "copies": copies}})
    for code, name in MERCENARIES:
        cards.append({"code": code, "kind": "mercenary", "name": name, "text": "", "stats": {}})
    return cards


# Monster counts per game type (the rulebook's table): goblin, goblin archer, orc, orc arbalest.
MONSTER_COUNTS = {
    ("competitive", 4): {"goblin": 10, "goblin-archer": 5, "orc": 6, "orc-arbalest": 3},
    ("competitive", 3): {"goblin": 7, "goblin-archer": 4, "orc": 5, "orc-arbalest": 3},
    ("cooperative", 4): {"goblin": 12, "goblin-archer": 7, "orc": 8, "orc-arbalest": 5},
    ("cooperative", 3): {"goblin": 11, "goblin-archer": 6, "orc": 7, "orc-arbalest": 4},
}
AMBUSH_TOP = ["ambush-goblin", "ambush-goblin", "ambush-goblin-archer", "ambush-orc"]
AMBUSH_BOTTOM = ["ambush-goblin", "ambush-goblin-archer", "ambush-orc", "ambush-orc-arbalest"]
CHAMPION = "orc-champion"
STARTING_DECK = [("basic-melee", 6), ("basic-block", 4), ("basic-ranged", 1), ("healing-potion", 1)]
RESOURCE_STACKS = ["basic-melee", "basic-block", "advanced-melee", "advanced-block", "advanced-ranged",
                   "charge-attack", "elven-bow-string", "shield-of-protection", "healing-potion",
                   "gauntlet-of-power", "vigour", "change-stance", "positioning", "defensive-stance"]
