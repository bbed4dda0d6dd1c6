"""Invariants, examples of illegal actions and random configurations for the dungeon board."""

from __future__ import annotations

from collections import Counter

from . import board
from .actions import legal_actions
from .anytime import FREE
from .flow import to_act
from .start import all_cards

NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve"]


def invariants(state: dict) -> list[str]:
    problems = []
    cards = all_cards(state)
    twice = [c for c, n in Counter(cards).items() if n > 1]
    if twice:
        problems.append(f"cards in two places: {twice[:3]}")
    if len(cards) != state["card_count"]:
        problems.append(f"{state['card_count']} cards at set-up, {len(cards)} now")
    squares = [tuple(m["pos"]) for m in state["board"]] + [tuple(m["pos"]) for m in state["mercs"] if m["pos"]]
    if len(squares) != len(set(squares)):
        problems.append("two cards on one square")
    if any(not (0 <= r < board.SIZE and 0 <= c < board.SIZE) for r, c in squares):
        problems.append("a card is off the battle area")
    for m in state["board"]:
        if m["wounds"] >= board.stats(state, m["id"])["health"] and not state.get("dying") and not state["combat"]:
            problems.append(f"{m['id']} is dead but still in the battle area")
    return problems


def illegal_examples(state: dict) -> list[dict]:
    examples = [{"type": "teleport", "seat": 0}]
    acting = to_act(state)
    others = [s for s in range(len(state["players"])) if s not in acting]
    blocking = [a for a in legal_actions(state) if a["type"] not in FREE]
    for action in blocking[:2]:
        if others:
            examples.append({**{k: v for k, v in action.items() if k != "label"}, "seat": others[0]})
    if state["result"] is None and state["phase"] == "mercs" and not state["pending"]:
        merc = state["mercs"][state["current"]]
        examples.append({"type": "to", "square": [0, 0], "seat": merc["owner"]})
        if merc["bought"]:
            examples.extend({"type": "acquire", "merc": state["current"], "code": c, "seat": merc["owner"]}
                            for c in list(state["stacks"])[:1])
    return examples


def random_config(rng) -> dict:
    kind = rng.randint(0, 5)
    if kind == 0:
        return {"players": NAMES[:2], "variant": ["pairs", "singles"][rng.randint(0, 1)],
                "mode": ["competitive", "cooperative"][rng.randint(0, 1)]}
    if kind == 1:
        return {"players": NAMES[:5], "deck_master": True}
    if kind == 2:
        return {"players": NAMES[:3], "deck_master": True}
    n = rng.randint(3, 4)
    return {"players": NAMES[:n], "mode": ["competitive", "cooperative"][rng.randint(0, 1)]}
