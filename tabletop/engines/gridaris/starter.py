"""STARTER DATA for Mercenaries of Gridaris, designed by the Muster project -- NOT official.

The published game ships 31 silver and 18 gold Mercenary cards whose names and values
are not reproduced here. This module holds an invented starter catalog of the same
size and shape so the game can be played out of the box; an admin may edit the
catalog, and the engine works from whatever cards a table's config holds.

* 31 silver cards (1-2 stars, edges mostly 1-7, two cards with a lone Ace)
* 18 gold cards (3-4 stars, edges up to 9, five cards with an Ace)
* six classes: Cheese People, Mops, Wizards, Monsters, Voidlings, Business Drones
* edges are listed top, right, bottom, left; each "1".."9" or "A"

``SCENARIOS`` lists the twelve Enhanced Play scenario cards in a fixed order with a
short summary of each rule as this engine implements it (rulings: docs/rulings.md).
"""

from __future__ import annotations

from ..words import phrase

CLASSES = ["Cheese People", "Mops", "Wizards", "Monsters", "Voidlings", "Business Drones"]

# id, name, class, stars, edges (top, right, bottom, left)
_SILVER = [
    ("s01", "Brie Sentry", "Cheese People", 1, "5A13"),
    ("s02", "Cheddar Squire", "Cheese People", 1, "4352"),
    ("s03", "Gouda Lookout", "Cheese People", 2, "6436"),
    ("s04", "Feta Forager", "Cheese People", 1, "2633"),
    ("s05", "Swiss Scout", "Cheese People", 2, "5274"),
    ("s06", "Curd Recruit", "Cheese People", 1, "3325"),
    ("s07", "Damp Mop", "Mops", 1, "2443"),
    ("s08", "Robo Mop Mk I", "Mops", 2, "6345"),
    ("s09", "Swivel Sweeper", "Mops", 1, "3522"),
    ("s10", "Bucket Brigadier", "Mops", 2, "4625"),
    ("s11", "Squeegee Scout", "Mops", 1, "5213"),
    ("s12", "Apprentice Fizzle", "Wizards", 1, "1452"),
    ("s13", "Hedge Wizard", "Wizards", 2, "5536"),
    ("s14", "Scroll Sniffer", "Wizards", 1, "3342"),
    ("s15", "Candle Warlock", "Wizards", 2, "7234"),
    ("s16", "Pointy-Hat Pete", "Wizards", 1, "2263"),
    ("s17", "Gnashling", "Monsters", 1, "4315"),
    ("s18", "Grumblepup", "Monsters", 2, "6526"),
    ("s19", "Bog Gobbler", "Monsters", 1, "3253"),
    ("s20", "Toenail Troll", "Monsters", 2, "2763"),
    ("s21", "Under-Bed Lurker", "Monsters", 1, "1A21"),
    ("s22", "Void Mote", "Voidlings", 1, "3432"),
    ("s23", "Echo Wisp", "Voidlings", 2, "5355"),
    ("s24", "Null Nibbler", "Voidlings", 1, "2523"),
    ("s25", "Static Shade", "Voidlings", 2, "4547"),
    ("s26", "Whisperling", "Voidlings", 1, "5132"),
    ("s27", "Intern Drone", "Business Drones", 1, "2334"),
    ("s28", "Paper Shredder", "Business Drones", 2, "6254"),
    ("s29", "Memo Pusher", "Business Drones", 1, "3424"),
    ("s30", "Synergy Bot", "Business Drones", 2, "4635"),
    ("s31", "Middle Manager", "Business Drones", 1, "5241"),
]

_GOLD = [
    ("g01", "Grand Camembert", "Cheese People", 3, "7868"),
    ("g02", "Parmesan Paladin", "Cheese People", 4, "A475"),
    ("g03", "Roquefort Reaver", "Cheese People", 3, "8596"),
    ("g04", "Mopzilla", "Mops", 4, "9A64"),
    ("g05", "Sir Scrubs-a-Lot", "Mops", 3, "6787"),
    ("g06", "The Great Wringer", "Mops", 3, "8679"),
    ("g07", "Archmage Flumph", "Wizards", 4, "86A5"),
    ("g08", "Tempest Tinkerer", "Wizards", 3, "7958"),
    ("g09", "Mirror Magus", "Wizards", 3, "7777"),
    ("g10", "Maw of Many Teeth", "Monsters", 4, "5A86"),
    ("g11", "Kraken Jr.", "Monsters", 3, "9687"),
    ("g12", "Thunderhoof", "Monsters", 3, "6898"),
    ("g13", "Abyss Whisperer", "Voidlings", 4, "659A"),
    ("g14", "Starless Wanderer", "Voidlings", 3, "8769"),
    ("g15", "Eclipse Eater", "Voidlings", 3, "7896"),
    ("g16", "Chief Synergy Officer", "Business Drones", 4, "9786"),
    ("g17", "Hostile Takeover", "Business Drones", 3, "6978"),
    ("g18", "Quarterly Reaper", "Business Drones", 3, "8869"),
]


def _card(row: tuple, tier: str) -> dict:
    card_id, name, card_class, stars, edges = row
    return {"id": card_id, "name": name, "class": card_class, "tier": tier, "stars": stars, "edges": list(edges)}


STARTER_CARDS: list[dict] = [_card(row, "silver") for row in _SILVER] + [_card(row, "gold") for row in _GOLD]

SCENARIOS: list[dict] = [
    {"key": "earthquake", "name": phrase("Earthquake"),
     "text": phrase("The Battle Map becomes a 2x8 grid. With Tremor or Two Islands, the table chooses the map.")},
    {"key": "tremor", "name": phrase("Tremor"),
     "text": phrase("One board shifts over one quadrant: an S/Z-shaped map. With another board shape, the table "
                    "chooses.")},
    {"key": "two_islands", "name": phrase("Two Islands"),
     "text": phrase("The map splits into two 2x4 islands; battlefields on different islands are never adjacent.")},
    {"key": "show_whole", "name": phrase("Show Whole"),
     "text": phrase("Every hand is played face up: everyone sees every hand.")},
    {"key": "inverse", "name": phrase("Inverse"),
     "text": phrase("The smaller Combat Value wins combat. Aces still win.")},
    {"key": "ace_in_the_hole", "name": phrase("Ace in the Hole"),
     "text": phrase("Aces count as 0 and no longer win automatically. With Inverse, Aces are automatic winners "
                    "again.")},
    {"key": "class_project", "name": phrase("Class Project"),
     "text": phrase("A Mercenary played gets +1 on every edge per Mercenary of its class already in play (max +5).")},
    {"key": "class_war", "name": phrase("Class War"),
     "text": phrase("A Mercenary played gets -1 on every edge per Mercenary of its class already in play (max -5).")},
    {"key": "rags_to_riches", "name": phrase("Rags to Riches"),
     "text": phrase("Play your cards in order of Star Rank: always one of the lowest-ranked cards in your hand.")},
    {"key": "carbon_copy", "name": phrase("Carbon Copy"),
     "text": phrase("Ties capture too. Aces still beat other values.")},
    {"key": "cascade", "name": phrase("Cascade"),
     "text": phrase("A captured Mercenary also captures enemy neighbours it beats, one step only.")},
    {"key": "head_stand", "name": phrase("Head Stand"),
     "text": phrase("Two random silver cards name one or two classes; those classes play upside down all game.")},
]

SCENARIO_KEYS: list[str] = [scenario["key"] for scenario in SCENARIOS]
SCENARIOS_BY_KEY: dict[str, dict] = {scenario["key"]: scenario for scenario in SCENARIOS}
BOARD_SHAPES: list[str] = ["earthquake", "tremor", "two_islands"]
