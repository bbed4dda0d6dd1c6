"""What a computer player of Gridaris needs from the engine: ``redeal`` and ``heuristic``.

* ``redeal(state, seats, rng)``: a state ``seats`` (one seat or several, ``kernel.viewer_set``)
  cannot tell from this one. Hidden from a player are the other hands (unless Show Whole)
  and both piles (contents and order); hidden from several, the hands none of them holds.
  The hidden silver cards are pooled (sorted ids), shuffled with ``rng`` and dealt back,
  and so are the hidden gold cards: each other hand keeps its number of silver and of
  gold cards (a player knows the 6 + 3 deal and sees every card played), each pile its
  length. An other hand is dealt silver first, then gold, as the setup deals. The board,
  the seat's own hand and everything public stay as they are. Ruling BOT10.
* ``heuristic(state, seat)``: a cheap estimate of ``seat``'s chance to win, in [0, 1]
  (1 or 0 once the game is over). Each player's standing is their score as it would be
  counted now (scoring.py: Star Ranks plus bonus shapes), plus a share of the stars
  still in hand (cards to be placed) and a little for each battlefield held (the first
  tie-break, and ground to build shapes and to reinforce). The chances are a softmax of
  the standings, so two players get a logistic of the lead. Ruling BOT11.
"""

from __future__ import annotations

import math
from functools import lru_cache

from .. import kernel
from ..kernel import GM
from .scoring import bonuses

# A lead of SCALE points is worth odds of e : 1 (about 73 %).
SCALE = 4.0
HAND_SHARE = 0.5
FIELD_WORTH = 0.5
TIERS = ("silver", "gold")
SMALLEST_SHAPE = 4  # the 2x2 square


def _hidden_hands(state: dict, viewers: frozenset) -> list[int]:
    if "show_whole" in state["active"]:
        return []
    return [other for other in range(len(state["players"])) if other not in viewers]


def redeal(state: dict, seats, rng) -> dict:
    """A new state that ``seats`` cannot tell from ``state``; the input is left untouched."""
    new_state = kernel.thaw(state, shared=("cards",))
    viewers = kernel.viewer_set(seats)
    if GM in viewers:
        return new_state
    cards = state["cards"]
    others = _hidden_hands(state, viewers)
    for tier in TIERS:
        pool = sorted(state["decks"][tier] + [card_id for other in others for card_id in state["hands"][other]
                                              if cards[card_id]["tier"] == tier])
        dealt = rng.shuffled(pool)
        for other in others:
            count = sum(1 for card_id in state["hands"][other] if cards[card_id]["tier"] == tier)
            kept = [card_id for card_id in new_state["hands"][other] if cards[card_id]["tier"] != tier]
            # Silver is dealt before gold (setup.py's order): silver goes in front, gold behind.
            new_state["hands"][other] = dealt[:count] + kept if tier == "silver" else kept + dealt[:count]
            dealt = dealt[count:]
        new_state["decks"][tier] = dealt
    return new_state


@lru_cache(maxsize=8192)
def _shape_points(map_key: str, owned: frozenset) -> int:
    """The bonus shapes' points of a set of battlefields (cached: playouts meet the same sets often)."""
    if len(owned) < SMALLEST_SHAPE:
        return 0
    return sum(bonus["points"] for bonus in bonuses(map_key, set(owned)))


def _standing(state: dict, seat: int) -> float:
    if state["out"][seat]:
        return -1000.0
    board, cards = state["board"], state["cards"]
    owned = frozenset(key for key, cell in board.items() if cell["owner"] == seat)
    stars = sum(cards[board[key]["stack"][-1]]["stars"] for key in owned)
    shapes = _shape_points(state["map"], owned) if state["map"] else 0
    in_hand = sum(cards[card_id]["stars"] for card_id in state["hands"][seat])
    return stars + shapes + HAND_SHARE * in_hand + FIELD_WORTH * len(owned)


def heuristic(state: dict, seat: int) -> float:
    """``seat``'s chance to win, estimated from the standings (1 won, 0 lost at the end)."""
    result = state["result"]
    if result is not None:
        winners = result["winners"]
        return 1.0 / len(winners) if seat in winners else 0.0
    standings = [_standing(state, each) for each in range(len(state["players"]))]
    top = max(standings)
    weights = [math.exp((value - top) / SCALE) for value in standings]
    return weights[seat] / sum(weights)


# The search's settings (issue 27, tabletop/bots/common.py ``search_settings``): Gridaris keeps its long
# random playouts, which paid (issue 16: against greedy, depth 0 65 %, 10 95 %); each strength triples
# the one before it, roughly, so that strong against normal costs what the bench can run. ``normal`` is
# 400 iterations (ruling BOT40): at 600 its decisions' p95 was 1,265 ms of CPU, over the issue's second;
# ``quick`` 50, since 400 iterations won only half their games against 150 and 80 % against 50.
SEARCH = {"iterations": {"quick": 50, "normal": 400, "strong": 1800}, "depth": 12}
