"""Test helpers: Gridaris states with chosen hands, board and scenarios.

``state_with`` builds a real game through ``setup`` (with a deck padded by filler
cards of class "Filler", edges 5-5-5-5) and then moves the named cards where the test
wants them; every other card stays in a pile or in its dealt hand, so the result
satisfies ``invariants``. ``card`` makes a card dict in one line. Not used by play.
"""

from __future__ import annotations

from ..kernel import SeededRng
from . import game, maps


def card(card_id: str, edges: str, stars: int = 1, card_class: str = "Mops", tier: str = "silver",
         name: str | None = None) -> dict:
    """``card("a", "5A37")`` -> a card with edges top 5, right A, bottom 3, left 7."""
    return {"id": card_id, "name": name or card_id.upper(), "class": card_class, "tier": tier,
            "stars": stars, "edges": list(edges)}


def _fillers() -> list[dict]:
    silver = [card(f"fs{n:02d}", "5555", 1, "Filler", "silver", f"Filler {n}") for n in range(1, 31)]
    gold = [card(f"fg{n:02d}", "5555", 3, "Filler", "gold", f"Golden Filler {n}") for n in range(1, 16)]
    return silver + gold


def state_with(*, cards=(), players=("Ann", "Ben"), hands=None, board=None, scenarios=None, map=None,
               turn=0, headstand_classes=None, phase=None, seed=0) -> dict:
    """A game in progress.

    cards: extra card dicts (see ``card``); hands: {seat: [ids]} (seats not named keep
    their dealt cards); board: {"r,c": (id, owner) | (id, owner, modifier) |
    {"stack": [ids], "owner": seat, "modifier": n}}; scenarios: the two scenario keys
    (enhanced play) or None (standard); headstand_classes overrides the Head Stand draw;
    phase: only needed to force "reinforcement" (with turn as the first reinforcer).
    """
    config = {"players": list(players), "mode": "enhanced" if scenarios else "standard",
              "cards": list(cards) + _fillers()}
    if scenarios:
        config["scenarios"] = list(scenarios)
    if map:
        config["map"] = map
    state = game.setup(config, SeededRng(seed))
    if headstand_classes is not None:
        state["headstand_classes"] = list(headstand_classes)
    cells = {key: (value if isinstance(value, dict) else
                   {"stack": [value[0]], "owner": value[1], "modifier": value[2] if len(value) > 2 else 0})
             for key, value in (board or {}).items()}
    placed = {card_id for cell in cells.values() for card_id in cell["stack"]}
    named = placed | {card_id for ids in (hands or {}).values() for card_id in ids}
    piles = state["decks"]
    for pile in piles.values():
        pile[:] = [card_id for card_id in pile if card_id not in named]
    for seat, hand in enumerate(state["hands"]):
        kept = [card_id for card_id in hand if card_id not in named]
        if hands and seat in hands:
            for card_id in kept:
                piles[state["cards"][card_id]["tier"]].append(card_id)
            kept = list(hands[seat])
        state["hands"][seat] = kept
    state["board"] = {maps.key(*maps.parse_key(key)): cell for key, cell in cells.items()}
    state["turn"] = turn
    state["first"] = turn
    if phase == "reinforcement":
        count = len(players)
        state.update(phase="reinforcement", order=[(turn + n) % count for n in range(count)], order_pos=0)
    state["events"] = []
    return state


def place(state: dict, seat: int, card_id: str, cell: str) -> dict:
    """Apply a place action (no chance is used by Gridaris actions)."""
    return game.apply(state, {"type": "place", "seat": seat, "card": card_id, "cell": cell}, SeededRng(0))


def owners(state: dict) -> dict[str, int]:
    """{"r,c": owner} for every occupied battlefield."""
    return {key: cell["owner"] for key, cell in state["board"].items()}
