"""Small shared helpers of the GOT'M engine: events, seats, the bank, the final score.

Recovery deals from the bank; when the bank is empty the spent resources are shuffled
(chance passed in as ``rng``) and become the new bank. If both are empty the deal stops
(ruling). Scoring: hand at value, infirmary at half rounded down, ears by rank
(resource 1, veteran 2, spellcaster 3, leader 4); the highest total wins, a tie is shared.
"""

from __future__ import annotations

from ..words import phrase
from . import cards

MAX_EVENTS = 60

BANK_REBUILT = phrase("The bank is empty: the %(n)d spent resources are shuffled into a new bank.")
# The game's end: why (a phrase of its own), then who wins.
FINAL_TIE = phrase("%(reason_words)s Final score: a tie.")
FINAL_WIN = phrase("%(reason_words)s Final score: %(name)s wins.")


def event(state: dict, line: str) -> None:
    state["events"] = (state["events"] + [line])[-MAX_EVENTS:]


def other(seat: int) -> int:
    return 1 - seat


def player(state: dict, seat: int) -> str:
    return state["players"][seat]


def has_mercenary(state: dict, seat: int) -> bool:
    """A mercenary the player could send to battle: in hand or in the infirmary."""
    return any(cards.is_mercenary(card) for card in state["hands"][seat] + state["infirmary"][seat])


def draw_from_bank(state: dict, rng):
    """The top bank card, rebuilding the bank from the spent resources when it is empty."""
    if not state["bank"] and state["spent"]:
        state["bank"] = rng.shuffled(cards.sorted_cards(state["spent"]))
        state["spent"] = []
        event(state, BANK_REBUILT % {"n": len(state["bank"])})
    return state["bank"].pop(0) if state["bank"] else None


def score_rows(state: dict) -> list[dict]:
    rows = []
    for seat, name in enumerate(state["players"]):
        hand = sum(cards.value(card) for card in state["hands"][seat])
        infirmary = sum(cards.value(card) // 2 for card in state["infirmary"][seat])
        ears = sum(cards.ear_points(card) for card in state["ears"][seat])
        rows.append({"seat": seat, "name": name, "hand": hand, "infirmary": infirmary, "ears": ears,
                     "total": hand + infirmary + ears})
    return rows


def finish(state: dict, reason: str) -> None:
    """End the game now and score it."""
    rows = score_rows(state)
    best = max(row["total"] for row in rows)
    winners = [row["seat"] for row in rows if row["total"] == best]
    if len(winners) > 1:
        verdict = FINAL_TIE % {"reason_words": reason}
    else:
        verdict = FINAL_WIN % {"reason_words": reason, "name": player(state, winners[0])}
    state["phase"] = "over"
    state["pending"] = None
    state["result"] = {"winners": winners, "rows": rows, "reason": verdict}
    event(state, state["result"]["reason"])
