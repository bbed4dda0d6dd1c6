"""Set-up: seats and mercenaries, starting decks, the resource area, the monster and area feature decks."""

from __future__ import annotations

from ..kernel import require
from ..words import gettext_noop
from . import cards as starter
from . import lines
from .adventure import LEGACY_ADVENTURE
from .areas import new_area
from .board import START_HEALTH, event, make
from .catalog import catalog_problems
from .flow import advance


def game_type(config: dict) -> tuple[str, int]:
    """(mode for the monster table, 3 or 4 mercenaries)."""
    n = len(config["players"])
    if config.get("deck_master"):
        return "cooperative", 4
    if n == 2:
        return ("cooperative" if config.get("variant", "pairs") == "pairs" else "competitive"), 4
    return config.get("mode", "competitive"), n


def setup(config: dict, rng) -> dict:
    players = list(config["players"])
    n = len(players)
    dm = bool(config.get("deck_master"))
    require(2 <= n <= 5, gettext_noop("The dungeon game seats 2 to 5 players."))
    require(n != 5 or dm, gettext_noop("Five players need a Deck Master."))
    require(not dm or n in (3, 5), gettext_noop("A Deck Master plays with 3 or 5 players."))
    cards = config.get("cards") or starter.starter_cards()
    problems = catalog_problems(cards, config.get("adventure"))
    adventure = config.get("adventure") or LEGACY_ADVENTURE
    require(not problems, gettext_noop("The dungeon catalog cannot be used: %(problems)s."),
            problems="; ".join(problems[:5]))
    catalog = {c["code"]: c for c in cards}
    dm_seat = n - 1 if dm else None
    heroes = [s for s in range(n) if s != dm_seat]
    owners = heroes * 2 if len(heroes) == 2 else heroes
    mode = "cooperative" if dm else config.get("mode", "competitive")
    if len(heroes) == 2 and config.get("variant", "pairs") == "singles":
        mode = "competitive"
    variant = config.get("variant", "pairs") if len(heroes) == 2 else "standard"
    table_mode, count = game_type(config)
    used: dict = {}
    state = {
        "v": 1, "players": players, "mode": mode, "variant": variant, "dm": dm_seat, "cards": catalog,
        "mercs": [], "board": [], "monster_discard": [], "af_discard": [], "area_feature": None,
        "first": 0, "area": 0, "turn": 0, "phase": "feature", "current": None, "order": [], "this_turn": [],
        "leads": [], "done": [], "pending": None, "combat": None, "lash": None, "leaving": None, "trap": None,
        "spawn": None, "mstep": None, "events": [], "result": None, "table_mode": table_mode, "count": count,
    }
    colours = [c for c in catalog.values() if c["kind"] == "mercenary"]
    for index, owner in enumerate(owners):
        deck = rng.shuffled(make([tuple(pair) for pair in adventure["starting_deck"]], used))
        colour = colours[index % len(colours)] if colours else {"code": f"m{index}", "name": f"Mercenary {index + 1}"}
        state["mercs"].append({
            "owner": owner, "colour": colour["code"], "name": colour["name"], "health": START_HEALTH, "exp": 0,
            "deck": deck, "hand": [], "discard": [], "acquired": [], "defence": [], "pos": None, "acted": False,
            "moved": False, "attacked": False, "bought": False, "killed": False, "defended": False, "status": {},
        })
    state["stacks"] = {}
    for c in (c for c in adventure["resource"] if c in catalog):
        state["stacks"][c] = make([(c, catalog[c]["stats"].get("copies", 0))], used)
    state["monster_deck"], state["reserve"] = monster_decks(catalog, adventure, table_mode, count, used, rng)
    features = adventure.get("area_features")
    if features is None:
        features = {c["code"]: c["stats"].get("copies", 1) for c in catalog.values() if c["kind"] == "area_feature"}
    state["af_deck"] = rng.shuffled(make(sorted(features.items()), used))
    state["adventure"] = adventure["name"]
    event(state, lines.SET_UP[table_mode] % {"adventure": adventure["name"], "count": count,
                                             "cards": len(state["monster_deck"])})
    state["card_count"] = len(all_cards(state))
    new_area(state, rng, first_area=True)
    advance(state, rng)
    return state


def monster_decks(catalog, adventure, table_mode, count, used, rng):
    """The Monster Deck (halves with their ambushes, the champion in the bottom ten) and the reserve."""
    counts = adventure["monster_table"][f"{table_mode}-{count}"]
    monsters = rng.shuffled(make(sorted(counts.items()), used))
    half = (len(monsters) + 1) // 2
    top = rng.shuffled(monsters[:half] + make([(a, 1) for a in adventure["ambush_top"]], used))
    bottom = rng.shuffled(monsters[half:] + make([(a, 1) for a in adventure["ambush_bottom"]], used))
    deck = top + bottom
    if adventure.get("champion"):
        tail = deck[-10:] + make([(adventure["champion"], 1)], used)
        deck = deck[:-10] + rng.shuffled(tail)
    reserve = []
    for c in sorted(counts, key=lambda k: catalog[k]["name"]):
        extra = catalog[c]["stats"].get("copies", 0) - counts[c]
        reserve += make([(c, max(0, extra))], used)
    return deck, reserve


def all_cards(state) -> list[str]:
    """Every card id in the game, wherever it is (invariants: none lost, none twice)."""
    found = list(state["monster_deck"]) + state["reserve"] + state["monster_discard"] + state["af_deck"]
    found += state["af_discard"] + ([state["area_feature"]] if state["area_feature"] else [])
    found += [m["id"] for m in state["board"]]
    for merc in state["mercs"]:
        found += merc["deck"] + merc["hand"] + merc["discard"] + merc["acquired"] + merc["defence"]
    for stack in state["stacks"].values():
        found += stack
    if state.get("spawn"):
        found += state["spawn"]["queue"]
    if state.get("combat"):
        found += state["combat"]["cards"]
    p = state.get("pending")
    if p and p["type"] == "attack" and not state.get("combat"):
        found += p["cards"]
    return found
