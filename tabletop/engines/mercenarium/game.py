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

The board and the piles are ``board.py``, the hymns and learning ``hymns.py`` (split by subject, issue 39);
this module is the turn: set-up, who acts, the legal actions, ``apply`` and the end-of-turn checks.
"""

from __future__ import annotations

from .. import repetition
from ..kernel import IllegalAction, require
from ..shapes import FLAG, TEXT, WHOLE, checked, list_of
from ..words import gettext_noop
from . import lines
from .board import (
    HAND_LIMIT,
    SIDES,
    WIN_CAPTURES,
    _draw,
    _leave_board,
    buyable,
    cards_in_play,
    hand_cards,
    hand_hymns,
    in_limbo,
    moves,
    name,
    private_copy,
    summon_cells,
    unspent,
    value,
)
from .cards import MERCENARY_VALUES, STARTER_CARDS, STARTER_HYMNS, SUITS
from .catalog import effect_problems
from .hymns import (
    _effect,
    _keep,
    _learn,
    _learn_actions,
    _pending_actions,
    _sing,
    effect_targets,
    hymn_by_number,
    hymn_effect,
    read_learn,
)

# ---------------------------------------------------------------- setup

def validate_config(config: dict) -> None:
    players = config.get("players") or []
    require(2 <= len(players) <= 4, gettext_noop("Mercenarium is for 2-4 players."))
    cards, hymns = config.get("cards") or STARTER_CARDS, config.get("hymns") or STARTER_HYMNS
    ids = [card["id"] for card in cards] + [hymn["id"] for hymn in hymns]
    require(len(ids) == len(set(ids)), gettext_noop("Card ids must be unique."))
    for card in cards:
        require(card["suit"] in SUITS and 2 <= card["value"] <= 15, gettext_noop("%(card)s: bad suit or value."),
                card=card["id"])
        require(len(card["aura"]) == 4 and all(0 <= dot <= 5 for dot in card["aura"]),
                gettext_noop("%(card)s: bad aura."), card=card["id"])
    for hymn in hymns:
        problems = effect_problems(hymn.get("effect"))
        require(not problems, gettext_noop("Hymn %(hymn)r: %(problems)s."), hymn=hymn.get("id"),
                problems="; ".join(problems))


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
        events.append(lines.ROLLS % {"rolls": ", ".join(f"{players[s]} {r}" for s, r in rolls.items())})
        best = max(rolls.values())
        contenders = [seat for seat, roll in rolls.items() if roll == best]
        if len(contenders) == 1:
            break
    first = contenders[0]
    events.append(lines.GOES_FIRST % {"player": players[first]})
    state = {
        "v": 1, "players": players, "sides": SIDES[count][:count], "cards": cards, "hymns": hymns,
        "deck": deck, "hymnal": hymnal, "discard": [], "hymn_discard": [], "hands": hands,
        "face_up": [], "board": {}, "captures": [[] for _ in players], "contracts": {}, "wards": {},
        "turn": first, "first": first, "pending": None, "singularity": False, "limbo_start": False,
        "seen": {}, "result": None, "events": events, "moves": 0,
    }
    _remember(state)
    return state


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
    require(isinstance(action, dict), gettext_noop("An action is a dict."))
    require(state["result"] is None, gettext_noop("The game is over."))
    seat = action.get("seat")
    require(seat in to_act(state), gettext_noop("It is not your turn."))
    if action.get("type") == "learn" and "picks" in action:  # cards tapped on a phone (ruling MC4)
        require(state["pending"] is None, gettext_noop("Answer the choice in front of you first."))
        action = read_learn(state, seat, action["picks"])
    legal = legal_actions(state)
    require(action in legal, gettext_noop("That is not allowed now."))
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
        state["events"].append(lines.SUMMONS % {"player": player, "card": name(state, action["card"])})
    elif kind == "move":
        board[action["to"]] = board.pop(action["from"])
        state["events"].append(lines.MOVES % {"player": player, "card": name(state, board[action["to"]]["card"])})
    elif kind == "capture":
        taken = board[action["to"]]["card"]
        board[action["to"]] = board.pop(action["from"])
        _leave_board(state, taken)
        state["captures"][seat].append({"card": taken, "spent": False})
        state["events"].append(lines.CAPTURES % {"player": player, "card": name(state, taken)})
    elif kind == "annihilate":
        a, b = board.pop(action["from"])["card"], board.pop(action["to"])["card"]
        for card_id in (a, b):
            _leave_board(state, card_id)
            state["discard"].append(card_id)
        state["events"].append(lines.ANNIHILATE % {"card": name(state, a), "other": name(state, b)})
    elif kind == "buy":
        state["captures"][seat][action["capture"]]["spent"] = True
        slot = board[action["cell"]]
        slot["owner"] = seat
        state["contracts"][slot["card"]] = seat
        state["events"].append(lines.BUYS % {"player": player, "card": name(state, slot["card"])})
    elif kind == "sing":
        _sing(state, seat, action["hymn"], action, rng)
    elif kind == "learn":
        _learn(state, seat, action, rng)
    elif kind == "draw":
        if action.get("discard"):
            state["hands"][seat].remove(action["discard"])
            state["discard"].append(action["discard"])
            discarded = name(state, action["discard"])
            state["events"].append(lines.DISCARDS_AND_DRAWS % {"player": player, "card": discarded})
        else:
            state["events"].append(lines.DRAWS % {"player": player})
        _draw(state, seat, 1, rng)
    elif kind == "resolve":
        number = state["pending"]["number"]
        state["pending"] = None
        if action.get("fizzle"):
            state["events"].append(lines.NO_EFFECT)
        else:
            _effect(state, seat, hymn_effect(state, hymn_by_number(state, number)), action, rng)
    elif kind == "keep":
        _keep(state, seat, action, rng)
    elif kind == "take":
        state["pending"] = None
        state["deck"].remove(action["card"])
        state["hands"][seat].append(action["card"])
        state["deck"] = rng.shuffled(state["deck"])
        state["events"].append(lines.TAKES_AND_SHUFFLES % {"player": player})
    else:  # pragma: no cover - guarded by the legality check
        raise IllegalAction(gettext_noop("Unknown action."))
    if state["pending"] is None and state["result"] is None:
        _end_turn(state, rng)
    return state


def _end_turn(state: dict, rng) -> None:
    seat, players = state["turn"], state["players"]
    state["moves"] += 1
    for index, caps in enumerate(state["captures"]):
        if len(caps) >= WIN_CAPTURES:
            return _finish(state, [index], lines.FIVE_CAPTURES % {"player": players[index]})
    if not state["deck"]:
        if state["singularity"]:
            return _finish(state, [], lines.UNIVERSAL_STALEMATE)
        _enter_singularity(state, rng)
        if not state["deck"]:
            return _finish(state, [], lines.UNIVERSAL_STALEMATE)
    if len(players) == 2:
        if state["limbo_start"] and in_limbo(state, seat):
            other = 1 - seat
            return _finish(state, [other], lines.NO_ESCAPE % {"player": players[seat]})
    else:
        free = [s for s in range(len(players)) if not in_limbo(state, s)]
        if len(free) == 1 and cards_in_play(state, free[0]):
            return _finish(state, free, lines.LAST_FREE % {"player": players[free[0]]})
    nxt = (seat + 1) % len(players)
    state["turn"] = nxt
    state["contracts"] = {c: s for c, s in state["contracts"].items() if s != nxt}
    state["wards"] = {c: s for c, s in state["wards"].items() if s != nxt}
    state["limbo_start"] = in_limbo(state, nxt)
    if state["limbo_start"]:
        state["events"].append(lines.IS_IN_LIMBO % {"player": players[nxt]})
    if _remember(state) >= repetition.THIRD:
        _finish(state, [], lines.STALEMATE)


def _enter_singularity(state: dict, rng) -> None:
    pool = state["discard"] + state["hymn_discard"] + state["hymnal"]
    state["deck"] = rng.shuffled(sorted(pool))
    state["discard"], state["hymn_discard"], state["hymnal"] = [], [], []
    state["singularity"] = True
    state["events"].append(lines.SINGULARITY)


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
