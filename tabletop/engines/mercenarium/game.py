"""Mercenarium rules: setup, turn order, legal actions and apply.

* 7x7 board, cells "r,c" (row 0 is north). Seats sit clockwise: south, west, north,
  east (two players: south and north). Each House is the centre square of a side.
* A card's dots are relative to its owner; ``dots_toward`` turns them to a compass
  direction using the owner's side.
* One action a turn: summon, move, capture (a move into a threatened enemy),
  buy, sing, learn, draw. Hymns may leave a ``pending`` choice (Primary, Zodiac)
  for the same seat to finish the turn; a choice is only left when it has a legal
  answer (a roll without target fizzles; Primary's offer that can be neither held nor
  used, as after Zodiac rolls a 7, goes back to the hymnal: ruling MC5).
* End checks after each turn: five captures, Singularity / universal stalemate,
  Limbo (two players: in Limbo at the start and end of your own turn loses; three
  or four: the last player not in Limbo wins), stalemate on the third repetition
  of a position. Rulings: docs/rulings.md.
"""

from __future__ import annotations

from itertools import combinations

from .. import repetition
from ..kernel import IllegalAction, PickRefused, require, thaw
from ..shapes import FLAG, TEXT, WHOLE, checked, list_of
from .cards import MERCENARY_VALUES, STARTER_CARDS, STARTER_HYMNS, SUITS
from .catalog import effect_problems

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


# ---------------------------------------------------------------- setup

def validate_config(config: dict) -> None:
    players = config.get("players") or []
    require(2 <= len(players) <= 4, "Mercenarium is for 2-4 players.")
    cards, hymns = config.get("cards") or STARTER_CARDS, config.get("hymns") or STARTER_HYMNS
    ids = [card["id"] for card in cards] + [hymn["id"] for hymn in hymns]
    require(len(ids) == len(set(ids)), "Card ids must be unique.")
    for card in cards:
        require(card["suit"] in SUITS and 2 <= card["value"] <= 15, f"{card['id']}: bad suit or value.")
        require(len(card["aura"]) == 4 and all(0 <= dot <= 5 for dot in card["aura"]), f"{card['id']}: bad aura.")
    for hymn in hymns:
        problems = effect_problems(hymn.get("effect"))
        require(not problems, f"Hymn {hymn.get('id')!r}: " + "; ".join(problems) + ".")


def setup(config: dict, rng) -> dict:
    validate_config(config)
    players = list(config["players"])
    cards = {card["id"]: dict(card) for card in (config.get("cards") or STARTER_CARDS)}
    hymns = {hymn["id"]: dict(hymn) for hymn in (config.get("hymns") or STARTER_HYMNS)}
    deck = rng.shuffled(sorted(cards))
    hymnal = rng.shuffled(sorted(hymns))
    count = len(players)
    hands = []
    for _ in range(count):
        hand = [deck.pop() for _ in range(HAND_LIMIT)]
        if hymnal:
            hand.append(hymnal.pop())
        hands.append(hand)
    events = []
    contenders = list(range(count))
    while True:
        rolls = {seat: rng.randint(1, 6) for seat in contenders}
        events.append("Rolls: " + ", ".join(f"{players[s]} {r}" for s, r in rolls.items()))
        best = max(rolls.values())
        contenders = [seat for seat, roll in rolls.items() if roll == best]
        if len(contenders) == 1:
            break
    first = contenders[0]
    events.append(f"{players[first]} goes first.")
    state = {
        "v": 1, "players": players, "sides": SIDES[count][:count], "cards": cards, "hymns": hymns,
        "deck": deck, "hymnal": hymnal, "discard": [], "hymn_discard": [], "hands": hands,
        "face_up": [], "board": {}, "captures": [[] for _ in players], "contracts": {}, "wards": {},
        "turn": first, "first": first, "pending": None, "singularity": False, "limbo_start": False,
        "seen": {}, "result": None, "events": events, "moves": 0,
    }
    _remember(state)
    return state


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


def hymn_effect(state: dict, hymn_id: str) -> dict:
    effect = state["hymns"][hymn_id]["effect"]
    if state["singularity"] and effect.get("singularity"):
        return effect["singularity"]
    return effect


def hymn_by_number(state: dict, number: int) -> str | None:
    for hymn_id, hymn in state["hymns"].items():
        if hymn["number"] == number:
            return hymn_id
    return None


def effect_targets(state: dict, seat: int, effect: dict) -> list[dict]:
    """Every target of a hymn effect for ``seat``; [] means it cannot be sung now."""
    kind, board = effect["primitive"], state["board"]
    mine = cards_in_play(state, seat)
    enemy = [cell for cell, slot in board.items() if slot["owner"] != seat]
    if kind == "draw":
        return [{}]
    if kind == "roll_as":
        return [{}]
    if kind == "look_hymns":
        return [{}] if state["hymnal"] or state["hymn_discard"] else []
    if kind == "search":
        return [{}] if state["deck"] else []
    if kind == "return_to_hand":
        cells = mine if effect.get("whose") == "own" else enemy
        return [{"cell": c} for c in sorted(cells)
                if value(state, board[c]["card"]) <= min(14, effect.get("max_value", 14))
                or (effect.get("whose") == "own" and effect.get("max_value", 14) >= 15)]
    if kind == "take_control":
        return [{"cell": c} for c in sorted(enemy)
                if effect.get("min_value", 2) <= value(state, board[c]["card"]) <= effect.get("max_value", 14)
                and board[c]["card"] not in state["contracts"] and board[c]["card"] not in state["wards"]]
    if kind == "leap":
        distance, result = effect.get("distance", 2), []
        for cell in sorted(mine):
            r, c = parse(cell)
            for dr, dc in DIRS:
                tr, tc = r + dr * distance, c + dc * distance
                if 0 <= tr < SIZE and 0 <= tc < SIZE and key(tr, tc) not in board:
                    result.append({"cell": cell, "to": key(tr, tc)})
        return result
    if kind == "protect":
        return [{"cell": c} for c in sorted(mine)]
    if kind == "swap_places":
        return [{"cell": a, "to": b} for a, b in combinations(sorted(mine), 2)
                if board[a]["card"] != board[b]["card"]]
    if kind == "refresh_capture":
        return [{"capture": i} for i, cap in enumerate(state["captures"][seat]) if cap["spent"]]
    if kind == "summon_near_house":
        home = house(state, seat)
        cells = [home] + [n for _, n in neighbours(home)]
        return [{"card": card_id, "to": c} for card_id in hand_cards(state, seat) for c in cells if c not in board]
    if kind == "banish":
        return [{"cell": c} for c in sorted(enemy) if value(state, board[c]["card"]) <= effect.get("max_value", 10)
                and board[c]["card"] not in state["wards"]
                and any(board.get(n, {}).get("owner") == seat for _, n in neighbours(c))]
    if kind == "salvage":
        return [{"card": card_id} for card_id in sorted(set(state["discard"]))]
    return []


# ---------------------------------------------------------------- turn structure

def to_act(state: dict) -> list:
    if state["result"] is not None:
        return []
    if state["pending"]:
        return [state["pending"]["seat"]]
    return [state["turn"]]


def legal_actions(state: dict) -> list[dict]:
    if state["result"] is not None:
        return []
    pending = state["pending"]
    if pending:
        return _pending_actions(state, pending)
    seat = state["turn"]
    actions: list[dict] = []
    for card_id in hand_cards(state, seat):
        for cell in summon_cells(state, seat, card_id):
            actions.append({"type": "summon", "seat": seat, "card": card_id, "to": cell})
    for move in moves(state, seat):
        actions.append({"type": move["kind"], "seat": seat, "from": move["from"], "to": move["to"]})
    if unspent(state, seat):
        for cell in buyable(state, seat):
            actions.append({"type": "buy", "seat": seat, "cell": cell, "capture": unspent(state, seat)[0]})
    for hymn_id in hand_hymns(state, seat):
        for target in effect_targets(state, seat, hymn_effect(state, hymn_id)):
            actions.append({"type": "sing", "seat": seat, "hymn": hymn_id, **target})
    actions.extend(_learn_actions(state, seat))
    cards = hand_cards(state, seat)
    if state["deck"]:
        if len(cards) >= HAND_LIMIT and not state["singularity"]:
            actions.extend({"type": "draw", "seat": seat, "discard": card_id} for card_id in cards)
        else:
            actions.append({"type": "draw", "seat": seat})
    return actions


def _learn_actions(state: dict, seat: int) -> list[dict]:
    if state["singularity"] or not (state["hymnal"] or state["hymn_discard"]):
        return []
    hymns, cards = hand_hymns(state, seat), hand_cards(state, seat)
    spend = unspent(state, seat)
    result = []
    if not hymns:
        low = [c for c in cards if 2 <= value(state, c) <= 9]
        result += [{"type": "learn", "seat": seat, "offer": "two_low", "cards": [a, b]}
                   for a, b in combinations(low, 2)]
        result += [{"type": "learn", "seat": seat, "offer": "one_high", "cards": [c]}
                   for c in cards if value(state, c) >= 10]
        if spend:
            result.append({"type": "learn", "seat": seat, "offer": "capture", "capture": spend[0]})
    elif len(hymns) == 1:
        result += [{"type": "learn", "seat": seat, "offer": "hymn_card", "hymn": hymns[0], "cards": [c]} for c in cards]
        if spend:
            result.append({"type": "learn", "seat": seat, "offer": "hymn_capture", "hymn": hymns[0],
                           "capture": spend[0]})
    return result


class LearnRefused(PickRefused):
    """Picked offering cards refused with a sentence (the page keeps them picked)."""


def read_learn(state: dict, seat: int, picks: list[str]) -> dict:
    """The offering a set of picked cards makes (ruling MC4): the full ``learn`` action, or LearnRefused.

    Picks are ids of cards and hymns of the hand and of the seat's unspent captures (a captured card's id
    spends one capture). Holding no hymn: two cards of 2-9, one card of 10 or more, or one capture. Holding
    one hymn: that hymn (picked or not) with one card or one capture.
    """
    def refuse(message: str):
        raise LearnRefused(message, picks)

    if state["singularity"]:
        refuse("No hymn is learnt in the Singularity.")
    if not (state["hymnal"] or state["hymn_discard"]):
        refuse("The hymnal is empty (and no hymn is discarded to reshuffle): no hymn can be learnt.")
    hymns = hand_hymns(state, seat)
    if len(hymns) > 1:
        refuse("You hold more than one hymn: sing one first, then learn.")
    if not picks:
        refuse("Tap the cards (or a capture) you offer first, then Learn a hymn.")
    if len(set(picks)) != len(picks):
        refuse("A card was picked twice: each card is offered once.")
    hand = state["hands"][seat]
    captured = {cap["card"]: index for index, cap in enumerate(state["captures"][seat])}
    cards, captures, picked_hymns = [], [], []
    for pick in picks:
        if pick in hand:
            (picked_hymns if is_hymn(state, pick) else cards).append(pick)
        elif pick in captured:
            if state["captures"][seat][captured[pick]]["spent"]:
                refuse("That capture is already spent: only an unspent capture can be offered.")
            captures.append(pick)
        else:
            refuse("A picked card is not in your hand or among your captures: an offering is made from your "
                   "hand or your captures, never from cards in play.")
    cards = [c for c in hand if c in cards]  # the hand's order, as the offerings are listed
    if len(captures) > 1:
        refuse("An offering spends one capture: pick only one.")
    spend = unspent(state, seat)
    action = {"type": "learn", "seat": seat}
    if hymns:
        others = cards + captures
        if len(others) != 1:
            refuse(f"You hold the {name(state, hymns[0])}: it is offered with exactly one card of your hand "
                   f"or one capture ({len(others)} picked besides it).")
        action.update({"offer": "hymn_capture", "hymn": hymns[0], "capture": spend[0]} if captures
                      else {"offer": "hymn_card", "hymn": hymns[0], "cards": cards})
        return action
    if captures:
        if cards:
            refuse("A capture is an offering by itself: pick the capture or cards, not both.")
        action.update({"offer": "capture", "capture": spend[0]})
        return action
    high = [c for c in cards if value(state, c) >= 10]
    low = [c for c in cards if 2 <= value(state, c) <= 9]
    if len(cards) == 1 and high:
        action.update({"offer": "one_high", "cards": cards})
        return action
    if len(cards) == 1 and low:
        refuse(f"The {name(state, cards[0])} is worth {value(state, cards[0])}: a card of 2 to 9 is offered with "
               "a second one, or pick one card of 10 or more.")
    if len(cards) == 2 and not high and len(low) == 2:
        action.update({"offer": "two_low", "cards": cards})
        return action
    if high and len(cards) > 1:
        refuse(f"The {name(state, high[0])} is worth {value(state, high[0])}: a card of 10 or more is an offering "
               "by itself, so pick it alone.")
    if len(cards) > 2:
        refuse(f"An offering is two cards of 2 to 9 or one card of 10 or more: {len(cards)} cards are too many.")
    refuse("Those cards make no offering: two cards of 2 to 9, one card of 10 or more, or one capture.")


def _pending_actions(state: dict, pending: dict) -> list[dict]:
    seat = pending["seat"]
    if pending["kind"] == "target":
        effect = hymn_effect(state, hymn_by_number(state, pending["number"]))
        targets = effect_targets(state, seat, effect)
        return [{"type": "resolve", "seat": seat, **t} for t in targets] or [{"type": "resolve", "seat": seat,
                                                                               "fizzle": True}]
    if pending["kind"] == "search":
        return [{"type": "take", "seat": seat, "card": card_id} for card_id in sorted(state["deck"])]
    result = []
    for hymn_id in pending["options"]:
        if state["singularity"] or not hand_hymns(state, seat):
            result.append({"type": "keep", "seat": seat, "hymn": hymn_id, "use": False})
        for target in effect_targets(state, seat, hymn_effect(state, hymn_id)):
            result.append({"type": "keep", "seat": seat, "hymn": hymn_id, "use": True, **target})
    return result


_HYMN_FIELDS = {"hymn": TEXT, "card": TEXT, "to": TEXT, "cell": TEXT, "capture": WHOLE}
ACTION_SHAPES = {
    "summon": {"card": TEXT, "to": TEXT},
    "move": {"from": TEXT, "to": TEXT},
    "capture": {"from": TEXT, "to": TEXT},
    "annihilate": {"from": TEXT, "to": TEXT},
    "buy": {"cell": TEXT, "capture": WHOLE},
    "draw": {"discard": TEXT},
    "take": {"card": TEXT},
    "learn": {"offer": TEXT, "hymn": TEXT, "cards": list_of(TEXT), "capture": WHOLE, "picks": list_of(TEXT)},
    "sing": _HYMN_FIELDS,
    "keep": {**_HYMN_FIELDS, "use": FLAG},
    "resolve": {**_HYMN_FIELDS, "fizzle": FLAG},
}


@checked(ACTION_SHAPES, "Mercenarium")
def apply(state: dict, action: dict, rng) -> dict:
    require(isinstance(action, dict), "An action is a dict.")
    require(state["result"] is None, "The game is over.")
    seat = action.get("seat")
    require(seat in to_act(state), "It is not your turn.")
    if action.get("type") == "learn" and "picks" in action:  # cards tapped on a phone (ruling MC4)
        require(state["pending"] is None, "Answer the choice in front of you first.")
        action = read_learn(state, seat, action["picks"])
    legal = legal_actions(state)
    require(action in legal, "That is not allowed now.")
    state = private_copy(state)
    state["events"] = state["events"][-30:]
    kind = action["type"]
    player = state["players"][seat]
    board = state["board"]
    if kind == "summon":
        state["hands"][seat].remove(action["card"])
        board[action["to"]] = {"card": action["card"], "owner": seat}
        if value(state, action["card"]) in MERCENARY_VALUES:
            state["contracts"][action["card"]] = seat
        state["events"].append(f"{player} summons the {name(state, action['card'])}.")
    elif kind == "move":
        board[action["to"]] = board.pop(action["from"])
        state["events"].append(f"{player} moves the {name(state, board[action['to']]['card'])}.")
    elif kind == "capture":
        taken = board[action["to"]]["card"]
        board[action["to"]] = board.pop(action["from"])
        _leave_board(state, taken)
        state["captures"][seat].append({"card": taken, "spent": False})
        state["events"].append(f"{player} captures the {name(state, taken)}.")
    elif kind == "annihilate":
        a, b = board.pop(action["from"])["card"], board.pop(action["to"])["card"]
        for card_id in (a, b):
            _leave_board(state, card_id)
            state["discard"].append(card_id)
        state["events"].append(f"The {name(state, a)} and the {name(state, b)} annihilate.")
    elif kind == "buy":
        state["captures"][seat][action["capture"]]["spent"] = True
        slot = board[action["cell"]]
        slot["owner"] = seat
        state["contracts"][slot["card"]] = seat
        state["events"].append(f"{player} buys the {name(state, slot['card'])}.")
    elif kind == "sing":
        _sing(state, seat, action["hymn"], action, rng)
    elif kind == "learn":
        _learn(state, seat, action, rng)
    elif kind == "draw":
        if action.get("discard"):
            state["hands"][seat].remove(action["discard"])
            state["discard"].append(action["discard"])
            state["events"].append(f"{player} discards the {name(state, action['discard'])} and draws.")
        else:
            state["events"].append(f"{player} draws a card.")
        _draw(state, seat, 1, rng)
    elif kind == "resolve":
        number = state["pending"]["number"]
        state["pending"] = None
        if action.get("fizzle"):
            state["events"].append("The hymn has no effect.")
        else:
            _effect(state, seat, hymn_effect(state, hymn_by_number(state, number)), action, rng)
    elif kind == "keep":
        _keep(state, seat, action, rng)
    elif kind == "take":
        state["pending"] = None
        state["deck"].remove(action["card"])
        state["hands"][seat].append(action["card"])
        state["deck"] = rng.shuffled(state["deck"])
        state["events"].append(f"{player} takes a card and shuffles the deck.")
    else:  # pragma: no cover - guarded by the legality check
        raise IllegalAction("Unknown action.")
    if state["pending"] is None and state["result"] is None:
        _end_turn(state, rng)
    return state


def _leave_board(state: dict, card_id: str) -> None:
    state["contracts"].pop(card_id, None)
    state["wards"].pop(card_id, None)


def _draw(state: dict, seat: int, count: int, rng) -> None:
    for _ in range(count):
        if not state["deck"]:
            break
        state["hands"][seat].append(state["deck"].pop())
    _enforce_limits(state, seat, rng)


def _sing(state: dict, seat: int, hymn_id: str, target: dict, rng) -> None:
    state["events"].append(f"{state['players'][seat]} sings {name(state, hymn_id)}.")
    effect = hymn_effect(state, hymn_id)
    if effect["primitive"] == "roll_as":
        if hymn_id not in state["face_up"]:
            state["face_up"].append(hymn_id)
    else:
        state["hands"][seat].remove(hymn_id)
        _discard(state, hymn_id)
    _effect(state, seat, effect, target, rng)


def _effect(state: dict, seat: int, effect: dict, target: dict, rng) -> None:
    kind, board, player = effect["primitive"], state["board"], state["players"][seat]
    if kind == "draw":
        _draw(state, seat, effect.get("count", 1), rng)
        for _ in range(effect.get("hymns", 0)):
            hymn_id = _draw_hymn(state, rng)
            if hymn_id:
                state["hands"][seat].append(hymn_id)
        _enforce_limits(state, seat, rng)
    elif kind == "roll_as":
        number = rng.randint(1, effect.get("die", 12))
        hymn_id = hymn_by_number(state, number)
        state["events"].append(f"The Zodiac die shows {number}.")
        if hymn_id is None:
            return
        inner = hymn_effect(state, hymn_id)
        if inner["primitive"] == "roll_as":
            return
        targets = effect_targets(state, seat, inner)
        if targets == [{}]:
            _effect(state, seat, inner, {}, rng)
        else:
            state["pending"] = {"seat": seat, "kind": "target", "number": number}
    elif kind == "look_hymns":
        options = []
        for _ in range(effect.get("count", 3)):
            hymn_id = _draw_hymn(state, rng)
            if hymn_id:
                options.append(hymn_id)
        state["pending"] = {"seat": seat, "kind": "primary", "options": options}
        if not _pending_actions(state, state["pending"]):  # ruling MC5: nothing can be held or used
            state["pending"] = None
            state["hymnal"] = rng.shuffled(state["hymnal"] + options)
            state["events"].append(f"{player} looks at {len(options)} hymns; none can be held or used now, "
                                   "so they go back to the hymnal. The hymn has no effect.")
    elif kind == "search":
        state["pending"] = {"seat": seat, "kind": "search"}
        state["events"].append(f"{player} searches the deck for a card.")
    elif kind == "return_to_hand":
        slot = board.pop(target["cell"])
        _leave_board(state, slot["card"])
        state["hands"][slot["owner"]].append(slot["card"])
        _enforce_limits(state, slot["owner"], rng)
        state["events"].append(f"The {name(state, slot['card'])} returns to {state['players'][slot['owner']]}'s hand.")
    elif kind == "take_control":
        slot = board[target["cell"]]
        slot["owner"] = seat
        state["contracts"].pop(slot["card"], None)
        if value(state, slot["card"]) in MERCENARY_VALUES:
            state["contracts"][slot["card"]] = seat
        state["events"].append(f"{player} takes control of the {name(state, slot['card'])}.")
    elif kind in ("leap",):
        board[target["to"]] = board.pop(target["cell"])
    elif kind == "protect":
        state["wards"][board[target["cell"]]["card"]] = seat
    elif kind == "swap_places":
        board[target["cell"]], board[target["to"]] = board[target["to"]], board[target["cell"]]
    elif kind == "refresh_capture":
        state["captures"][seat][target["capture"]]["spent"] = False
    elif kind == "summon_near_house":
        state["hands"][seat].remove(target["card"])
        board[target["to"]] = {"card": target["card"], "owner": seat}
        if value(state, target["card"]) in MERCENARY_VALUES:
            state["contracts"][target["card"]] = seat
        state["events"].append(f"{player} summons the {name(state, target['card'])}.")
    elif kind == "banish":
        slot = board.pop(target["cell"])
        _leave_board(state, slot["card"])
        state["discard"].append(slot["card"])
        state["events"].append(f"The {name(state, slot['card'])} is banished.")
    elif kind == "salvage":
        state["discard"].remove(target["card"])
        state["hands"][seat].append(target["card"])
        _enforce_limits(state, seat, rng)


def _keep(state: dict, seat: int, action: dict, rng) -> None:
    options = state["pending"]["options"]
    state["pending"] = None
    chosen = action["hymn"]
    rest = [h for h in options if h != chosen]
    state["hymnal"] = rng.shuffled(state["hymnal"] + rest)
    state["hands"][seat].append(chosen)
    if action["use"]:
        _sing(state, seat, chosen, action, rng)
    else:
        state["events"].append(f"{state['players'][seat]} keeps a hymn.")
    _enforce_limits(state, seat, rng)


def _learn(state: dict, seat: int, action: dict, rng) -> None:
    hand = state["hands"][seat]
    for card_id in [action.get("hymn"), *action.get("cards", [])]:
        if card_id:
            hand.remove(card_id)
            _discard(state, card_id)
    if "capture" in action:
        state["captures"][seat][action["capture"]]["spent"] = True
    hymn_id = _draw_hymn(state, rng)
    if hymn_id:
        hand.append(hymn_id)
    state["events"].append(f"{state['players'][seat]} learns a hymn.")


def _end_turn(state: dict, rng) -> None:
    seat, players = state["turn"], state["players"]
    state["moves"] += 1
    for index, caps in enumerate(state["captures"]):
        if len(caps) >= WIN_CAPTURES:
            return _finish(state, [index], f"{players[index]} has five captures.")
    if not state["deck"]:
        if state["singularity"]:
            return _finish(state, [], "Universal stalemate: the Singularity deck ran out.")
        _enter_singularity(state, rng)
        if not state["deck"]:
            return _finish(state, [], "Universal stalemate: the Singularity deck ran out.")
    if len(players) == 2:
        if state["limbo_start"] and in_limbo(state, seat):
            other = 1 - seat
            return _finish(state, [other], f"{players[seat]} could not escape Limbo.")
    else:
        free = [s for s in range(len(players)) if not in_limbo(state, s)]
        if len(free) == 1 and cards_in_play(state, free[0]):
            return _finish(state, free, f"Every other player is in Limbo: {players[free[0]]} wins.")
    nxt = (seat + 1) % len(players)
    state["turn"] = nxt
    state["contracts"] = {c: s for c, s in state["contracts"].items() if s != nxt}
    state["wards"] = {c: s for c, s in state["wards"].items() if s != nxt}
    state["limbo_start"] = in_limbo(state, nxt)
    if state["limbo_start"]:
        state["events"].append(f"{players[nxt]} is in Limbo.")
    if _remember(state) >= repetition.THIRD:
        _finish(state, [], "Stalemate: the same position came round a third time.")


def _enter_singularity(state: dict, rng) -> None:
    pool = state["discard"] + state["hymn_discard"] + state["hymnal"]
    state["deck"] = rng.shuffled(sorted(pool))
    state["discard"], state["hymn_discard"], state["hymnal"] = [], [], []
    state["singularity"] = True
    state["events"].append("The deck is empty: Singularity!")


def _parts(state: dict) -> list:
    """What makes a Mercenarium position the same (the counter ``moves`` is not in it)."""
    return [state["board"], [sorted(hand) for hand in state["hands"]], state["captures"], state["turn"],
            state["contracts"], state["wards"], len(state["deck"]), len(state["hymnal"]), state["singularity"],
            sorted(state["face_up"]), state["limbo_start"]]


def position(state: dict) -> str:
    return repetition.position(_parts(state))


def _remember(state: dict) -> int:
    return repetition.remember(state["seen"], _parts(state))


def _finish(state: dict, winners: list[int], reason: str) -> None:
    state["result"] = {"winners": winners, "reason": reason}
    state["events"].append(reason)
