"""What a mercenary may do at any time: acquire a card, play an ability card or a monster's blue box.

"At any time (during the Mercenary OR Monster Turn)": from the first mercenary turn of an
area to the end of the turn, whenever the table waits for somebody, every mercenary's owner
may use these — not only the acting seat. The end of the turn waits for the owners who can
still acquire something ("one last chance") until each says they are done.
"""

from __future__ import annotations

from . import lines
from .board import card, code, draw, event, heal, named, stats

# an ability's or a blue box's label, by kind and whether the owner leads two mercenaries (then it names one)
_PLAY = {("ability", False): lines.PLAY, ("ability", True): lines.PLAY_FOR,
         ("blue", False): lines.PLAY_BLUE, ("blue", True): lines.PLAY_BLUE_FOR}

FREE = ("acquire", "ability", "blue")
OPEN_PHASES = ("lead", "mercs", "monsters", "end_turn")


def anytime_open(state) -> bool:
    return state["result"] is None and state["phase"] in OPEN_PHASES


def one_per_code(state, ids) -> list[str]:
    """One card of each kind (the first), so a hand of three Healing Potions shows one button."""
    seen = {}
    for c in ids:
        seen.setdefault(card(state, c)["code"], c)
    return sorted(seen.values())


def free_actions(state, only=None) -> list[dict]:
    """What every mercenary may do now at any time; ``only``: one mercenary's (by index) alone."""
    if not anytime_open(state):
        return []
    cards, stacks, mercs = state["cards"], state["stacks"], state["mercs"]
    owners = [merc["owner"] for merc in mercs]
    stocked = None  # (cost, condition, card) of every stack not empty, by code: made once, when needed
    acts = []
    for index, merc in enumerate(mercs):
        if only is not None and index != only:
            continue
        owner = merc["owner"]
        shared = owners.count(owner) > 1  # the owner leads two: the label names the mercenary
        if not merc["bought"]:
            if stocked is None:
                stocked = _stocked(cards, stacks)
            for entry, cost in _acquirable(merc, *stocked):
                label = (lines.ACQUIRE_FOR % {"merc": merc["name"], "card": entry["name"], "cost": cost} if shared
                         else lines.ACQUIRE % {"card": entry["name"], "cost": cost})
                acts.append({"type": "acquire", "merc": index, "code": entry["code"], "seat": owner,
                             "label": label})
        if not merc["hand"]:
            continue
        abilities, blues = {}, {}  # one card of each kind (the first in the hand), as one_per_code
        for c in merc["hand"]:
            entry = cards[code(c)]
            if entry["kind"] == "ability":
                abilities.setdefault(entry["code"], (c, entry))
            elif entry["kind"] == "monster" and entry["stats"].get("blue_effect"):
                blues.setdefault(entry["code"], (c, entry))
        for kind, firsts in (("ability", abilities), ("blue", blues)):
            for c, entry in sorted(firsts.values(), key=_first):
                template = _PLAY[kind, shared]
                acts.append({"type": kind, "merc": index, "card": c, "seat": owner,
                             "label": template % {"merc": merc["name"], "card": entry["name"]}})
    return acts


# (cost, condition, card) of each stack not empty, by code, and the cheapest cost, per catalog and set
# of stocked codes: free_actions runs at every step of the computer's playouts, and the stocks rarely change.
# The catalog is kept in the entry, so its id is not reused while the entry lives; catalogs are read-only.
_STOCKED: dict[tuple, tuple] = {}


def _acquirable(merc, stocked, cheapest) -> list:
    """(card, cost) of each stocked card the mercenary may acquire now: not yet this turn, with the EXP for
    it, and meeting its condition (a kill or a successful defence this turn)."""
    exp, killed, defended = merc["exp"], merc["killed"], merc["defended"]
    if merc["bought"] or exp < cheapest:
        return []
    return [(entry, cost) for cost, cond, entry in stocked
            if exp >= cost and (cond != "kill" or killed) and (cond != "defence" or defended)]


def _stocked(cards, stacks) -> tuple[list, int]:
    key = (id(cards), *(c for c, ids in stacks.items() if ids))
    found = _STOCKED.get(key)
    if found is None or found[0] is not cards:
        stocked = [(entry["stats"].get("cost", 0), entry["stats"].get("condition", ""), entry)
                   for entry in (cards[c] for c in sorted(stacks) if stacks[c])]
        if len(_STOCKED) >= 64:  # a page loads a fresh catalog with each state: keep few alive
            _STOCKED.clear()
        found = _STOCKED[key] = (cards, stocked, min((each[0] for each in stocked), default=0))
    return found[1], found[2]


def _first(pair):
    return pair[0]


def window_seats(state) -> list:
    """Owners still to use their last chance to acquire at the end of the turn."""
    seats = []
    for index in state["this_turn"]:
        merc = state["mercs"][index]
        if merc["owner"] in state["done"] or merc["owner"] in seats:
            continue
        stocked = _stocked(state["cards"], state["stacks"])
        if any(_acquirable(m, *stocked) for m in state["mercs"] if m["owner"] == merc["owner"]):
            seats.append(merc["owner"])
    return seats


def do_free(state, a, rng) -> None:
    merc = state["mercs"][a["merc"]]
    if a["type"] == "acquire":
        got = state["stacks"][a["code"]].pop(0)
        merc["acquired"].append(got)
        merc["bought"] = True
        merc["exp"] -= state["cards"][a["code"]]["stats"].get("cost", 0)
        event(state, lines.ACQUIRES % {"merc": merc["name"], "card": named(state, got)})
        return
    merc["hand"].remove(a["card"])
    merc["discard"].append(a["card"])
    s = stats(state, a["card"])
    if a["type"] == "blue":
        effect(rng, merc, s["blue_effect"], s.get("blue_amount", 0))
    else:
        effect(rng, merc, s["effect"], s["amount"])
    event(state, lines.PLAYS % {"merc": merc["name"], "card": named(state, a["card"])})


def effect(rng, merc, kind, amount) -> None:
    """The effects an ability card (or a blue box) can have: heal, gain EXP, draw cards."""
    if kind == "heal":
        heal(merc, amount)
    elif kind == "exp":
        merc["exp"] += amount
    elif kind == "draw":
        draw(rng, merc, amount)

