"""Test helpers: dungeon states with chosen monsters, mercenaries, hands and decks.

``arranged`` builds a real game through ``setup`` (so every pile exists), then clears the
battle area and lays out what the test names: monsters by code at squares, mercenaries at
squares, hands by card code. New card ids get a ``#9x`` suffix; the card count is then
re-taken so ``invariants`` still hold. Not used by play.
"""

from __future__ import annotations

from ..kernel import SeededRng
from . import board
from .actions import apply, legal_actions
from .flow import to_act
from .start import all_cards, setup

CONFIG_4 = {"players": ["Ann", "Ben", "Cid", "Dee"], "mode": "competitive"}


def fresh(config=None, seed=0) -> dict:
    return setup(dict(config or CONFIG_4), SeededRng(seed))


def arranged(*, config=None, monsters=(), mercs=None, hands=None, current=0, first=0, health=None, exp=None,
             seed=0) -> dict:
    """Mercenary turn of ``current``; ``monsters`` is [(code, (row, col)), ...]; ``mercs`` [(row, col), ...]."""
    state = fresh(config, seed)
    serial = {"n": 90}

    def new(code):
        serial["n"] += 1
        return f"{code}#{serial['n']}"

    for m in state["board"]:
        state["monster_discard"].append(m["id"])
    state["board"] = []
    state.update(pending=None, combat=None, lash=None, leaving=None, trap=None, spawn=None, mstep=None,
                 phase="mercs", first=first, current=current, result=None, done=[])
    order = board.turn_order(state)
    state["order"], state["this_turn"] = order[order.index(current) + 1:], order
    for code, square in monsters:
        state["board"].append({"id": new(code), "pos": list(square), "wounds": 0, "acted": False})
    positions = mercs or [(board.MERC_ROW, c) for c in range(len(state["mercs"]))]
    for merc, pos in zip(state["mercs"], positions, strict=False):
        merc["pos"] = list(pos)
    for index, codes in (hands or {}).items():
        merc = state["mercs"][index]
        merc["discard"] += merc["hand"]
        merc["hand"] = [new(code) for code in codes]
    for index, value in (health or {}).items():
        state["mercs"][index]["health"] = value
    for index, value in (exp or {}).items():
        state["mercs"][index]["exp"] = value
    state["card_count"] = len(all_cards(state))
    return state


def act(state, rng=None, **action) -> dict:
    seat = to_act(state)[0]
    return apply(state, {"seat": seat, **action}, rng or SeededRng(1))


def types(state) -> set:
    return {a["type"] for a in legal_actions(state)}


def monster_at(state, square):
    return next((m for m in state["board"] if m["pos"] == list(square)), None)
