"""A tiny game behind the kernel contract for the search's own tests: High Card.

Two seats, cards 1-13. Each seat is dealt five cards (hidden from the other); the rest is a
face-down stock. Five tricks: the leader (seat 0, then the trick's winner) plays a card face up,
the other answers; the higher card takes the trick (the leader wins a tie). Most tricks wins. A
seat that answers well (the lowest card that beats the lead, else its lowest card) beats random
play; a seat that could see the other hand would lead differently, which is what the sight test
catches. ``redeal`` and ``heuristic`` follow the contract in tabletop/engines/kernel.py, declared in
its ``SPEC`` (tabletop/engines/spec.py).
"""

from __future__ import annotations

from tabletop.engines.kernel import IllegalAction, thaw
from tabletop.engines.spec import EngineSpec

NAME = "toy"
TITLE = "High Card (a test game)"
CARDS = list(range(1, 14))


def setup(config, rng):
    deck = rng.shuffled(CARDS)
    return {"players": ["Ann", "Ben"], "hands": [sorted(deck[:5]), sorted(deck[5:10])], "stock": deck[10:],
            "leader": 0, "lead": None, "tricks": [0, 0], "played": [], "result": None}


def to_act(state):
    if state["result"] is not None:
        return []
    return [state["leader"] if state["lead"] is None else 1 - state["leader"]]


def legal_actions(state):
    return [{"type": "play", "seat": seat, "card": card} for seat in to_act(state) for card in state["hands"][seat]]


def apply(state, action, rng):
    if action not in legal_actions(state):
        raise IllegalAction("That card cannot be played now.")
    state = thaw(state)
    seat, card = action["seat"], action["card"]
    state["hands"][seat].remove(card)
    state["played"].append([seat, card])
    if state["lead"] is None:
        state["lead"] = [seat, card]
        return state
    leader, lead = state["lead"]
    winner = leader if lead >= card else seat
    state["tricks"][winner] += 1
    state["leader"], state["lead"] = winner, None
    if not state["hands"][0] and not state["hands"][1]:
        state["result"] = {"winners": [0 if state["tricks"][0] > state["tricks"][1] else 1]}
    return state


def view(state, seat):
    seen = thaw(state)
    for other in (0, 1):
        if other != seat:
            seen["hands"][other] = len(seen["hands"][other])
    seen["stock"] = len(seen["stock"])
    return seen


def outcome(state):
    return None if state["result"] is None else {"winners": list(state["result"]["winners"])}


def hidden_from(state, seat):
    return [f"c{card}" for card in state["stock"] + state["hands"][1 - seat]]


def invariants(state):
    cards = sorted(state["stock"] + state["hands"][0] + state["hands"][1] + [c for _, c in state["played"]])
    return [] if cards == CARDS else ["cards lost or doubled"]


def redeal(state, seat, rng):
    other = 1 - seat
    pool = rng.shuffled(sorted(state["hands"][other] + state["stock"]))
    state = thaw(state)
    count = len(state["hands"][other])
    state["hands"][other], state["stock"] = sorted(pool[:count]), pool[count:]
    return state


def heuristic(state, seat):
    if state["result"] is not None:
        return 1.0 if seat in state["result"]["winners"] else 0.0
    return (state["tricks"][seat] - state["tricks"][1 - seat] + 5) / 10


SPEC = EngineSpec(name=NAME, title=TITLE, redeal=redeal, heuristic=heuristic)
