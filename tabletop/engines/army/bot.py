"""What a computer commander needs from the engine: ``redeal`` and ``heuristic``.

``redeal(state, seat, rng)``: a state ``seat`` cannot tell from this one (seat_view.py
says what a commander sees). Hidden from a commander are the other commander's hand
(but the cards a Mender revealed), the other commander's face-down skirmish card and the
Oathbound designation of the other commander. (Dice and modifiers the GM set for what
comes next are GM-only in the view but announced in the events, so they stay.) Ruling
BOT12:

* The other commander's hidden cards (unrevealed hand and face-down card) are pooled
  (sorted ids) and shuffled with ``rng``; each face-down place takes the first card of
  the shuffle that may be played in a skirmish (a unit with a Strength, as the real
  one must be), played in its printed Role; the rest go to the hand, after the
  revealed cards. The set of the other army's cards is the pool itself: Muster keeps
  no other list of what an army might hold (see the ruling).
* The other commander's ``used`` list (cards that left the hand, for upkeep) keeps
  its public part: the pooled cards are taken out and the new face-down cards added.
  It never changes who wins.
* An Oathbound designation of the other commander is drawn again among their
  non-Ritual cards outside their Killed pile (a designated unit is never Killed).

``heuristic(state, seat)``: ``seat``'s chance to win, in [0, 1] (1 or 0 at the end,
0 for both when both lose). The battle is won by a rout, else by kills, else by
Morale (aftermath.py), so the estimate is a logistic of kills (expected kills of a
revealed skirmish from the exact odds, odds.py), Morale (with a steep cost as it nears
0: a Routed commander loses) and the Strength still to play. Ruling BOT13.
"""

from __future__ import annotations

import math

from .. import kernel
from ..kernel import GM
from .abilities import has
from .common import SIDES, other, strength_of, total_morale

KILL_WEIGHT = 1.5
MORALE_WEIGHT = 0.35
STRENGTH_WEIGHT = 0.08
ROUT_WEIGHT = 2.0
ROUT_DECAY = 0.8
ROUTING_CHANCE = 0.02


def _skirmish_ready(card: dict) -> bool:
    """May play on Offense or Defense (common.playable, for one card wherever it is)."""
    return card["strength"] is not None and card["role"] != "ritual" and not has(card, "no_skirmish")


def redeal(state: dict, seat, rng) -> dict:
    """A new state that ``seat`` cannot tell from ``state``; the input is left untouched."""
    new_state = kernel.thaw(state, shared=("cards",))
    if seat == GM or seat not in (0, 1) or state["phase"] == "over":
        return new_state
    cards, rival = state["cards"], other(seat)
    skirmish = new_state["skirmish"]
    face_down = [side for side in SIDES if skirmish and skirmish[side] and not skirmish[side]["revealed"]
                 and cards[skirmish[side]["card"]]["owner"] == rival]
    revealed = state["revealed"][rival]
    hand = state["piles"][rival]["hand"]
    pool = sorted([card_id for card_id in hand if card_id not in revealed]
                  + [skirmish[side]["card"] for side in face_down])
    dealt = rng.shuffled(pool)
    placed = []
    for side in face_down:
        card_id = next(card_id for card_id in dealt if _skirmish_ready(cards[card_id]))
        dealt.remove(card_id)
        placed.append(card_id)
        skirmish[side] = {"card": card_id, "role": cards[card_id]["role"], "role_source": None, "revealed": False}
    new_state["piles"][rival]["hand"] = [card_id for card_id in revealed if card_id in hand] + dealt
    pooled = set(pool)
    new_state["used"][rival] = [card_id for card_id in state["used"][rival] if card_id not in pooled] + placed
    commander = new_state["commanders"][rival]
    if commander["oath"] is not None:
        killed = set(state["piles"][rival]["killed"])
        candidates = sorted(card_id for card_id, card in cards.items()
                            if card["owner"] == rival and card["role"] != "ritual" and card_id not in killed)
        commander["oath"] = rng.choice(candidates) if candidates else commander["oath"]
    return new_state


def _pending_kills(state: dict) -> tuple[float, float]:
    """Expected kills of seat 0's and seat 1's units in a revealed skirmish not yet rolled (odds.py)."""
    skirmish = state["skirmish"]
    if (not skirmish or skirmish["dice"] is not None or skirmish["unopposed"] or not skirmish["defense"]
            or not skirmish["offense"]["revealed"]):
        return 0.0, 0.0
    from .odds import skirmish_odds
    from .strength import side_dice
    odds = skirmish_odds(side_dice(state, "offense"), side_dice(state, "defense"))
    lost = [0.0, 0.0]
    lost[skirmish["attacker"]] += float(odds.offense_killed)
    lost[skirmish["defender"]] += float(odds.defense_killed)
    return lost[0], lost[1]


def _strength_left(state: dict, seat: int) -> int:
    cards, piles = state["cards"], state["piles"][seat]
    return sum(strength_of(cards[card_id]) for pile in ("hand", "exhausted") for card_id in piles[pile])


def _rout_danger(morale: int) -> float:
    return math.exp(-ROUT_DECAY * morale)


def heuristic(state: dict, seat: int) -> float:
    """``seat``'s chance to win the battle, estimated (exact once it is over)."""
    result = state["result"]
    if result is not None:
        return 1.0 if result["winner"] == seat else 0.0
    rival = other(seat)
    if state["routing"] is not None:
        return ROUTING_CHANCE if state["routing"] == seat else 1.0 - ROUTING_CHANCE
    pending = _pending_kills(state)
    my_kills = len(state["piles"][rival]["killed"]) + pending[rival]
    their_kills = len(state["piles"][seat]["killed"]) + pending[seat]
    mine, theirs = total_morale(state, seat), total_morale(state, rival)
    score = (KILL_WEIGHT * (my_kills - their_kills) + MORALE_WEIGHT * (mine - theirs)
             + ROUT_WEIGHT * (_rout_danger(theirs) - _rout_danger(mine))
             + STRENGTH_WEIGHT * (_strength_left(state, seat) - _strength_left(state, rival)))
    return 1.0 / (1.0 + math.exp(-score))
