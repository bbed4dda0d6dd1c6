"""What the engine reads from a card catalog, checked before a table is set up or a catalog imported.

A card is ``{"code", "kind", "name", "stats", "text"}``; ``STATS`` names, for each kind, the
fields of ``stats`` the engine reads and the kind of value each holds (``REQUIRED`` the ones
it cannot do without). ``card_problems`` checks one card (the catalog import and the admin
use it row by row); ``catalog_problems`` checks a whole catalog, including the cards the
set-up deals by code (starting decks, the monster table, ambushes, the champion).
"""

from __future__ import annotations

from ..shapes import FLAG, TEXT, choice, field_problems, list_of, whole
from . import cards as starter
from .adventure import LEGACY_ADVENTURE, adventure_problems, dealt_codes, reserve_problems
from .status import STATUSES

MAX_COPIES = 100  # as campaign/bounds.py MAX_CARD_COPIES: what a box holds, never a 3.9 MB state
MAX_STAT = 1_000
COPIES = whole(0, MAX_COPIES)
STAT = whole(-MAX_STAT, MAX_STAT)
CONDITION = choice(*starter.CONDITIONS)
AREA_EFFECTS = tuple(sorted({feature[2] for feature in starter.AREA_FEATURES}))

STATUS = {"status": choice(*STATUSES), "status_amount": whole(0, MAX_STAT), "status_turns": whole(1, 20)}
STATS = {
    "monster": {"type": choice("melee", "ranged"), "champion": FLAG, "health": whole(1, MAX_STAT), "melee": STAT,
                **STATUS, "ranged": STAT, "defence": STAT, "exp": STAT, "mvp": STAT, "copies": COPIES,
                "blue_effect": choice(*starter.EFFECTS), "blue_amount": STAT},
    "skill": {"skill": choice("melee", "ranged", "defence"), "value": STAT, "min_range": whole(0, 5),
              "max_range": whole(0, 5), "cost": whole(0, MAX_STAT), "copies": COPIES, "condition": CONDITION,
              **STATUS},
    "ability": {"effect": choice(*starter.EFFECTS), "amount": STAT, "cost": whole(0, MAX_STAT), "copies": COPIES,
                "condition": CONDITION},
    "area_feature": {"effect": choice(*AREA_EFFECTS), "amount": STAT, "copies": COPIES},
    "ambush": {"summons": list_of(TEXT, max_items=10), "copies": COPIES},
    "mercenary": {},  # a mercenary card prints no values: attack and defence come from Skill cards
}
REQUIRED = {
    "monster": ("type", "health", "melee", "ranged", "defence", "exp", "mvp"),
    "skill": ("skill", "value", "cost"),
    "ability": ("effect", "amount", "cost"),
    "area_feature": ("effect", "amount"),
    "ambush": ("summons",),
    "mercenary": (),
}


def card_problems(card) -> list[str]:
    """Why the engine cannot use this card (empty when it can), each a short phrase."""
    if not isinstance(card, dict):
        return ["a card must be a JSON object"]
    problems = [f"{name} must be {TEXT.name}" for name in ("code", "name") if not TEXT.accepts(card.get(name))]
    if not isinstance(card.get("text", ""), str):
        problems.append("text must be text")
    kind = card.get("kind")
    if kind not in STATS:
        return [*problems, f"kind must be one of {', '.join(STATS)}"]
    stats = card.get("stats")
    problems += field_problems(stats, STATS[kind], REQUIRED[kind], what=f"stats of a {kind}")
    if not problems and stats.get("blue_effect") is not None and "blue_amount" not in stats:
        problems.append("stats of a monster with a blue_effect needs 'blue_amount'")
    return problems


def catalog_problems(cards: list, adventure: dict | None = None) -> list[str]:
    """Every problem of a whole catalog: each card's, codes twice, and what the adventure (the starter one when
    none is given) deals but the catalog misses or holds as another kind; with an adventure given, also whether
    its reserve can summon every ambush (a table set up before adventures were data is not held to that)."""
    if not isinstance(cards, list):
        return ["the cards must be a list"]
    problems, codes = [], {}
    for number, card in enumerate(cards, start=1):
        where = card.get("code") if isinstance(card, dict) and isinstance(card.get("code"), str) else f"#{number}"
        problems += [f"card {where}: {problem}" for problem in card_problems(card)]
        if isinstance(card, dict) and isinstance(card.get("code"), str):
            if card["code"] in codes:
                problems.append(f"card {where}: the code appears twice")
            codes[card["code"]] = card
    if problems:
        return problems
    legacy, adventure = adventure is None, adventure if adventure is not None else LEGACY_ADVENTURE
    shape = adventure_problems(adventure)
    if shape:
        return [f"adventure {adventure.get('name', '?') if isinstance(adventure, dict) else '?'}: {p}" for p in shape]
    needed = dealt_codes(adventure)
    missing = sorted(code for code in needed if code not in codes)
    if missing:
        problems.append(f"the set-up deals {', '.join(missing)}, which the catalog does not hold (or not active)")
    problems += [f"card {code}: the adventure deals it as {' or '.join(kinds)}, but it is a {codes[code]['kind']}"
                 for code, kinds in sorted(needed.items()) if code in codes and codes[code]["kind"] not in kinds]
    for code, card in codes.items():
        if card["kind"] == "ambush":
            unknown = [c for c in card["stats"]["summons"] if codes.get(c, {}).get("kind") != "monster"]
            if unknown:
                problems.append(f"card {code}: it summons {', '.join(unknown)}, which is not a monster of the catalog")
    if not problems and not legacy:
        problems += [f"adventure {adventure['name']}: {p}" for p in reserve_problems(adventure, codes)]
    return problems
