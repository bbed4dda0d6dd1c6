"""Test helpers: Mercenarium states with chosen hands and board.

``state_with`` builds a real game through ``setup`` and then moves the named cards
where the test wants them (every other card stays in the deck, hymnal or its dealt
hand), so the result satisfies ``invariants``. Not used by play.
"""

from __future__ import annotations

from ..kernel import SeededRng
from . import game
from .config import starter_config


def state_with(*, players=("Ann", "Ben"), hands=None, board=None, captures=None, turn=0, deck=None,
               seed=0) -> dict:
    """hands: {seat: [ids]}; board: {"r,c": (id, owner)}; captures: {seat: [id | (id, spent)]};
    deck: ids put on top of the deck (last drawn first)."""
    state = game.setup(starter_config(players), SeededRng(seed))
    hands, board, captures = hands or {}, board or {}, captures or {}
    named = {v[0] for v in board.values()} | {c for ids in hands.values() for c in ids}
    named |= {c if isinstance(c, str) else c[0] for ids in captures.values() for c in ids} | set(deck or [])
    for pile in ("deck", "hymnal"):
        state[pile] = [c for c in state[pile] if c not in named]
    for seat, hand in enumerate(state["hands"]):
        kept = [c for c in hand if c not in named]
        if seat in hands:
            for c in kept:
                state["hymnal" if c in state["hymns"] else "deck"].insert(0, c)
            kept = list(hands[seat])
        state["hands"][seat] = kept
    state["deck"] += list(reversed(deck or []))
    state["board"] = {cell: {"card": v[0], "owner": v[1]} for cell, v in board.items()}
    state["captures"] = [[{"card": c, "spent": False} if isinstance(c, str) else {"card": c[0], "spent": c[1]}
                          for c in captures.get(seat, [])] for seat in range(len(players))]
    state["turn"] = state["first"] = turn
    state["limbo_start"] = game.in_limbo(state, turn)
    state["seen"] = {}
    state["events"] = []
    return state


def act(state: dict, seat: int, rng=None, **action) -> dict:
    return game.apply(state, {"seat": seat, **action}, rng or SeededRng(0))


def with_aura(state: dict, card_id: str, aura) -> None:
    """Give one card of this state other dots (top, right, bottom, left), without touching the catalog."""
    state["cards"] = dict(state["cards"])
    state["cards"][card_id] = {**state["cards"][card_id], "aura": list(aura)}


def remember(state: dict) -> dict:
    """Count the current position once, as a game in progress would have."""
    game._remember(state)
    return state


def play(state: dict, action: dict, rng=None) -> dict:
    """Apply an action dict as ``legal_actions`` lists it."""
    return game.apply(state, action, rng or SeededRng(0))
