"""Areas and turns: the First Player, hands, the area feature, spawning, entering, the end of a turn.

A new area runs ``feature`` (traps wait for defence cards), ``spawn`` (placement choices go
to the First Player or the Deck Master), ``place_mercs``; each turn then starts with
``lead`` in a "2 Pairs" game (each player picks which mercenary goes first) and ``mercs``.
"""

from __future__ import annotations

from . import lines
from .anytime import window_seats
from .board import (
    HAND,
    MELEE_ROW,
    MERC_ROW,
    RANGED_ROW,
    SIZE,
    card,
    code,
    coop,
    decider,
    discard_all,
    draw,
    event,
    heal,
    named,
    occupied,
    stats,
    turn_order,
)
from .monsters import start_monster_turn
from .scoring import finish
from .status import clear, resolve_merc

PER_AREA = {("competitive", 3): 3, ("competitive", 4): 4, ("cooperative", 3): 4, ("cooperative", 4): 5}


def new_area(state, rng, first_area=False) -> None:
    """The First Player passes left (after the first area), everybody draws six, the area feature is drawn."""
    state["area"] += 1
    if not first_area:
        state["first"] = (state["first"] + 1) % len(state["mercs"])
    for merc in state["mercs"]:
        draw(rng, merc, HAND)
    event(state, lines.FIRST_PLAYER % {"area": state["area"], "merc": state["mercs"][state["first"]]["name"]})
    state["phase"] = "feature"


def step_feature(state) -> None:
    extra = 0
    if state["af_deck"]:
        af = state["af_deck"].pop(0)
        state["area_feature"] = af
        extra = _area_feature(state, af)
    state["spawn"] = {"to_draw": PER_AREA[(state["table_mode"], state["count"])] + extra, "queue": [],
                      "last": False}
    state["phase"] = "spawn"


def _area_feature(state, af) -> int:
    """Apply a feature drawn now; a trap queues its victims (who may defend); returns extra monsters to draw."""
    effect, amount = stats(state, af)["effect"], stats(state, af)["amount"]
    event(state, lines.AREA_FEATURE % {"card": named(state, af)})
    first = state["mercs"][state["first"]]
    if effect == "heal_all":
        for m in state["mercs"]:
            heal(m, amount)
    elif effect in ("trap_first", "trap_all"):
        victims = [state["first"]] if effect == "trap_first" else turn_order(state)
        state["trap"] = {"card": af, "amount": amount, "mercs": victims}
    elif effect == "exp_all":
        for m in state["mercs"]:
            m["exp"] += amount
    elif effect == "exp_first":
        first["exp"] += amount
    elif effect == "extra_monster":
        return amount
    return 0


def placement_options(state, mid) -> list:
    """Free squares of the monster's row (the next row towards the mercenaries when full), nearest the centre."""
    taken = occupied(state)
    s = stats(state, mid)
    row = RANGED_ROW if (s["type"] == "ranged" or s.get("champion")) else MELEE_ROW
    while row < SIZE:
        free = [(row, c) for c in range(SIZE) if (row, c) not in taken]
        if free:
            if state["dm"] is not None:
                return free
            best = min(abs(c - 2.5) for _, c in free)
            return [sq for sq in free if abs(sq[1] - 2.5) == best]
        row += 1
    return []


def step_spawn(state) -> None:
    sp = state["spawn"]
    if sp["queue"]:
        mid = sp["queue"][0]
        options = placement_options(state, mid)
        if not options:
            sp["queue"].pop(0)
            state["monster_discard"].append(mid)
            event(state, lines.NO_ROOM % {"monster": named(state, mid)})
        elif len(options) == 1:
            place_monster(state, mid, options[0])
        else:
            state["pending"] = {"type": "place_monster", "seat": decider(state), "monster": mid,
                                "options": [list(o) for o in options]}
        return
    if sp["to_draw"] == 0 and not sp["last"]:
        sp["last"] = True
        if len(state["monster_deck"]) == 1:
            sp["to_draw"] = 1
    if sp["to_draw"] > 0 and state["monster_deck"]:
        sp["to_draw"] -= 1
        _draw_monster_card(state, sp, state["monster_deck"].pop(0))
        return
    state["spawn"] = None
    state["phase"] = "place_mercs"


def _draw_monster_card(state, sp, drawn) -> None:
    c = card(state, drawn)
    if c["kind"] == "ambush":
        event(state, c["name"])
        for wanted in c["stats"]["summons"]:
            found = next((r for r in state["reserve"] if code(r) == wanted), None)
            if found:
                state["reserve"].remove(found)
                sp["queue"].append(found)
        state["monster_discard"].append(drawn)
        return
    if c["stats"].get("champion"):
        sp["to_draw"] += 1
    sp["queue"].append(drawn)


def place_monster(state, mid, square) -> None:
    state["spawn"]["queue"].remove(mid)
    state["board"].append({"id": mid, "pos": list(square), "wounds": 0, "acted": False})
    event(state, lines.APPEARS % {"monster": named(state, mid), "row": square[0] + 1, "column": square[1] + 1})


def step_place_mercs(state) -> None:
    for index in turn_order(state):
        merc = state["mercs"][index]
        if merc["pos"] is None:
            taken = occupied(state)
            options = [c for c in range(SIZE) if (MERC_ROW, c) not in taken]
            state["pending"] = {"type": "enter", "seat": merc["owner"], "merc": index, "options": options}
            return
    start_turn(state)


# --- turns ------------------------------------------------------------------------------------


def pairs(state) -> bool:
    """Two players with two mercenaries each, playing "2 Pairs" (also the 3-player Deck Master game)."""
    return state["variant"] == "pairs" and len({m["owner"] for m in state["mercs"]}) == 2


def start_turn(state) -> None:
    state["turn"] += 1
    state["current"] = None
    state["done"] = []
    if pairs(state):
        state["phase"], state["leads"] = "lead", []
        return
    _begin_mercs(state, turn_order(state))


def _begin_mercs(state, order) -> None:
    state["phase"] = "mercs"
    state["order"] = list(order)
    state["this_turn"] = list(order)


def step_lead(state) -> None:
    """Each player (the First Player first) picks which of their mercenaries goes first; then they alternate."""
    players = list(dict.fromkeys(state["mercs"][i]["owner"] for i in turn_order(state)))
    mine = {p: [i for i, m in enumerate(state["mercs"]) if m["owner"] == p] for p in players}
    if len(state["leads"]) < len(players):
        player = players[len(state["leads"])]
        state["pending"] = {"type": "lead", "seat": player, "options": mine[player]}
        return
    seconds = [next(i for i in mine[p] if i != lead) for p, lead in zip(players, state["leads"], strict=True)]
    _begin_mercs(state, state["leads"] + seconds)


def next_mercenary(state) -> None:
    """The next mercenary's turn starts with regeneration; after the last, the monsters (or the end)."""
    if state["order"]:
        index = state["order"].pop(0)
        state["current"] = index
        merc = state["mercs"][index]
        merc["moved"] = merc["attacked"] = False
        resolve_merc(state, merc)  # "deal with any effects they might be suffering from", then regeneration
        if merc["health"] <= 0:
            merc["health"] += 1
            event(state, lines.REGENERATES % {"merc": merc["name"]})
        return
    if state["board"]:
        start_monster_turn(state)
    else:
        state["phase"] = "end_turn"


def end_turn(state, rng) -> bool:
    """The end of the turn; False while an owner still has the last chance to acquire."""
    if window_seats(state):
        return False
    for merc in state["mercs"]:
        discard_all(merc)
        merc["acted"] = merc["bought"] = merc["killed"] = merc["defended"] = False
    for m in state["board"]:
        m["acted"] = False
    if coop(state) and all(merc["health"] <= 0 for merc in state["mercs"]):
        finish(state, "lost", lines.ALL_AT_MINUS)
        return True
    if not state["board"]:
        if not state["monster_deck"]:
            finish(state, "won", lines.CLEARED)
            return True
        if state["area_feature"]:
            state["af_discard"].append(state["area_feature"])
            state["area_feature"] = None
        for merc in state["mercs"]:
            merc["pos"] = None
            clear(merc)  # "Any tokens and counters on them are removed"
        new_area(state, rng)
        return True
    for merc in state["mercs"]:
        draw(rng, merc, HAND)
    start_turn(state)
    return True
