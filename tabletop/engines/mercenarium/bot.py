"""What a computer player needs from Mercenarium: ``redeal`` (a state the seat cannot tell from this
one) and ``heuristic`` (a cheap estimate of the seat's chance to win). Pure, no Django.

``redeal(state, seats, rng)``: what a seat cannot see (seat_view.py, ``hidden_from``) is the deck and
the hymnal (contents and order), the other hands but their face-up hymns, and the hymns another seat
is choosing among (Primary); ``seats`` may be several (``kernel.viewer_set``): then what none of
them sees is dealt anew (the hands of the seats not among them). A seat that is searching the deck
sees its contents, so only its order is shuffled. Every count the seat sees is kept, and so is what
each place may hold: outside Singularity the deck holds no hymn, the hymnal and Primary's offer only
hymns, and a hand at most five cards and one hymn (a face-up hymn is that hymn). The hidden hymns
are pooled in id order and shuffled with ``rng.shuffled``: the hymnal (top card last, as it is
drawn) and any offer take theirs first; the hymns left over go one to a hand, to the hands that must
hold one (six cards) and then to hands picked at random among those that may. The hidden other cards
are pooled and dealt the same way, the deck first, then the hands. In Singularity a hand has no
limits and the deck holds hymns too, so the deck and the hands are dealt from one pool. A hand is
rebuilt as its face-up hymns, then the cards dealt to it. Cards a seat saw go into another hand (a
card sent back by a hymn, a salvaged card, a hymn sung and kept) are pooled with the rest (ruling
BOT17). The record of positions seen (for the stalemate on a third repetition) holds positions with
the real hands in them, so the redealt state keeps only the current position, with its count, under
its new key (ruling BOT18).

``heuristic(state, seat)``: five captures win, Limbo loses (two players). Each seat's standing
counts its captures (more as it nears five), its cards in play (their aura dots), the best it may take
next (a capture: one more capture and the victim's dots; with an unspent capture, a buy: the best
enemy mercenary that may be bought changes sides), most of it when it is the seat's move and a
little otherwise, its hand, a hymn, unspent captures, and a heavy loss for Limbo. The chances are a softmax of
the standings (a logistic of the lead for two players); a finished game gives 1 to a sole winner,
0 to a loser, and a draw the same share to everyone (ruling BOT19).
"""

from __future__ import annotations

import math

from ..kernel import GM, viewer_set
from .board import HAND_LIMIT, WIN_CAPTURES, buyable, cards_in_play, in_limbo, is_hymn, moves, private_copy, unspent
from .game import position

CAPTURE_WORTH = 1.0
DOT_WORTH = 0.05
TAKE_NOW = 0.8       # the share of its best capture or buy the seat to move counts: it can take it now
TAKE_LATER = 0.3     # the share another seat counts: the seat threatened moves first
THREAT_WORTH = 0.1   # each further threat of the seat to move
HAND_WORTH = 0.06
HYMN_WORTH = 0.2
SPARE_WORTH = 0.15   # an unspent capture: a buy or an offering in reserve
LIMBO_LOSS = 2.5
SCALE = 1.2          # standings are divided by this before the softmax

# The search (tabletop/bots/common.py ``search_settings``), tuned on bench/bots.py (issue 27): no random
# playout (depth 0: the heuristic right after the tree's last move), since random moves here are noise;
# two policy steps (depth 2) did no better on the same 20 games and cost more. ``widening``: below the root
# a node expands only while it has fewer than widening * sqrt(visits) + 1 children, since the other seat's
# hidden hand, dealt anew each iteration, gives it a new untried summon nearly every time, so without it
# its best reply (a capture the policy expands first) is tried once and then drowned by random replies:
# 11 of 20 games won against greedy without it, 14 of the same 20 with it (30 of 40 in all).
SEARCH = {"iterations": {"quick": 150, "normal": 600, "strong": 2400}, "depth": 0, "exploration": 0.7,
          "widening": 1.0}


def _hidden_hands(state: dict, viewers: frozenset) -> list[int]:
    return [index for index in range(len(state["players"])) if index not in viewers]


def redeal(state: dict, seats, rng) -> dict:
    """A new state ``seats`` cannot tell from ``state``: their hidden cards dealt anew (module doc)."""
    new = private_copy(state)
    viewers = viewer_set(seats)
    if GM in viewers:
        return new
    pending = new["pending"]
    searching = pending is not None and pending["kind"] == "search" and pending["seat"] in viewers
    offer = pending["options"] if pending and pending["kind"] == "primary" and pending["seat"] not in viewers else None
    others = _hidden_hands(new, viewers)
    face_up = set(new["face_up"])
    kept = {index: sorted(c for c in new["hands"][index] if c in face_up) for index in others}
    counts = {index: len(new["hands"][index]) - len(kept[index]) for index in others}

    hymns = list(new["hymnal"]) + list(offer or [])
    rest = [] if searching else list(new["deck"])
    for index in others:
        for card in new["hands"][index]:
            if card not in face_up:
                (hymns if is_hymn(new, card) else rest).append(card)
    hymns = rng.shuffled(sorted(hymns))
    new["hymnal"], hymns = hymns[:len(new["hymnal"])], hymns[len(new["hymnal"]):]
    if offer is not None:
        new["pending"] = {**pending, "options": hymns[:len(offer)]}
        hymns = hymns[len(offer):]
    if searching:
        new["deck"] = rng.shuffled(sorted(new["deck"]))
    dealt: dict[int, list[str]] = {index: [] for index in others}
    if new["singularity"]:
        pool = rng.shuffled(sorted(rest + hymns))
        if not searching:
            new["deck"], pool = pool[:len(new["deck"])], pool[len(new["deck"]):]
        for index in others:
            dealt[index], pool = pool[:counts[index]], pool[counts[index]:]
    else:
        must = [index for index in others if counts[index] > HAND_LIMIT]
        may = [index for index in others if index not in must and counts[index] and not kept[index]]
        holders = set(must + rng.shuffled(may)[:len(hymns) - len(must)])
        pool = rng.shuffled(sorted(rest))
        if not searching:
            new["deck"], pool = pool[:len(new["deck"])], pool[len(new["deck"]):]
        for index in others:
            size = counts[index] - (index in holders)
            dealt[index], pool = pool[:size], pool[size:]
            if index in holders:
                dealt[index].append(hymns.pop(0))
    seen_here = new["seen"].get(position(state))
    for index in others:
        new["hands"][index] = kept[index] + dealt[index]
    new["seen"] = {position(new): seen_here} if seen_here else {}
    return new


def _dots(state: dict, cell: str) -> float:
    return DOT_WORTH * sum(state["cards"][state["board"][cell]["card"]]["aura"])


def _standing(state: dict, seat: int, mover: int, bidders: set[int]) -> float:
    caps = len(state["captures"][seat])
    score = CAPTURE_WORTH * (caps + caps * caps / WIN_CAPTURES)
    board = state["board"]
    for cell in cards_in_play(state, seat):
        score += _dots(state, cell) + (0.25 if state["cards"][board[cell]["card"]]["value"] == 15 else 0.0)
    # What the seat may take next: a capture (one more capture, the victim off the board) or, with an
    # unspent capture, a buy (the best enemy mercenary that may be bought changes sides).
    swing = CAPTURE_WORTH * (1 + (2 * caps + 1) / WIN_CAPTURES)
    gains = [swing + _dots(state, move["to"]) for move in moves(state, seat) if move["kind"] == "capture"]
    if seat in bidders:
        gains += [2 * _dots(state, cell) - SPARE_WORTH for cell in buyable(state, seat)]
    if gains:
        best = max(gains)
        score += (TAKE_NOW * best + THREAT_WORTH * (len(gains) - 1)) if seat == mover else TAKE_LATER * best
    hand = state["hands"][seat]
    score += HAND_WORTH * sum(1 for card in hand if not is_hymn(state, card))
    score += HYMN_WORTH * any(is_hymn(state, card) for card in hand)
    score += SPARE_WORTH * len(unspent(state, seat))
    if in_limbo(state, seat):
        score -= LIMBO_LOSS
    elif not cards_in_play(state, seat):
        score -= LIMBO_LOSS / 4
    return score


def heuristic(state: dict, seat: int) -> float:
    """``seat``'s chance to win, from a softmax of every seat's standing (module doc)."""
    result = state["result"]
    count = len(state["players"])
    if result is not None:
        winners = result["winners"]
        if not winners:
            return 1.0 / count
        return 1.0 / len(winners) if seat in winners else 0.0
    mover = state["pending"]["seat"] if state["pending"] else state["turn"]
    bidders = {index for index in range(count) if unspent(state, index)}
    standings = [_standing(state, index, mover, bidders) / SCALE for index in range(count)]
    top = max(standings)
    weights = [math.exp(s - top) for s in standings]
    return weights[seat] / sum(weights)


def playout(state: dict, actions: list[dict], rng) -> dict:
    """The search's playout step and expansion order (issue 27): a capture when there is one (of the
    victim with the most aura dots), else a buy of an enemy mercenary (the most dots), else any legal
    action at random. Taking first matters most: five captures win, and the search expands an
    opponent's reply in this order, so it meets the capture that answers its move before the quiet
    replies."""
    best, best_dots = None, -1
    for action in actions:
        kind = action["type"]
        if kind == "capture" or (kind == "buy" and best_dots < 100):
            slot = state["board"][action["to" if kind == "capture" else "cell"]]
            dots = sum(state["cards"][slot["card"]]["aura"]) + (100 if kind == "capture" else 0)
            if dots > best_dots:
                best, best_dots = action, dots
    return best if best is not None else rng.choice(actions)

