"""Table configuration for Gridaris: validation, the starter config and random configs.

A config is plain JSON::

    {"players": ["Ann", "Ben"],            # 2-5 names; seat i is players[i]
     "mode": "standard" | "enhanced",
     "scenarios": ["inverse", "cascade"],  # enhanced only, optional: two distinct keys
     "map": "earthquake",                  # optional: the table's pick of board shape
     "cards": [{"id", "name", "class", "tier", "stars", "edges": [top, right, bottom, left]}]}

The deck must hold 6 silver and 3 gold cards per player. ``"map"`` answers the
question "which board?" asked when two board-shape scenarios are drawn; it must be
one of the drawn shapes (ruling). When there is no such question it must agree with
the scenarios given (``"standard"`` without board-shape scenarios) and is ignored if
the scenarios are left to be drawn at random. Rulings: docs/rulings.md.
"""

from __future__ import annotations

import copy

from . import maps
from .scoring import MAX_STARS
from .starter import BOARD_SHAPES, SCENARIO_KEYS, STARTER_CARDS

MIN_PLAYERS = 2
MAX_PLAYERS = 5
SILVER_PER_PLAYER = 6
GOLD_PER_PLAYER = 3
EDGE_VALUES = {str(n) for n in range(1, 10)} | {"A"}
NAMES = ["Ann", "Ben", "Cleo", "Dev", "Esme"]


def _fail(message: str) -> None:
    raise ValueError(message)


def normalise_card(raw, position: int) -> dict:
    where = f"Card {position + 1}"
    if not isinstance(raw, dict):
        _fail(f"{where} must be a dict with id, name, class, tier, stars and edges.")
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not card_id.strip():
        _fail(f"{where} needs a non-empty string id.")
    where = f"Card {card_id!r}"
    for field in ("name", "class"):
        if not isinstance(raw.get(field), str) or not raw[field].strip():
            _fail(f"{where} needs a non-empty {field}.")
    if raw.get("tier") not in ("silver", "gold"):
        _fail(f"{where} has tier {raw.get('tier')!r}; it must be 'silver' or 'gold'.")
    stars = raw.get("stars")
    if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= MAX_STARS:
        _fail(f"{where} has {stars!r} stars; it needs a whole number from 1 to {MAX_STARS}.")
    edges = raw.get("edges")
    if not isinstance(edges, (list, tuple)) or len(edges) != 4:
        _fail(f"{where} needs four edges (top, right, bottom, left).")
    edges = [str(edge).strip().upper() for edge in edges]
    if not all(edge in EDGE_VALUES for edge in edges):
        _fail(f"{where} has edges {edges}; each must be 1-9 or A.")
    return {"id": card_id, "name": raw["name"], "class": raw["class"], "tier": raw["tier"],
            "stars": stars, "edges": edges}


def validate(config) -> dict:
    """A cleaned copy of ``config``; raises ValueError with a clear message when it is unusable."""
    if not isinstance(config, dict):
        _fail("The config must be a dict.")
    players = config.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) and name.strip() for name in players):
        _fail("players must be a list of names.")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        _fail(f"Gridaris needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}.")
    mode = config.get("mode", "standard")
    if mode not in ("standard", "enhanced"):
        _fail(f"mode must be 'standard' or 'enhanced', not {mode!r}.")
    scenarios = config.get("scenarios")
    if scenarios is not None:
        if mode != "enhanced":
            if scenarios:
                _fail("Scenarios are only used in enhanced play.")
            scenarios = None
        elif (not isinstance(scenarios, list) or len(scenarios) != 2 or len(set(scenarios)) != 2
              or not all(key in SCENARIO_KEYS for key in scenarios)):
            _fail(f"Enhanced play uses exactly two different scenarios from: {', '.join(SCENARIO_KEYS)}.")
    map_key = config.get("map")
    if map_key is not None:
        if map_key not in maps.MAPS:
            _fail(f"There is no map {map_key!r}; maps are {', '.join(maps.MAPS)}.")
        if mode == "standard" and map_key != "standard":
            _fail("The standard game is played on the standard map.")
        if scenarios is not None:
            options = map_options(scenarios)
            if map_key not in options:
                _fail(f"With these scenarios the map must be one of: {', '.join(options)}.")
    raw_cards = config.get("cards")
    if not isinstance(raw_cards, list):
        _fail("cards must be a list of Mercenary cards.")
    cards = [normalise_card(raw, position) for position, raw in enumerate(raw_cards)]
    ids = [card["id"] for card in cards]
    duplicates = sorted({card_id for card_id in ids if ids.count(card_id) > 1})
    if duplicates:
        _fail(f"Card ids must be unique; repeated: {', '.join(duplicates)}.")
    for tier, each in (("silver", SILVER_PER_PLAYER), ("gold", GOLD_PER_PLAYER)):
        have = sum(1 for card in cards if card["tier"] == tier)
        if have < each * len(players):
            _fail(f"{len(players)} players need at least {each * len(players)} {tier} cards; the deck has {have}.")
    return {"players": list(players), "mode": mode, "scenarios": scenarios, "map": map_key, "cards": cards}


def map_options(scenarios: list[str]) -> list[str]:
    """The maps the drawn scenarios allow (two entries mean the table chooses)."""
    shapes = [key for key in scenarios if key in BOARD_SHAPES]
    return shapes or ["standard"]


def starter_config(players: list[str], mode: str = "standard", scenarios=None, map=None) -> dict:
    """A config for the starter catalog (the ``map`` name mirrors the config key)."""
    config = {"players": list(players), "mode": mode, "cards": copy.deepcopy(STARTER_CARDS)}
    if scenarios is not None:
        config["scenarios"] = list(scenarios)
    if map is not None:
        config["map"] = map
    return config


def random_config(rng) -> dict:
    """A random legal config: 2-5 players, either mode, random or chosen scenario pairs."""
    players = NAMES[:rng.randint(MIN_PLAYERS, MAX_PLAYERS)]
    if rng.randint(0, 2) == 0:
        return starter_config(players)
    style = rng.randint(0, 3)
    if style == 0:
        return starter_config(players, "enhanced")
    if style == 1:
        shapes = rng.shuffled(BOARD_SHAPES)[:2]
        chosen = rng.choice(shapes) if rng.randint(0, 1) else None
        return starter_config(players, "enhanced", shapes, chosen)
    pair = rng.shuffled(SCENARIO_KEYS)[:2]
    return starter_config(players, "enhanced", pair)
