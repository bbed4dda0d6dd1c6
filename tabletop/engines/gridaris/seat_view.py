"""What each seat may see of a Gridaris table, and the final outcome.

* A player sees their own hand, every card on the board, the counts of every hand
  and pile, and the public events. Nobody sees the piles' contents or order.
* Show Whole: every hand is public (players and projector alike).
* The GM (``"gm"``) sees every hand, and the playable cards, battlefields and
  choices of whoever must act now (for entering a move on their behalf).
* The public projector (``None``) sees no hand (except under Show Whole) and gets no
  playable lists or choices.

Event lines name cards, never card ids, so a card back in a pile (e.g. a Head Stand
draw) is not given away. Rulings: docs/rulings.md.
"""

from __future__ import annotations

from ..kernel import GM
from ..words import phrase
from . import combat, maps
from .game import legal_actions, owned_cells, playable_cards, playable_cells, star_total, to_act
from .starter import SCENARIOS

VISIBLE_EVENTS = 12

# The status line and the choices' labels (issue 41): English templates the page says in the reader's language.
CHOOSING_MAP = phrase("The table chooses the map (the GM enters it)")
CHOOSING_ORDER = phrase("%(name)s chooses to go first or last")
TO_PLAY = phrase("%(name)s to play")
TO_REINFORCE = phrase("%(name)s to reinforce")
GAME_OVER = phrase("Game over: %(result_words)s")
PLAY_ON_MAP = phrase("Play on the %(map_words)s map")
GO_FIRST = phrase("Go first in the Reinforcement Phase")
GO_LAST = phrase("Go last in the Reinforcement Phase")


def _card(state: dict, card_id: str) -> dict:
    card = state["cards"][card_id]
    top, right, bottom, left = combat.played_edges(state, card_id)
    return {"id": card_id, "name": card["name"], "class": card["class"], "tier": card["tier"],
            "stars": card["stars"], "edges": {"top": top, "right": right, "bottom": bottom, "left": left},
            "flipped": combat.is_flipped(state, card_id)}


def _sees_hand(state: dict, viewer, seat: int) -> bool:
    return viewer == GM or viewer == seat or "show_whole" in state["active"]


def _name(state: dict, seat) -> str:
    return "the GM" if seat == GM else state["players"][seat]


def _turn_text(state: dict) -> str:
    phase, players = state["phase"], state["players"]
    if phase == "choose_map":
        return CHOOSING_MAP
    if phase == "choose_order":
        return CHOOSING_ORDER % {"name": players[state["chooser"]]}
    if phase == "placement":
        return TO_PLAY % {"name": players[state["turn"]]}
    if phase == "reinforcement":
        return TO_REINFORCE % {"name": players[state["turn"]]}
    return GAME_OVER % {"result_words": state["result"]["reason"]}


def _grid(state: dict) -> list[list]:
    spec, board, last = maps.MAPS[state["map"] or "standard"], state["board"], state["last"]
    grid = []
    for r in range(spec["rows"]):
        row = []
        for c in range(spec["cols"]):
            if (r, c) not in spec["cells"]:
                row.append(None)
                continue
            cell_key = maps.key(r, c)
            cell = board.get(cell_key)
            row.append({
                "key": cell_key, "label": maps.label(cell_key),
                "card": _card(state, cell["stack"][-1]) if cell else None,
                "owner": cell["owner"] if cell else None,
                "modifier": cell["modifier"] if cell else 0,
                "covered": len(cell["stack"]) - 1 if cell else 0,
                "last_played": cell_key == last["cell"],
                "captured_last": cell_key in last["captured"],
            })
        grid.append(row)
    return grid


def _choices(state: dict) -> list[dict]:
    choices = []
    for action in legal_actions(state):
        if action["type"] == "map":
            choices.append({**action, "label": PLAY_ON_MAP % {"map_words": maps.MAPS[action["map"]]["name"]}})
        elif action["type"] == "order":
            choices.append({**action, "label": GO_FIRST if action["go"] == "first" else GO_LAST})
    return choices


def view(state: dict, seat) -> dict:
    deciding = to_act(state)
    players = []
    for index, name in enumerate(state["players"]):
        hand = state["hands"][index]
        players.append({
            "seat": index, "name": name, "hand_count": len(hand),
            "battlefields": len(owned_cells(state, index)), "stars": star_total(state, index),
            "out": state["out"][index],
            "hand": [_card(state, card_id) for card_id in hand] if _sees_hand(state, seat, index) else None,
        })
    acting = seat == GM or (isinstance(seat, int) and seat in deciding)
    actor = deciding[0] if deciding else None
    can_place = acting and isinstance(actor, int) and state["phase"] in ("placement", "reinforcement")
    map_key = state["map"] or "standard"
    spec = maps.MAPS[map_key]
    result = state["result"]
    return {
        "game": "gridaris", "viewer": seat, "phase": state["phase"],
        "to_act": deciding, "to_act_names": [_name(state, who) for who in deciding],
        "turn_text": _turn_text(state),
        "players": players,
        "hand": players[seat]["hand"] if isinstance(seat, int) and 0 <= seat < len(players) else [],
        "scenarios": [
            {"key": s["key"], "name": s["name"], "text": s["text"], "active": s["key"] in state["active"]}
            for s in SCENARIOS if s["key"] in state["scenarios"]
        ],
        "headstand_classes": list(state["headstand_classes"]),
        "map": {"key": map_key, "name": spec["name"], "rows": spec["rows"], "cols": spec["cols"]},
        "map_chosen": state["map"] is not None,
        "piles": {tier: len(pile) for tier, pile in state["decks"].items()},
        "grid": _grid(state),
        "playable_cards": playable_cards(state, actor) if can_place else [],
        "playable_cells": playable_cells(state, actor) if can_place else [],
        "choices": _choices(state) if acting else [],
        "events": state["events"][-VISIBLE_EVENTS:],
        "score": None if result is None else {
            "rows": result["rows"], "winners": result["winners"], "reason": result["reason"]},
    }


def card_names(state: dict) -> dict[str, str]:
    """Every card of the game by id, with the name its lines use (the simulate checks look for names)."""
    return {card_id: card["name"] for card_id, card in state["cards"].items()}


def hidden_from(state: dict, seat) -> list[str]:
    """Card ids ``seat`` must not see: every pile card, and other hands unless Show Whole."""
    if seat == GM:
        return []
    hidden = [card_id for pile in state["decks"].values() for card_id in pile]
    if "show_whole" not in state["active"]:
        for index, hand in enumerate(state["hands"]):
            if index != seat:
                hidden.extend(hand)
    return hidden


def outcome(state: dict):
    result = state["result"]
    if result is None:
        return None
    return {
        "winners": list(result["winners"]),
        "scores": {str(row["seat"]): row["total"] for row in result["rows"]},
        "reason": result["reason"],
        "rows": result["rows"],
    }
