"""Mercenarium invariants and examples of actions that must be refused."""

from __future__ import annotations

from collections import Counter

from .board import HAND_LIMIT, hand_cards, hand_hymns, house, key


def places(state: dict) -> Counter:
    found: Counter = Counter()
    for pile in ("deck", "hymnal", "discard", "hymn_discard"):
        found.update(state[pile])
    for hand in state["hands"]:
        found.update(hand)
    found.update(slot["card"] for slot in state["board"].values())
    for caps in state["captures"]:
        found.update(cap["card"] for cap in caps)
    if state["pending"] and state["pending"]["kind"] == "primary":
        found.update(state["pending"]["options"])
    return found


def invariants(state: dict) -> list[str]:
    problems = []
    found = places(state)
    every = set(state["cards"]) | set(state["hymns"])
    missing = every - set(found)
    if missing:
        problems.append(f"cards in no place: {sorted(missing)[:5]}")
    twice = [card_id for card_id, count in found.items() if count > 1]
    if twice:
        problems.append(f"cards in two places: {sorted(twice)[:5]}")
    unknown = set(found) - every
    if unknown:
        problems.append(f"unknown cards: {sorted(unknown)[:5]}")
    if not state["singularity"]:
        for seat in range(len(state["players"])):
            if len(hand_cards(state, seat)) > HAND_LIMIT or len(hand_hymns(state, seat)) > 1:
                problems.append(f"seat {seat} holds too many cards")
        if state["hymnal"] and any(h in state["cards"] for h in state["hymnal"]):
            problems.append("a non-hymn card is in the hymnal")
    for cell, slot in state["board"].items():
        if slot["card"] in state["hymns"]:
            problems.append(f"a hymn is on the board at {cell}")
    for caps in state["captures"]:
        if any(cap["card"] in state["hymns"] for cap in caps):
            problems.append("a hymn was captured")
    if state["result"] is None and len(state["captures"][state["turn"]]) >= 5:
        problems.append("five captures but the game goes on")
    return problems


def illegal_examples(state: dict) -> list[dict]:
    if state["result"] is not None:
        return [{"type": "draw", "seat": 0}]
    turn = state["pending"]["seat"] if state["pending"] else state["turn"]
    other = (turn + 1) % len(state["players"])
    examples = [{"type": "draw", "seat": other}, {"type": "pass", "seat": turn},
                {"type": "move", "seat": turn, "from": "0,0", "to": "6,6"}]
    if state["hands"][other]:
        examples.append({"type": "summon", "seat": turn, "card": state["hands"][other][0], "to": house(state, turn)})
    for cell, slot in state["board"].items():
        if slot["owner"] == turn:
            examples.append({"type": "buy", "seat": turn, "cell": cell, "capture": 0})
            break
    if state["deck"]:
        examples.append({"type": "summon", "seat": turn, "card": state["deck"][-1], "to": key(3, 3)})
    return examples
