"""The battle area and the small facts every step reads: cards, squares, distances, moves.

The board is 6×6: row 0 the Ranged Monster Row, row 1 the Melee Monster Row, row 5 the
Mercenary Row. A card id is ``"<code>#<n>"``; its data lives once in ``state["cards"]``.
"""

from __future__ import annotations

from functools import lru_cache

from ..kernel import IllegalAction
from ..words import gettext_noop

SIZE = 6
RANGED_ROW, MELEE_ROW, MERC_ROW = 0, 1, 5
START_HEALTH = 20  # "Each player should start with 20 Health": the rulebook prints no maximum
HAND = 6


# --- cards ------------------------------------------------------------------------------------


@lru_cache(maxsize=16384)
def code(card_id: str) -> str:
    return card_id.split("#")[0]


def card(state, card_id: str) -> dict:
    return state["cards"][code(card_id)]


def stats(state, card_id: str) -> dict:
    return card(state, card_id)["stats"]


def named(state, card_id: str) -> str:
    return card(state, card_id)["name"]


def make(codes_counts, used: dict) -> list[str]:
    """New card ids for ``[(code, how many), ...]``, numbered on from ``used``."""
    made = []
    for c, n in codes_counts:
        for _ in range(n):
            used[c] = used.get(c, 0) + 1
            made.append(f"{c}#{used[c]:02d}")
    return made


def category(state, mid) -> str:
    s = stats(state, mid)
    return "champion" if s.get("champion") else s["type"]


# --- a private copy for apply -----------------------------------------------------------------

# What ``apply`` copies (everything else is a plain value, or the read-only card catalog, and is shared):
# lists that only ever hold plain values (card ids, numbers, names, lines) by a slice, the rest in depth.
# tests/tabletop/engines/dungeon/test_dungeon_bot.py walks states of random games to prove nothing else is shared.
_FLAT = ("players", "monster_deck", "reserve", "monster_discard", "af_deck", "af_discard", "order", "this_turn",
         "leads", "done", "events")
_NESTED = ("pending", "combat", "lash", "leaving", "trap", "spawn", "mstep", "result", "dying")
_MERC_FLAT = ("deck", "hand", "discard", "acquired", "defence")


def thaw_state(state: dict) -> dict:
    """A private copy of a dungeon state for ``apply`` to change: ``kernel.thaw(state, shared=("cards",))``,
    several times faster, because it knows the state's shape instead of walking every card id."""
    new = dict(state)
    for key in _FLAT:
        if key in state:
            new[key] = state[key][:]
    for key in _NESTED:
        value = state.get(key)
        if value is not None:
            new[key] = _copy(value)
    new["stacks"] = {c: ids[:] for c, ids in state["stacks"].items()}
    new["mercs"] = [_thaw_merc(merc) for merc in state["mercs"]]
    new["board"] = [_thaw_monster(m) for m in state["board"]]
    return new


def _thaw_merc(merc: dict) -> dict:
    new = dict(merc)
    for key in _MERC_FLAT:
        new[key] = merc[key][:]
    if merc["pos"] is not None:
        new["pos"] = merc["pos"][:]
    if "status" in merc:
        new["status"] = _copy(merc["status"])
    return new


def _thaw_monster(m: dict) -> dict:
    new = dict(m)
    new["pos"] = m["pos"][:]
    if "status" in m:
        new["status"] = _copy(m["status"])
    return new


def _copy(value):
    kind = type(value)
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if kind is list:
        return [_copy(item) for item in value]
    return value


# --- seats and the log ------------------------------------------------------------------------


def event(state, text: str) -> None:
    state["events"].append(text)
    del state["events"][:-40]


def coop(state) -> bool:
    return state["mode"] == "cooperative"


def decider(state):
    """Who makes the monsters' choices: the Deck Master, else the First Player."""
    return state["dm"] if state["dm"] is not None else state["mercs"][state["first"]]["owner"]


def turn_order(state) -> list[int]:
    """Mercenaries clockwise from the First Player."""
    n = len(state["mercs"])
    return [(state["first"] + i) % n for i in range(n)]


def draw(rng, merc: dict, n: int) -> None:
    """Draw ``n`` cards, shuffling the discard pile into the deck when it runs out."""
    for _ in range(n):
        if not merc["deck"]:
            if not merc["discard"]:
                return
            merc["deck"], merc["discard"] = rng.shuffled(merc["discard"]), []
        merc["hand"].append(merc["deck"].pop(0))


def heal(merc: dict, amount: int) -> None:
    merc["health"] += amount


def discard_all(merc) -> None:
    merc["discard"] += merc["hand"] + merc["acquired"] + merc["defence"]
    merc["hand"], merc["acquired"], merc["defence"] = [], [], []


# --- squares ----------------------------------------------------------------------------------


def occupied(state, skip=None) -> set:
    taken = {tuple(m["pos"]) for m in state["board"] if m["id"] != skip}
    taken |= {tuple(m["pos"]) for i, m in enumerate(state["mercs"]) if m["pos"] is not None and i != skip}
    return taken


def monster(state, mid):
    for m in state["board"]:
        if m["id"] == mid:
            return m
    raise IllegalAction(gettext_noop("That monster is not in the battle area."))


def on_board(state, mid) -> bool:
    return any(m["id"] == mid for m in state["board"])


def adjacent(a, b) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def manhattan(a, b) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def can_move(state, pos, skip) -> bool:
    """Whether ``destinations`` has any square: every move starts through a free square next to ``pos``."""
    taken = occupied(state, skip)
    r, c = pos
    return any(0 <= r + dr < SIZE and 0 <= c + dc < SIZE and (r + dr, c + dc) not in taken
               for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)))


def destinations(state, pos, skip) -> dict:
    """Every square one move reaches (along, one row forward/back, or both in either order) → its length."""
    taken = occupied(state, skip)
    r, c = pos

    def slide(row, col):
        found = []
        for step in (-1, 1):
            x = col + step
            while 0 <= x < SIZE and (row, x) not in taken:
                found.append((row, x))
                x += step
        return found

    reach = {}

    def add(square, dist):
        if square not in reach or reach[square] > dist:
            reach[square] = dist

    for sq in slide(r, c):
        add(sq, abs(sq[1] - c))
        for dr in (-1, 1):
            if 0 <= r + dr < SIZE and (r + dr, sq[1]) not in taken:
                add((r + dr, sq[1]), abs(sq[1] - c) + 1)
    for dr in (-1, 1):
        if 0 <= r + dr < SIZE and (r + dr, c) not in taken:
            add((r + dr, c), 1)
            for sq in slide(r + dr, c):
                add(sq, abs(sq[1] - c) + 1)
    return reach


# --- values in this area ----------------------------------------------------------------------


def feature(state, effect) -> int:
    """The current area feature's amount when it has ``effect``, else 0."""
    af = state["area_feature"]
    if af and stats(state, af)["effect"] == effect:
        return stats(state, af)["amount"]
    return 0


def monster_value(state, m, kind) -> int:
    s = stats(state, m["id"])
    if kind == "melee":
        return s["melee"] + feature(state, "monster_melee")
    return s["ranged"]


def monster_defence(state, m) -> int:
    return max(0, stats(state, m["id"])["defence"] + feature(state, "monster_defence"))


def able(merc) -> bool:
    """A mercenary that may attack, retaliate or lash out: on the board, not Acted, above 0 Health."""
    return merc["pos"] is not None and not merc["acted"] and merc["health"] > 0


def skill_cards(state, merc, skill) -> list[str]:
    """The Skill cards of one kind (``melee``, ``ranged``, ``defence``) in the mercenary's hand."""
    cards = state["cards"]
    found = []
    for c in merc["hand"]:
        entry = cards[code(c)]
        if entry["kind"] == "skill" and entry["stats"]["skill"] == skill:
            found.append(c)
    return found
