"""What each seat may see of a Mercenarium table, and the outcome.

* Everyone sees the board (cards with their dots turned to the owner's side),
  every capture (face down or spent), the discard piles, face-up hymns (Zodiac
  after it has been sung), the counts of every hand, the deck and the hymnal.
* A player sees their own hand (and the hymns offered by Primary while choosing).
* The GM sees every hand and the choices of whoever acts; the projector (None) sees
  no hand. Nobody sees the deck's or the hymnal's contents. Events name cards that
  are public at that moment, never ids.
* For the player to move: ``threatened`` marks enemy cards they could capture or
  annihilate now, ``reachable`` the squares their cards in play may move to, and (only
  for them and the GM, since it depends on their hand) the squares a card of their hand
  may be summoned to.
* Tap to play (the acting seat and the GM): each square lists the board actions that
  end on it (``go``: summon, move, capture, annihilate), each with the ``source`` that
  selects it (``card:<id>`` for a card in hand, ``cell:<r,c>`` for a card in play);
  ``pick`` marks the squares and hand cards that have at least one.  Each ``go`` entry is
  ``{"source": ..., "choice": <the legal action with its label>}``.
"""

from __future__ import annotations

from ..kernel import GM
from . import lines
from .board import (
    DIRS,
    ROTATION,
    SIZE,
    cards_in_play,
    hand_cards,
    house,
    in_limbo,
    is_hymn,
    key,
    moves,
    name,
    summon_cells,
)
from .cards import VALUE_LABELS
from .game import legal_actions, to_act

VISIBLE_EVENTS = 12
COMPASS = ["n", "e", "s", "w"]


def _card(state: dict, card_id: str) -> dict:
    if is_hymn(state, card_id):
        hymn = state["hymns"][card_id]
        return {"id": card_id, "hymn": True, "name": hymn["name"], "text": hymn["text"], "number": hymn["number"]}
    card = state["cards"][card_id]
    return {"id": card_id, "hymn": False, "name": card["name"], "suit": card["suit"], "value": card["value"],
            "label": VALUE_LABELS.get(card["value"], str(card["value"])), "aura": list(card["aura"])}


def _placed(state: dict, card_id: str, owner: int) -> dict:
    data = _card(state, card_id)
    rot = ROTATION[state["sides"][owner]]
    data["dots"] = {COMPASS[d]: state["cards"][card_id]["aura"][(d - rot) % 4] for d in range(4)}
    data["rotation"] = rot * 90  # the face is turned so its top points away from the owner
    data["contract"] = card_id in state["contracts"]
    data["ward"] = card_id in state["wards"]
    return data


def _label(state: dict, action: dict) -> str:
    kind, board = action["type"], state["board"]
    if kind == "summon":
        return lines.SUMMON % {"card": name(state, action["card"]), "to": action["to"]}
    if kind in lines.BOARD_MOVES:
        card = name(state, board[action["from"]]["card"])
        return lines.BOARD_MOVES[kind] % {"card": card, "src": action["from"], "dst": action["to"]}
    if kind == "buy":
        return lines.BUY % {"card": name(state, board[action["cell"]]["card"])}
    if kind == "draw":
        if action.get("discard"):
            return lines.DISCARD_AND_DRAW % {"card": name(state, action["discard"])}
        return lines.DRAW
    if kind == "learn":
        parts = [name(state, c) for c in action.get("cards", [])]
        if action.get("hymn"):
            parts.insert(0, name(state, action["hymn"]))
        if "capture" not in action:
            return lines.LEARN % {"cards": " + ".join(parts)}
        return lines.LEARN_WITH_CAPTURE % {"cards": " + ".join(parts)} if parts else lines.LEARN_CAPTURE
    target = _target_text(state, action)
    if kind == "sing":
        hymn = name(state, action["hymn"])
        return lines.SING_AT % {"hymn": hymn, "target_words": target} if target else lines.SING % {"hymn": hymn}
    if kind == "keep":
        hymn = name(state, action["hymn"])
        if not action["use"]:
            return lines.KEEP % {"hymn": hymn}
        return lines.USE_AT % {"hymn": hymn, "target_words": target} if target else lines.USE % {"hymn": hymn}
    if kind == "take":
        return lines.TAKE % {"card": name(state, action["card"])}
    if kind == "resolve":
        if action.get("fizzle"):
            return lines.NO_EFFECT_LABEL
        return lines.RESOLVE_AT % {"target_words": target} if target else lines.RESOLVE
    return kind


def _target_text(state: dict, action: dict) -> str:
    """A hymn's target in words ("the Lord of Souls at 5,3 to 3,3"), "" when it has none."""
    if "capture" in action:
        return lines.CAPTURE_NUMBER % {"number": action["capture"] + 1}
    if "cell" in action:
        card = name(state, state["board"][action["cell"]]["card"])
        at = {"card": card, "cell": action["cell"]}
        return lines.AT_TO % {**at, "to": action["to"]} if "to" in action else lines.AT % at
    if "card" in action:
        card = name(state, action["card"])
        return lines.CARD_TO % {"card": card, "to": action["to"]} if "to" in action else lines.CARD % {"card": card}
    return ""


BOARD_ACTIONS = ("summon", "move", "capture", "annihilate")


def source_of(action: dict) -> str:
    """What a player taps first to make a board action: the card in hand, or the square of the card in play."""
    return f"card:{action['card']}" if action["type"] == "summon" else f"cell:{action['from']}"


def _grid(state: dict, actor, sees_hand: bool, choices: list[dict]) -> list[list[dict]]:
    threatened, reachable = set(), set()
    if isinstance(actor, int) and not state["pending"] and state["result"] is None:
        for move in moves(state, actor):
            (threatened if move["kind"] != "move" else reachable).add(move["to"])
        if sees_hand:
            for card_id in hand_cards(state, actor):
                reachable.update(summon_cells(state, actor, card_id))
    board_choices = [{"source": source_of(choice), "choice": choice}
                     for choice in choices if choice["type"] in BOARD_ACTIONS]
    sources = {go["source"] for go in board_choices}
    houses = {house(state, seat): seat for seat in range(len(state["players"]))}
    grid = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            cell = key(r, c)
            slot = state["board"].get(cell)
            row.append({"key": cell, "house": houses.get(cell),
                        "card": _placed(state, slot["card"], slot["owner"]) if slot else None,
                        "owner": slot["owner"] if slot else None,
                        "threatened": cell in threatened, "reachable": cell in reachable,
                        "go": [go for go in board_choices if go["choice"]["to"] == cell],
                        "pick": f"cell:{cell}" in sources})
        grid.append(row)
    return grid


def _learn_pick(state: dict, actor, choices: list[dict]):
    """The cards the acting seat may tap to make an offering (ruling MC4): the hand, and its first unspent
    capture (any capture spends the same); None when no offering is legal."""
    if actor is None or not any(choice["type"] == "learn" for choice in choices):
        return None
    picks = [{**_card(state, c), "short": name(state, c), "value": ""} for c in state["hands"][actor]]
    spare = [cap["card"] for cap in state["captures"][actor] if not cap["spent"]]
    if spare:
        picks.append({**_card(state, spare[0]), "short": lines.A_CAPTURE, "value": "", "capture": len(spare)})
    return {"seat": actor, "name": state["players"][actor], "cards": picks,
            "action": {"type": "learn", "seat": actor}}


def view(state: dict, seat) -> dict:
    deciding = to_act(state)
    actor = deciding[0] if deciding else None
    acting = seat == GM or (isinstance(seat, int) and seat in deciding)
    players = []
    for index, player in enumerate(state["players"]):
        hand = state["hands"][index]
        sees = seat == GM or seat == index
        players.append({
            "seat": index, "name": player, "side": state["sides"][index], "hand_count": len(hand),
            "in_play": len(cards_in_play(state, index)), "limbo": in_limbo(state, index),
            "captures": [{"card": _card(state, cap["card"]), "spent": cap["spent"]}
                         for cap in state["captures"][index]],
            "capture_count": len(state["captures"][index]),
            "face_up": [_card(state, h) for h in hand if h in state["face_up"]],
            "hand": [_card(state, c) for c in hand] if sees else None,
            "acting": index in deciding,
        })
    pending = state["pending"]
    result = state["result"]
    choices = [{**a, "label": _label(state, a)} for a in legal_actions(state)] if acting else []
    summonable = {a["card"] for a in choices if a["type"] == "summon"}
    for player in players:
        for card in player["hand"] or []:
            card["pick"] = player["seat"] == actor and card["id"] in summonable
    return {
        "learn": _learn_pick(state, actor, choices) if seat == GM or seat == actor else None,
        "game": "mercenarium", "viewer": seat, "to_act": deciding,
        "turn_text": (lines.GAME_OVER % {"result_words": result["reason"]} if result
                      else lines.TO_ACT % {"player": state["players"][actor]}),
        "players": players,
        "hand": players[seat]["hand"] if isinstance(seat, int) and 0 <= seat < len(players) else [],
        "grid": _grid(state, actor, seat == GM or seat == actor, choices),
        "piles": {"deck": len(state["deck"]), "hymnal": len(state["hymnal"])},
        "discard": [_card(state, c) for c in state["discard"]],
        "hymn_discard": [_card(state, c) for c in state["hymn_discard"]],
        "singularity": state["singularity"],
        "offered": ([_card(state, h) for h in pending["options"]]
                    if pending and pending["kind"] == "primary" and (seat == GM or seat == pending["seat"]) else []),
        "choices": choices,
        "events": state["events"][-VISIBLE_EVENTS:],
        "score": None if result is None else {"winners": result["winners"], "reason": result["reason"]},
    }


def card_names(state: dict) -> dict[str, str]:
    """Every card of the game by id, with the name its lines use (the simulate checks look for names)."""
    return {card_id: name(state, card_id) for card_id in [*state["cards"], *state["hymns"]]}


def shown_by(action: dict) -> list[str]:
    """A hymn sung is shown to everyone, even when Primary's search shuffles it straight back."""
    return [action["hymn"]] if action.get("type") == "sing" and isinstance(action.get("hymn"), str) else []


def hidden_from(state: dict, seat) -> list[str]:
    if seat == GM:
        return []
    hidden = list(state["deck"]) + list(state["hymnal"])
    for index, hand in enumerate(state["hands"]):
        if index != seat:
            hidden.extend(c for c in hand if c not in state["face_up"])
    pending = state["pending"]
    if pending and pending["kind"] == "primary" and pending["seat"] != seat:
        hidden.extend(pending["options"])
    if pending and pending["kind"] == "search" and pending["seat"] == seat:
        hidden = [card_id for card_id in hidden if card_id not in state["deck"]]  # searching: sees the deck
    return hidden


def outcome(state: dict):
    result = state["result"]
    if result is None:
        return None
    return {"winners": list(result["winners"]),
            "scores": {str(s): len(caps) for s, caps in enumerate(state["captures"])},
            "reason": result["reason"]}


__all__ = ["view", "hidden_from", "card_names", "shown_by", "outcome", "DIRS"]
