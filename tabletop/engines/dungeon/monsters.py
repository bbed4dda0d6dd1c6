"""The Monster Turn: the order monsters act in, how they move, whom they attack, d20 ranged targeting.

``state["mstep"]`` walks the steps (melee move, melee attack, champion move, champion
attack, ranged move, ranged attack); within a step the highest printed Health acts first and
same-named monsters finish together. Choices the rules leave open go to the First Player,
or to the Deck Master, who moves and aims the monsters as they wish within the rules.
"""

from __future__ import annotations

from . import lines
from .board import adjacent, category, decider, destinations, event, manhattan, monster, named, stats
from .combat import monster_attacks, start_leaving
from .status import resolve_monsters

STEPS = ["melee_move", "melee_attack", "champion_move", "champion_attack", "ranged_move", "ranged_attack"]


def start_monster_turn(state) -> None:
    """Effects on monsters resolve first ("now is the time to resolve them"), then the monsters act."""
    resolve_monsters(state)
    state["phase"] = "monsters"
    state["mstep"] = {"steps": list(STEPS), "todo": None, "group": None}


def step_monsters(state, rng) -> None:
    ms = state["mstep"]
    if not ms["steps"]:
        state["mstep"] = None
        state["phase"] = "end_turn"
        return
    cat = ms["steps"][0].split("_")[0]
    if ms["todo"] is None:
        ms["todo"] = [m["id"] for m in state["board"] if category(state, m["id"]) == cat and not m["acted"]]
        ms["group"] = None
    ms["todo"] = [mid for mid in ms["todo"] if any(m["id"] == mid and not m["acted"] for m in state["board"])]
    if not ms["todo"]:
        ms["steps"].pop(0)
        ms["todo"] = None
        return
    group = [mid for mid in ms["todo"] if named(state, mid) == ms["group"]]
    if not group:
        top = max(stats(state, mid)["health"] for mid in ms["todo"])
        group = [mid for mid in ms["todo"] if stats(state, mid)["health"] == top]
    if len(group) > 1:
        state["pending"] = {"type": "next_monster", "seat": decider(state), "options": sorted(group)}
        return
    monster_acts(state, group[0], rng)


def monster_acts(state, mid, rng) -> None:
    ms = state["mstep"]
    ms["todo"].remove(mid)
    ms["group"] = named(state, mid)
    m = monster(state, mid)
    what = ms["steps"][0].split("_")[1]
    kind = stats(state, mid)["type"]
    if what == "move":
        if m.get("webbed"):
            return
        options = monster_moves(state, m, kind)
        if len(options) == 1:
            move_monster(state, m, options[0])
        elif options:
            state["pending"] = {"type": "monster_move", "seat": decider(state), "monster": mid,
                                "options": [list(o) for o in options]}
        return
    near = [i for i, merc in enumerate(state["mercs"]) if merc["pos"] and adjacent(m["pos"], merc["pos"])]
    if state["dm"] is not None:
        _deck_master_aims(state, mid, kind, near)
        return
    if near:
        if len(near) == 1:
            monster_attacks(state, mid, near[0], "melee")
        else:
            state["pending"] = {"type": "target", "seat": decider(state), "monster": mid, "options": near,
                                "kind": "melee", "hold": False}
        return
    if kind == "ranged":
        _shoot(state, m, rng)


def _deck_master_aims(state, mid, kind, near) -> None:
    """The DM picks any target but those at Minus Health; a melee monster may hold back."""
    if kind == "ranged" and not near:
        targets = [i for i, merc in enumerate(state["mercs"]) if merc["health"] > 0]
        if targets:
            state["pending"] = {"type": "target", "seat": state["dm"], "monster": mid, "options": targets,
                                "kind": "ranged", "hold": False}
        return
    targets = [i for i in near if state["mercs"][i]["health"] > 0]
    if targets:
        state["pending"] = {"type": "target", "seat": state["dm"], "monster": mid, "options": targets,
                            "kind": "melee", "hold": kind == "melee"}


def _shoot(state, m, rng) -> None:
    """One d20 per shot: a miss on the lowest band, then the mercenaries in this turn's order."""
    roll = rng.randint(1, 20)
    order = state["this_turn"]
    width = 4 if len(order) == 4 else 5
    slot = (roll - 1) // width - 1
    if slot < 0:
        event(state, lines.SHOOTS_AND_MISSES % {"monster": named(state, m["id"]), "roll": roll})
        m["acted"] = True
        return
    event(state, lines.SHOOTS % {"monster": named(state, m["id"]), "roll": roll})
    monster_attacks(state, m["id"], order[slot], "ranged")


def monster_moves(state, m, kind) -> list:
    """The squares the monster may end its move on (one square: no choice)."""
    here = tuple(m["pos"])
    reach = destinations(state, here, m["id"])
    reach[here] = 0
    mercs = [tuple(x["pos"]) for x in state["mercs"] if x["pos"] is not None]
    if not mercs:
        return [here]

    def next_to_merc(sq):
        return any(adjacent(sq, p) for p in mercs)

    if kind == "ranged":
        if not next_to_merc(here):
            return [here]
        along = {sq: d for sq, d in reach.items() if sq[0] == here[0] and not next_to_merc(sq)}
        pool = along or {sq: d for sq, d in reach.items() if not next_to_merc(sq)}
        if not pool:
            return [here]
        if state["dm"] is not None:
            return sorted(pool)
        best = min(pool.values())
        return sorted(sq for sq, d in pool.items() if d == best)
    if state["dm"] is not None:
        return sorted(reach)
    adj = {sq: d for sq, d in reach.items() if next_to_merc(sq)}
    if adj:
        reachable = [p for p in mercs if any(adjacent(sq, p) for sq in adj)]
        near = min(manhattan(here, p) for p in reachable)
        chosen = [p for p in reachable if manhattan(here, p) == near]
        pool = {sq: d for sq, d in adj.items() if any(adjacent(sq, p) for p in chosen)}
        best = min(pool.values())
        return sorted(sq for sq, d in pool.items() if d == best)
    near = min(manhattan(here, p) for p in mercs)
    chosen = [p for p in mercs if manhattan(here, p) == near]
    score = {sq: min(manhattan(sq, p) for p in chosen) for sq in reach}
    best = min(score.values())
    return sorted(sq for sq, v in score.items() if v == best)


def move_monster(state, m, square) -> None:
    """Move, unless it stays put; mercenaries it moves away from may lash out first."""
    if list(square) != m["pos"]:
        start_leaving(state, m, square)
