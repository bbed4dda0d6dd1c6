"""Shared vocabulary and state helpers of the Army Rules engine.

Card places: each commander's ``hand``, ``exhausted``, ``disabled`` and ``killed``
piles (``state["piles"][seat]``), or the current skirmish (``offense``/``defense``).
``move`` is the one way a card changes place; it keeps the bookkeeping the outcome
and the invariants need: ``used`` (every card that ever left its hand: ruling AR16),
``killed_log`` (every final kill) and ``revived`` (Killed cards brought back by the
Cleric or a GM override).

Morale: ``morale`` is the commander's own Morale, ``base`` the Base Morale still
unspent (kept apart). Losses take Base Morale first; a commander whose total
reaches 0 is Routed (``state["routing"]`` is set and the flow routs them before
anything else happens). Rulings: docs/rulings.md.
"""

from __future__ import annotations

from .abilities import has
from .lines import GAINS, LOSES, LOSES_BASE

ROLES = ("aggressor", "guardian", "healer", "savant", "equipment", "ritual")
UNIT_ROLES = ("aggressor", "guardian", "healer", "savant")
PATHS = ("steel", "magic", "faith", "nature", "mind")
PILES = ("hand", "exhausted", "disabled", "killed")
SIDES = ("offense", "defense")
MAX_EVENTS = 60
KILL_MARGIN = 3
MORALE_POINTS = 4

# Commander class = role x path (the rulebook's table of twenty powers).
POWER_TABLE: dict[tuple[str, str], str] = {
    ("guardian", "steel"): "tactician", ("guardian", "magic"): "battlemage",
    ("guardian", "faith"): "oathbound", ("guardian", "nature"): "shapeshifter",
    ("guardian", "mind"): "adept",
    ("healer", "steel"): "chirurgeon", ("healer", "magic"): "necromancer",
    ("healer", "faith"): "cleric", ("healer", "nature"): "animist", ("healer", "mind"): "mender",
    ("aggressor", "steel"): "master_of_arms", ("aggressor", "magic"): "evoker",
    ("aggressor", "faith"): "dervish", ("aggressor", "nature"): "scout",
    ("aggressor", "mind"): "mindblade",
    ("savant", "steel"): "rogue", ("savant", "magic"): "illusionist",
    ("savant", "faith"): "chaplain", ("savant", "nature"): "shaman", ("savant", "mind"): "etherealist",
}


def other(seat: int) -> int:
    return 1 - seat


def other_side(side: str) -> str:
    return "defense" if side == "offense" else "offense"


def name(state: dict, seat) -> str:
    return "the GM" if seat == "gm" else state["commanders"][seat]["name"]


def card_name(state: dict, card_id: str) -> str:
    return state["cards"][card_id]["name"]


def owner(state: dict, card_id: str) -> int:
    return state["cards"][card_id]["owner"]


def event(state: dict, line: str) -> None:
    events = state["events"]
    events.append(line)
    if len(events) > MAX_EVENTS:
        del events[: len(events) - MAX_EVENTS]


def benefit(state: dict, seat: int) -> str | None:
    """The commander power in force for ``seat`` (a Tactician's chosen benefit)."""
    return state["commanders"][seat]["benefit"]


def location(state: dict, card_id: str) -> str | None:
    """Where a card is: a pile name, "offense"/"defense" (in the skirmish), or None."""
    seat = owner(state, card_id)
    for pile in PILES:
        if card_id in state["piles"][seat][pile]:
            return pile
    skirmish = state["skirmish"]
    if skirmish:
        for side in SIDES:
            if skirmish[side] and skirmish[side]["card"] == card_id:
                return side
    return None


def take(state: dict, card_id: str) -> str | None:
    """Remove a card from wherever it is (a pile or the skirmish); returns where it was."""
    where = location(state, card_id)
    if where in PILES:
        state["piles"][owner(state, card_id)][where].remove(card_id)
        if where == "hand":
            mark_used(state, card_id)
            revealed = state["revealed"][owner(state, card_id)]
            if card_id in revealed:
                revealed.remove(card_id)
    elif where in SIDES:
        state["skirmish"][where] = None
    return where


def put(state: dict, card_id: str, pile: str) -> None:
    state["piles"][owner(state, card_id)][pile].append(card_id)


def move(state: dict, card_id: str, pile: str, *, final_kill: bool = True) -> str | None:
    """Move a card to one of its owner's piles; returns where it came from."""
    came_from = take(state, card_id)
    put(state, card_id, pile)
    if pile == "killed" and final_kill and card_id not in state["killed_log"]:
        state["killed_log"].append(card_id)
    if came_from == "killed" and card_id in state["killed_log"] and card_id not in state["revived"]:
        state["revived"].append(card_id)
    return came_from


def mark_used(state: dict, card_id: str) -> None:
    used = state["used"][owner(state, card_id)]
    if card_id not in used:
        used.append(card_id)


def is_unit(card: dict) -> bool:
    return card["role"] != "ritual"


def total_morale(state: dict, seat: int) -> int:
    commander = state["commanders"][seat]
    return commander["morale"] + commander["base"]


def gain_morale(state: dict, seat: int, amount: int, why: str) -> None:
    if amount <= 0:
        return
    state["commanders"][seat]["morale"] += amount
    event(state, GAINS % {"name": name(state, seat), "amount": amount, "why_words": why,
                          "total": total_morale(state, seat)})


def lose_morale(state: dict, seat: int, amount: int, why: str) -> None:
    """Lose Morale, Base Morale first, never below 0; at 0 the commander is Routed."""
    commander = state["commanders"][seat]
    if amount <= 0 or commander["routed"]:
        return
    from_base = min(commander["base"], amount)
    commander["base"] -= from_base
    commander["base_used"] += from_base
    lost = from_base + min(commander["morale"], amount - from_base)
    commander["morale"] -= lost - from_base
    event(state, (LOSES_BASE if from_base else LOSES) % {"name": name(state, seat), "amount": lost, "base": from_base,
                                                          "why_words": why, "total": total_morale(state, seat)})
    if (total_morale(state, seat) == 0 and state["phase"] != "over" and state["routing"] is None
            and not any(each["routed"] for each in state["commanders"])):
        state["routing"] = seat  # once one commander is Routed the battle is lost: nobody else routs


def strength_of(card: dict) -> int:
    """Printed Strength, 0 for a card without one (Healer limits, tie-breaks)."""
    return card["strength"] if card["strength"] is not None else 0


def playable(state: dict, seat: int) -> list[str]:
    """Cards of ``seat``'s hand that may be played on Offense or Defense."""
    cards = state["cards"]
    return [card_id for card_id in state["piles"][seat]["hand"]
            if cards[card_id]["strength"] is not None and cards[card_id]["role"] != "ritual"
            and not has(cards[card_id], "no_skirmish")]


def push(state: dict, *tasks: dict) -> None:
    """Put tasks at the front of the queue, in the order given."""
    state["tasks"][0:0] = list(tasks)
