"""What a computer commander needs from the engine: ``redeal`` and ``heuristic``.

``redeal(state, seats, rng)``: a state ``seat`` cannot tell from this one (seat_view.py
says what a commander sees); ``seats`` may be several (``kernel.viewer_set``): what none of them
sees is dealt anew, so with both commanders nothing changes and with neither (``PUBLIC``) both
commanders' hidden cards are replaced as below. Hidden from a commander are the other commander's hand
(but the cards a Mender revealed), the other commander's face-down skirmish card and the
Oathbound designation of the other commander. (Dice and modifiers the GM set for what
comes next are GM-only in the view but announced in the events, so they stay.) Ruling
BOT12 (the Oathbound and the GM's dice: BOT13):

* The other commander's hidden cards (unrevealed hand and face-down card) are not known:
  a seat sees only its own army (B6). Each is replaced by a new card (ids ``unseen-0``,
  ``unseen-1``, ...) whose face is drawn with ``rng`` from the faces the seat has seen in
  this battle (its own army and the other army's cards shown so far), a face-down place
  only from those that may be played in a skirmish, in their printed Role. The hand keeps
  its revealed cards first, then the unseen ones.
* The other commander's ``used`` list (cards that left the hand, for upkeep) keeps
  its public part: the hidden cards are taken out and the new face-down cards added.
  It never changes who wins.
* An Oathbound designation of the other commander is drawn again among their
  non-Ritual cards outside their Killed pile (a designated unit is never Killed).
* An open reaction window's record of positions seen (ruling AR32) names the real hidden
  cards, so the redealt window keeps only the current position, with its count, under its
  new digest.

``heuristic(state, seat)``: ``seat``'s chance to win, in [0, 1] (1 or 0 at the end,
0 for both when both lose). The battle is won by a rout, else by kills, else by
Morale (aftermath.py), so the estimate is a logistic of kills and Morale, with a steep
cost as Morale nears 0 (a Routed commander loses). A revealed skirmish counts its
expected kills from the exact odds (odds.py; the dice as rolled once they are) and an
Unopposed unit its expected Morale damage. The Strength still in hand is left out: as
a term it made the players hoard units and lose more (measured: ruling BOT14).

``playout(state, actions, rng)``: the search's playout policy and move ordering (issue 27), rules
of thumb that a random commander lacks: a commander on Offense or Defense plays a unit (or a Ritual)
and passes only now and then (a Pass costs Morale or lets a unit through Unopposed); in a reaction
window it mostly declines (a random discard throws a card away); a unit that would be Killed is
saved by a Favor or half an Influence (free within the battle), and by 3 Morale only when that
leaves Morale to lose. Anything else is a uniform choice. It reads nothing but the state given.

``observed(action, viewer)``: the action as ``viewer`` sees it. A unit played on Offense or Defense
goes face down (rules, "Skirmish"), so the other commander sees that a unit was played, not which one
nor in which Role; the search keeps a tree per commander (tabletop/bots/ismcts.py), so the defender's
reply in the search does not depend on the attacker's face-down card (ruling BOT41).

``SEARCH``: the heuristic right after the expanded move (depth 0) won as often as playouts of 4 and 12
actions, at a fraction of their cost (measured: ruling BOT38), so the bench's run fits its hour. The
three strengths are one search of 300 iterations (ruling BOT42): on 100 head-to-head games each,
1,200 iterations did not beat 300, nor 300 beat 100.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from .. import kernel, repetition
from ..kernel import GM
from .abilities import has
from .actions import fresh
from .common import SIDES, other, total_morale
from .odds import skirmish_odds, unopposed_odds
from .skirmish import position_parts
from .strength import side_dice, total

KILL_WEIGHT = 1.5
MORALE_WEIGHT = 0.35
ROUT_WEIGHT = 2.0
ROUT_DECAY = 0.8
ROUTING_CHANCE = 0.02

# The playout policy's odds, in percent (issue 27; ruling BOT38).
PASS_PERCENT = 5
DECLINE_PERCENT = 70
PLAYS = ("play", "ritual")
FREE_SAVES = ("favor", "influence")

SEARCH = {"iterations": {"quick": 300, "normal": 300, "strong": 300}, "depth": 0, "exploration": 0.7}


def observed(action: dict, viewer) -> dict:
    """``action`` as ``viewer`` sees it: a face-down play shows only that its commander played (module doc)."""
    if action["type"] == "play" and viewer != action["seat"]:
        return {"type": "play", "seat": action["seat"]}
    return action


def _skirmish_ready(card: dict) -> bool:
    """May play on Offense or Defense (common.playable, for one card wherever it is)."""
    return card["strength"] is not None and card["role"] != "ritual" and not has(card, "no_skirmish")


UNSEEN = "unseen-"


# The last prior worked out, as one (cards, hidden, faces) tuple so that threads read it whole: the search
# redeals one state hundreds of times a decision, and the card catalog (read-only once set up, shared by
# every state thawed from it) is the same object each time.
_last_prior: list = [(None, None, None)]


def _prior(state: dict, hidden: set[str]) -> list[dict]:
    """The card faces the viewers have seen in this battle (its own army and the other army's cards it saw),
    in a canonical order: what an unseen card of the other army is drawn from (ruling BOT12)."""
    cards, seen_hidden, faces = _last_prior[0]
    if cards is state["cards"] and seen_hidden == hidden:
        return faces
    faces = _faces(state, hidden)
    _last_prior[0] = (state["cards"], hidden, faces)
    return faces


def _faces(state: dict, hidden: set[str]) -> list[dict]:
    faces = {}
    for card_id, card in state["cards"].items():
        if card_id in hidden:
            continue
        face = {key: value for key, value in card.items() if key not in ("id", "owner")}
        faces[kernel.canonical_json(face)] = face
    return [faces[key] for key in sorted(faces)]


def redeal(state: dict, seats, rng) -> dict:
    """A new state that ``seats`` cannot tell from ``state``; the input is left untouched."""
    new_state = fresh(state)
    viewers = kernel.viewer_set(seats)
    rivals = [rival for rival in (0, 1) if rival not in viewers]
    if GM in viewers or not rivals or state["phase"] == "over":
        return new_state
    cards, skirmish = state["cards"], new_state["skirmish"]
    face_down = {rival: [side for side in SIDES if skirmish and skirmish[side] and not skirmish[side]["revealed"]
                         and cards[skirmish[side]["card"]]["owner"] == rival] for rival in rivals}
    pools = {rival: [card_id for card_id in state["piles"][rival]["hand"] if card_id not in state["revealed"][rival]]
             + [skirmish[side]["card"] for side in face_down[rival]] for rival in rivals}
    hidden = {card_id for pool in pools.values() for card_id in pool}
    prior = _prior(state, hidden)
    ready = [face for face in prior if _skirmish_ready(face)] or prior
    new_cards = {card_id: card for card_id, card in cards.items() if card_id not in hidden}
    numbers = (f"{UNSEEN}{number}" for number in itertools.count())

    def unseen(faces: list[dict], rival: int) -> str:
        card_id = next(card_id for card_id in numbers if card_id not in new_cards)
        new_cards[card_id] = {**rng.choice(faces), "id": card_id, "owner": rival}
        return card_id

    for rival in rivals:
        placed = []
        for side in face_down[rival]:
            card_id = unseen(ready, rival)
            placed.append(card_id)
            skirmish[side] = {"card": card_id, "role": new_cards[card_id]["role"], "role_source": None,
                              "revealed": False}
        in_hand = [unseen(prior, rival) for _ in range(len(pools[rival]) - len(face_down[rival]))]
        revealed, hand = state["revealed"][rival], state["piles"][rival]["hand"]
        new_state["piles"][rival]["hand"] = [card_id for card_id in revealed if card_id in hand] + in_hand
        new_state["used"][rival] = [card_id for card_id in state["used"][rival] if card_id not in hidden] + placed
        commander = new_state["commanders"][rival]
        if commander["oath"] is not None:
            killed = set(state["piles"][rival]["killed"])
            candidates = sorted(card_id for card_id, card in new_cards.items()
                                if card["owner"] == rival and card["role"] != "ritual" and card_id not in killed)
            commander["oath"] = rng.choice(candidates) if candidates else commander["oath"]
    new_state["cards"] = new_cards
    window = skirmish["window"] if skirmish else None
    if window is not None:  # the window's record of positions (AR32) names the real hidden cards
        window["seen"] = repetition.carried(state["skirmish"]["window"].get("seen", {}),
                                            position_parts(state), position_parts(new_state))
    return new_state


def _odds_sides(state: dict, sides: tuple[str, ...]) -> list:
    """The odds module's sides; once the dice are rolled, each total is fixed (no dice left)."""
    found = [side_dice(state, side) for side in sides]
    if state["skirmish"]["dice"] is None:
        return found
    return [replace(each, modifier=total(state, side) - each.base_strength, dice="none", extra_d6=0)
            for side, each in zip(sides, found, strict=True)]


def _pending(state: dict) -> tuple[list[float], list[float]]:
    """What the skirmish in progress is expected to do, per seat: units lost to kills and Morale lost.

    A revealed skirmish is valued by its exact odds (odds.py), with the dice as rolled once they are
    (a tie that will be re-rolled by the odds before the roll), and an Unopposed unit by its damage;
    the value of a state in the window after the dice is then the value of the result it leads to,
    so a search has no reason to stall there."""
    killed, morale = [0.0, 0.0], [0.0, 0.0]
    skirmish = state["skirmish"]
    if not skirmish or not skirmish["offense"] or not skirmish["offense"]["revealed"]:
        return killed, morale
    if not skirmish["defense"]:
        damage = unopposed_odds(_odds_sides(state, ("offense",))[0])
        morale[skirmish["defender"]] += float(sum(points * p for points, p in damage.items()))
        return killed, morale
    odds = skirmish_odds(*_odds_sides(state, SIDES))
    if odds.undecidable and skirmish["dice"] is not None:  # a tie on equal bases: every die is re-rolled
        odds = skirmish_odds(side_dice(state, "offense"), side_dice(state, "defense"))
    killed[skirmish["attacker"]] += float(odds.offense_killed)
    killed[skirmish["defender"]] += float(odds.defense_killed)
    return killed, morale


def _rout_danger(morale: float) -> float:
    return math.exp(-ROUT_DECAY * morale)


def heuristic(state: dict, seat: int) -> float:
    """``seat``'s chance to win the battle, estimated (exact once it is over)."""
    result = state["result"]
    if result is not None:
        return 1.0 if result["winner"] == seat else 0.0
    rival = other(seat)
    if state["routing"] is not None:
        return ROUTING_CHANCE if state["routing"] == seat else 1.0 - ROUTING_CHANCE
    killed, lost = _pending(state)
    my_kills = len(state["piles"][rival]["killed"]) + killed[rival]
    their_kills = len(state["piles"][seat]["killed"]) + killed[seat]
    mine, theirs = total_morale(state, seat) - lost[seat], total_morale(state, rival) - lost[rival]
    score = (KILL_WEIGHT * (my_kills - their_kills) + MORALE_WEIGHT * (mine - theirs)
             + ROUT_WEIGHT * (_rout_danger(max(theirs, 0.0)) - _rout_danger(max(mine, 0.0))))
    return 1.0 / (1.0 + math.exp(-score))


def playout(state: dict, actions: list[dict], rng) -> dict:
    """One of ``actions`` for a playout step or the next expansion: rules of thumb, a random choice
    within them (the module docstring says which)."""
    step = state["step"]
    kind = step["kind"] if step else None
    if kind in ("offense", "defense"):
        plays = [action for action in actions if action["type"] in PLAYS]
        if plays and rng.randint(0, 99) >= PASS_PERCENT:
            return rng.choice(plays)
    elif kind == "react":
        declines = [action for action in actions if action["type"] == "decline"]
        if declines and rng.randint(0, 99) < DECLINE_PERCENT:
            return declines[0]
    elif kind == "save":
        saves = [action for action in actions if action["type"] == "save"]
        free = [action for action in saves if action["pay"] in FREE_SAVES]
        if free:
            return free[0]
        if saves and total_morale(state, step["seat"]) > 3:
            return saves[0]
        accept = [action for action in actions if action["type"] == "accept"]
        if accept:
            return accept[0]
    return rng.choice(actions)
