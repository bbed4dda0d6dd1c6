"""What a computer player needs from GOT'M: ``redeal`` (a state the seat cannot tell from this one)
and ``heuristic`` (a cheap estimate of the seat's chance to win). Pure, no Django.

``redeal(state, seats, rng)``: what a seat cannot see (seat_view.py, ``hidden_from``) is the camp,
the merchant and the bank (contents and order), the opponent's hand and, while squads are placed,
the opponent's face-down squad. ``seats`` may be both (``kernel.viewer_set``): then only the piles
are dealt anew; or none (``PUBLIC``): then both hands and face-down squads too, each keeping its
number of cards of each kind. Every count the seat sees is kept, and so is the kind of card each
place may hold, which the seat can work out: the camp holds only mercenaries, the merchant only
artifacts, the bank only resources, so the number of mercenaries, artifacts and resources in the
opponent's hand (and face-down squad) is the number of hidden cards of that kind less the pile's
count. Per kind the hidden cards are pooled in card-id order, shuffled with ``rng.shuffled`` and
dealt back: the pile first (top card first), the rest to the opponent. The opponent's face-down
squad is filled from the opponent's hidden mercenaries and resources (never an artifact, which is
no squad card), reshuffled until a full squad holds a mercenary, as the rules require. A card the
opponent placed from its infirmary stays where it is: the infirmary is face up, so the seat saw it
go (ruling BOT15). Cards the seat saw go into the opponent's hand (a hired mercenary, survivors of a
skirmish, loot) are pooled with the rest (ruling BOT16).

``heuristic(state, seat)``: the final score decides the game (hand at value, infirmary at half,
ears by rank), so the estimate is the seat's expected score lead: the score it holds now, the
squad cards still standing (worth their value if they come home) and, in a skirmish, the squad the
round's winner will take as ears, weighted by a guess at who wins it from the living attack power.
While shopping, each skip or swap of this phase costs the seat a point and a half, so that a
search prefers ending the shopping to putting a skirmish off (the engine itself ends every shop:
ruling M25, and M28's third repetition). The shop's record of positions seen (M28) names positions
with the real hidden cards in them, so a redealt state keeps only the current position, with its count,
under its new digest. The lead goes through a logistic curve; a finished game gives 1 to a sole
winner, 0 to a loser and one half to a tie.
"""

from __future__ import annotations

import math

from .. import repetition
from ..kernel import GM, thaw, viewer_set
from . import battle, cards, recruit
from .common import other

MAX_REDEALS = 200
SCORE_SCALE = 14.0  # points of lead that make about a 73 % favourite
ROUND_SCALE = 8.0   # attack power lead that makes about a 73 % favourite to win the skirmish
STALL = 1.5         # points a seat loses for each skip or swap of this shopping phase (see _stalls)


def _kind(card: str) -> str:
    if cards.is_mercenary(card):
        return "mercenary"
    return "artifact" if cards.is_artifact(card) else "resource"


def redeal(state: dict, seats, rng) -> dict:
    """A new state ``seats`` cannot tell from ``state``: their hidden cards dealt anew (module doc)."""
    new = thaw(state)
    viewers = viewer_set(seats)
    if GM in viewers:
        return new
    foes = [foe for foe in (0, 1) if foe not in viewers]
    hiding = new["phase"] == "squad"
    slots = {foe: [pos for pos, s in enumerate(new["squads"][foe]) if not s["infirmary"]] if hiding else []
             for foe in foes}
    piles = {"mercenary": "camp", "artifact": "merchant", "resource": "bank"}
    hidden = {kind: list(new[pile]) for kind, pile in piles.items()}
    counts = {foe: dict.fromkeys(piles, 0) for foe in foes}
    for foe in foes:
        for card in new["hands"][foe] + [new["squads"][foe][pos]["card"] for pos in slots[foe]]:
            hidden[_kind(card)].append(card)
            counts[foe][_kind(card)] += 1
    theirs: dict[int, list[str]] = {foe: [] for foe in foes}
    for kind, pile in piles.items():
        dealt = rng.shuffled(sorted(hidden[kind]))
        size = len(new[pile])
        new[pile], rest = dealt[:size], dealt[size:]
        for foe in foes:
            theirs[foe] += rest[:counts[foe][kind]]
            rest = rest[counts[foe][kind]:]
    for foe in foes:
        _deal_to(new, foe, slots[foe], theirs[foe], rng)
    if new["phase"] == "recruit":
        new["seen"] = repetition.carried(state.get("seen", {}), recruit.position_parts(state),
                                         recruit.position_parts(new))
    return new


def _deal_to(new: dict, foe: int, slots: list[int], theirs: list[str], rng) -> None:
    """``foe``'s face-down squad ``slots`` and hand from its dealt cards ``theirs`` (a full squad holds a
    mercenary)."""
    fighters = sorted(card for card in theirs if not cards.is_artifact(card))
    keep = [new["squads"][foe][pos]["card"] for pos in range(len(new["squads"][foe])) if pos not in slots]
    full = len(new["squads"][foe]) == new["squad_size"][foe]
    for _ in range(MAX_REDEALS):
        order = rng.shuffled(fighters)
        placed = order[:len(slots)]
        if not full or any(cards.is_mercenary(card) for card in placed + keep):
            break
    else:  # pragma: no cover - a full squad always had a mercenary among these cards
        mercenary = next(card for card in order if cards.is_mercenary(card))
        order.remove(mercenary)
        order.insert(0, mercenary)
        placed = order[:len(slots)]
    for pos, card in zip(slots, placed, strict=True):
        new["squads"][foe][pos]["card"] = card
    in_squad = set(placed)
    new["hands"][foe] = cards.sorted_cards(card for card in theirs if card not in in_squad)


def _held(state: dict, seat: int) -> float:
    """The score ``seat`` holds now (common.score_rows) plus its squad cards and artifacts still standing."""
    score = sum(cards.value(card) for card in state["hands"][seat])
    score += sum(cards.value(card) // 2 for card in state["infirmary"][seat])
    score += sum(cards.ear_points(card) for card in state["ears"][seat])
    for s in state["squads"][seat]:
        if s["artifact"]:
            score += cards.ARTIFACT_VALUE
        if not s["dead"]:
            score += cards.value(s["card"]) / (2 if s["wounded"] else 1)
    return score


def _standing(state: dict, seat: int) -> tuple[float, float]:
    """(value at stake, attack power) of ``seat``'s living squad cards in a skirmish."""
    stake = power = 0.0
    for pos, s in enumerate(state["squads"][seat]):
        if s["dead"]:
            continue
        stake += cards.value(s["card"]) / (2 if s["wounded"] else 1) + cards.ear_points(s["card"])
        power += battle.ap(state, seat, pos) * (0.6 if s["wounded"] else 1.0)
    return stake, power


def _stalls(state: dict, seat: int) -> int:
    """The seat's skips and swaps since the shop opened, from the public lines. A search that sees a lost
    skirmish coming would put it off that way as long as the engine allows (M25, M28 end every shop), so
    each one costs the seat a little and ending the shopping is preferred."""
    name = state["players"][seat]
    count = 0
    for line in reversed(state["events"]):
        if "the shop opens" in line:
            break
        count += line.startswith((f"{name} skips a turn", f"{name} swaps the"))
    return count


def heuristic(state: dict, seat: int) -> float:
    """``seat``'s chance to win, estimated from its expected lead in the final score (module doc)."""
    result = state["result"]
    if result is not None:
        winners = result["winners"]
        return 0.0 if seat not in winners else 1.0 / len(winners)
    foe = other(seat)
    lead = _held(state, seat) - _held(state, foe)
    if state["phase"] == "recruit":
        lead -= STALL * (_stalls(state, seat) - _stalls(state, foe))
    if state["phase"] in ("equip", "combat"):
        my_stake, my_power = _standing(state, seat)
        their_stake, their_power = _standing(state, foe)
        if state["phase"] == "combat" and not state["pending"] and state["turn"] == seat:
            my_power += 3.0  # the side to strike has the tempo
        win = 1.0 / (1.0 + math.exp(-(my_power - their_power) / ROUND_SCALE))
        lead += win * their_stake - (1.0 - win) * my_stake
    return 1.0 / (1.0 + math.exp(-lead / SCORE_SCALE))


# The search's settings (issue 27, tabletop/bots/common.py ``search_settings``): the heuristic right
# after the expanded move (depth 0) reads GOT'M's score lead well enough: 7 of 8 games against greedy
# at 600 iterations, 314 ms a decision, where 12-action random playouts cost 978 ms a decision
# (bench/bots.py, docs/benchmarks.md). Each strength triples the one before it, roughly.
SEARCH = {"iterations": {"quick": 150, "normal": 600, "strong": 1800}, "depth": 0}
