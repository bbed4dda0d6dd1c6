"""Mercenarium's board and piles: cells, sides and Houses, aura dots turned to a direction, threats,
where a card may be summoned or moved, what may be bought, and the hands, decks and discards.

Split from ``game.py`` by subject (issue 39); ``game.py`` still names the rules' entry points. Every
function reads or changes a state as ``game.py`` hands it over (a private copy, ``private_copy``).
"""

from __future__ import annotations

from ..kernel import thaw
from .cards import MERCENARY_VALUES

SIZE = 7
SIDES = {2: ["south", "north"], 3: ["south", "west", "north"], 4: ["south", "west", "north", "east"]}
HOUSES = {"south": (6, 3), "west": (3, 0), "north": (0, 3), "east": (3, 6)}
ROTATION = {"south": 0, "west": 1, "north": 2, "east": 3}
DIRS = [(-1, 0), (0, 1), (1, 0), (0, -1)]  # N, E, S, W (absolute)
HAND_LIMIT = 5
WIN_CAPTURES = 5
CONSUMES = {"C": "S", "S": "G", "G": "B", "B": "C"}
OPPOSITE = {"C": "G", "G": "C", "S": "B", "B": "S"}
SHARED = ("cards", "hymns")


def key(r: int, c: int) -> str:
    return f"{r},{c}"


def parse(cell: str) -> tuple[int, int]:
    r, c = cell.split(",")
    return int(r), int(c)


def neighbours(cell: str) -> tuple[tuple[int, str], ...]:
    """(absolute direction, cell) of each cell next to ``cell`` on the board (a table: the search asks
    millions of times)."""
    return _NEIGHBOURS[cell]


_NEIGHBOURS = {key(r, c): tuple((d, key(r + dr, c + dc)) for d, (dr, dc) in enumerate(DIRS)
                                if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)
               for r in range(SIZE) for c in range(SIZE)}


def house(state: dict, seat: int) -> str:
    return key(*HOUSES[state["sides"][seat]])


def dots_toward(state: dict, card_id: str, owner: int, direction: int) -> int:
    """Aura dots of ``card_id`` on its edge facing absolute ``direction`` (0 N, 1 E, 2 S, 3 W)."""
    rot = ROTATION[state["sides"][owner]]
    return state["cards"][card_id]["aura"][(direction - rot) % 4]


def is_hymn(state: dict, card_id: str) -> bool:
    return card_id in state["hymns"]


def value(state: dict, card_id: str) -> int:
    return state["cards"][card_id]["value"]


def name(state: dict, card_id: str) -> str:
    return (state["hymns"].get(card_id) or state["cards"][card_id])["name"]


# ---------------------------------------------------------------- helpers

_FLAT_LISTS = ("deck", "hymnal", "discard", "hymn_discard", "face_up", "events", "players", "sides")
_FLAT_DICTS = ("contracts", "wards", "seen")


def private_copy(state: dict) -> dict:
    """``thaw(state, SHARED)`` (a deep copy but the shared catalogs) that knows this state's shape:
    lists of ids and dicts of scalars copied one level, the board and captures two; anything else
    deep-copied by ``thaw``. Several times faster, and every search step copies a state (issue 27)."""
    new = thaw({key: item for key, item in state.items() if key not in _KNOWN}, SHARED)
    for key in _FLAT_LISTS:
        new[key] = list(state[key])
    for key in _FLAT_DICTS:
        new[key] = dict(state[key])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["board"] = {cell: dict(slot) for cell, slot in state["board"].items()}
    new["captures"] = [[dict(cap) for cap in caps] for caps in state["captures"]]
    return new


_KNOWN = frozenset((*_FLAT_LISTS, *_FLAT_DICTS, "hands", "board", "captures"))


def cards_in_play(state: dict, seat: int) -> list[str]:
    return [cell for cell, slot in state["board"].items() if slot["owner"] == seat]


def in_limbo(state: dict, seat: int) -> bool:
    if cards_in_play(state, seat):
        return False
    slot = state["board"].get(house(state, seat))
    return slot is not None and slot["owner"] != seat


def hand_cards(state: dict, seat: int) -> list[str]:
    return [card_id for card_id in state["hands"][seat] if not is_hymn(state, card_id)]


def hand_hymns(state: dict, seat: int) -> list[str]:
    return [card_id for card_id in state["hands"][seat] if is_hymn(state, card_id)]


def unspent(state: dict, seat: int) -> list[int]:
    return [index for index, cap in enumerate(state["captures"][seat]) if not cap["spent"]]


def _insert_random(pile: list, card_id: str, rng) -> None:
    pile.insert(rng.randint(0, len(pile)), card_id)


def _enforce_limits(state: dict, seat: int, rng) -> None:
    """Outside Singularity: extras beyond five cards / one hymn go back (newest first)."""
    if state["singularity"]:
        return
    hand = state["hands"][seat]
    while len(hand_cards(state, seat)) > HAND_LIMIT:
        extra = hand_cards(state, seat)[-1]
        hand.remove(extra)
        _insert_random(state["deck"], extra, rng)
    while len(hand_hymns(state, seat)) > 1:
        extra = hand_hymns(state, seat)[-1]
        hand.remove(extra)
        if extra in state["face_up"]:
            state["face_up"].remove(extra)
        _insert_random(state["hymnal"], extra, rng)


def _draw_hymn(state: dict, rng) -> str | None:
    if not state["hymnal"] and state["hymn_discard"]:
        state["hymnal"] = rng.shuffled(state["hymn_discard"])
        state["hymn_discard"] = []
    return state["hymnal"].pop() if state["hymnal"] else None


def _discard(state: dict, card_id: str) -> None:
    if card_id in state["face_up"]:
        state["face_up"].remove(card_id)
    (state["hymn_discard"] if is_hymn(state, card_id) else state["discard"]).append(card_id)


def threat(state: dict, src: str, dst: str, direction: int) -> str | None:
    """What moving the card at ``src`` into the enemy at ``dst`` does: "capture", "annihilate" or None."""
    mine, theirs = state["board"][src], state["board"][dst]
    if mine["owner"] == theirs["owner"] or theirs["card"] in state["wards"]:
        return None
    a_card, b_card = state["cards"][mine["card"]], state["cards"][theirs["card"]]
    if a_card["value"] != 15 and b_card["value"] != 15:
        attack = dots_toward(state, mine["card"], mine["owner"], direction)
        defence = dots_toward(state, theirs["card"], theirs["owner"], (direction + 2) % 4)
        if attack != defence:
            return "capture" if attack > defence else None
    a, b = a_card["suit"], b_card["suit"]
    if CONSUMES[a] == b:
        return "capture"
    if OPPOSITE[a] == b:
        return "annihilate"
    return None


def can_base(state: dict, card_id: str, base_id: str) -> bool:
    new, base = state["cards"][card_id], state["cards"][base_id]
    return new["suit"] == base["suit"] or new["value"] >= base["value"]


def summon_cells(state: dict, seat: int, card_id: str) -> list[str]:
    board, cells = state["board"], set()
    home = house(state, seat)
    if home not in board:
        cells.add(home)
    for cell in cards_in_play(state, seat):
        if not can_base(state, card_id, board[cell]["card"]):
            continue
        cells.update(n for _, n in neighbours(cell) if n not in board)
    return sorted(cells)


def moves(state: dict, seat: int) -> list[dict]:
    result = []
    for cell in cards_in_play(state, seat):
        for direction, target in neighbours(cell):
            slot = state["board"].get(target)
            if slot is None:
                result.append({"from": cell, "to": target, "kind": "move"})
            elif slot["owner"] != seat:
                kind = threat(state, cell, target, direction)
                if kind:
                    result.append({"from": cell, "to": target, "kind": kind})
    return result


def buyable(state: dict, seat: int) -> list[str]:
    return sorted(cell for cell, slot in state["board"].items()
                  if slot["owner"] != seat and value(state, slot["card"]) in MERCENARY_VALUES
                  and slot["card"] not in state["contracts"] and slot["card"] not in state["wards"])


def _leave_board(state: dict, card_id: str) -> None:
    state["contracts"].pop(card_id, None)
    state["wards"].pop(card_id, None)


def _draw(state: dict, seat: int, count: int, rng) -> None:
    for _ in range(count):
        if not state["deck"]:
            break
        state["hands"][seat].append(state["deck"].pop())
    _enforce_limits(state, seat, rng)
