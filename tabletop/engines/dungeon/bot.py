"""What a computer player of the dungeon needs from the engine: ``redeal`` and ``heuristic`` (issue 16).

* ``redeal(state, seats, rng)``: a state ``seats`` (one seat or several, ``kernel.viewer_set``) cannot
  tell from this one (seat_view.py says what a seat sees; for several, a hand any of them sees is
  kept). Hidden from a player are every deck's order (their own mercenaries' too), the hands of
  the other players' mercenaries, and the Monster and Area Feature decks. So:
  - each of the seat's own mercenaries keeps its hand, and its deck is reshuffled;
  - each other mercenary's hand and deck are pooled (the pair is known: every card a mercenary
    gains or plays is seen) and dealt back, the hand its size first, the deck behind. When the table
    waits for that mercenary's decision to defend, strike back, lash out or put a first Skill Melee
    card into an attack, the seat knows its hand holds such a card: the dealt hand then holds one too
    (ruling BOT21);
  - the Monster deck is reshuffled, its champion again among the last eleven cards (the set-up's
    "bottom ten"); the Ambush cards and the monsters are pooled over both halves (ruling BOT20);
  - the Area Feature deck is reshuffled.
  Everything public (the battle area, discard piles, the face-up reserve, the resource stacks, the
  cards in play) stays where it is (ruling BOT23). The GM sees every hand: only the decks are
  reshuffled; a Deck Master sees no hand: every mercenary's hand is redealt (ruling BOT24).
  Pools are sorted before ``rng.shuffled``, so the result depends only on what ``seat`` sees
  and on ``rng``.
* ``heuristic(state, seat)``: a cheap estimate of ``seat``'s chance to win, in [0, 1] (1 or 0 once the
  game is over). Competitive: each player's standing is their score as it would be counted now
  (scoring.py: MVPs, 1 per 5 EXP, the Minus Health penalty), plus a little for Health (the
  tie-break) and for EXP towards the next 5; the chances are a softmax of the standings.
  Co-operative (and the Deck Master's seat, which wins when the mercenaries lose): the mercenaries'
  chance grows with the share of the monsters killed and with their Health. Ruling BOT22.
"""

from __future__ import annotations

import math

from ..kernel import GM, viewer_set
from .board import START_HEALTH, code, coop, thaw_state
from .scoring import merc_score

# A lead of SCALE points of score is worth odds of e : 1 (about 73 %).
SCALE = 3.0
HEALTH_WORTH = 0.1  # per point of Health above 0 (the tie-break, and staying out of Minus Health)
EXP_WORTH = 0.1  # per EXP not yet worth a point (5 EXP make a point)
CHAMPION_TAIL = 11  # the champion is shuffled into the last ten cards: one of the last eleven


def _sees_hand(viewers: frozenset, merc) -> bool:
    return GM in viewers or merc["owner"] in viewers


def redeal(state: dict, seats, rng) -> dict:
    """A new state that ``seats`` cannot tell from ``state``; the input is left untouched."""
    new = thaw_state(state)
    viewers = viewer_set(seats)
    for index, merc in enumerate(new["mercs"]):
        if _sees_hand(viewers, merc):
            merc["deck"] = rng.shuffled(sorted(merc["deck"]))
            continue
        pool = rng.shuffled(sorted(merc["hand"] + merc["deck"]))
        size = len(merc["hand"])
        merc["hand"], merc["deck"] = pool[:size], pool[size:]
        needed = _known_to_hold(state, index)
        if needed and size and not any(needed(c) for c in merc["hand"]):
            # Swap a card it must hold into a random place of the hand (the first such card of the deck).
            at = next((i for i, c in enumerate(merc["deck"]) if needed(c)), None)
            if at is not None:
                slot = rng.randint(0, size - 1)
                merc["hand"][slot], merc["deck"][at] = merc["deck"][at], merc["hand"][slot]
    new["monster_deck"] = _monster_deck(state, rng)
    new["af_deck"] = rng.shuffled(sorted(state["af_deck"]))
    return new


def _known_to_hold(state, index):
    """A test a card of mercenary ``index``'s hand is known to pass (the table waits for a decision only such
    a card makes possible), or None."""
    p = state["pending"]
    if not p or p.get("merc") != index:
        return None
    cards = state["cards"]

    def skill(*kinds):
        return lambda c: cards[code(c)]["kind"] == "skill" and cards[code(c)]["stats"]["skill"] in kinds

    if p["type"] == "defend":  # offered only to a hand with a card that may defend (combat.defence_cards)
        lash = bool(state["combat"] and state["combat"]["lash"])
        return skill("defence", "melee") if lash else skill("defence")
    if p["type"] in ("retaliate", "lash_out") or (p["type"] == "attack" and p["kind"] == "melee" and not p["cards"]):
        return skill("melee")
    return None


def _monster_deck(state, rng) -> list[str]:
    cards = state["cards"]
    champions = sorted(c for c in state["monster_deck"] if cards[code(c)]["stats"].get("champion"))
    others = [c for c in state["monster_deck"] if not cards[code(c)]["stats"].get("champion")]
    deck = rng.shuffled(sorted(others))
    for champion in champions:
        back = rng.randint(0, min(CHAMPION_TAIL - 1, len(deck)))
        deck.insert(len(deck) - back, champion)
    return deck


# --- heuristic ----------------------------------------------------------------------------------


def heuristic(state: dict, seat) -> float:
    """``seat``'s chance to win, estimated cheaply: 1 or 0 once the game is over."""
    result = state["result"]
    if result is not None:
        return 1.0 if seat in result["winners"] else 0.0
    heroes = {merc["owner"] for merc in state["mercs"]}
    if state["dm"] is not None or coop(state):
        chance = _heroes_chance(state)
        return chance if seat in heroes else 1.0 - chance
    if seat not in heroes:
        return 0.0
    standing = {}
    for merc in state["mercs"]:
        standing[merc["owner"]] = standing.get(merc["owner"], 0.0) + _merc_standing(state, merc)
    top = max(standing.values())
    weights = {s: math.exp((value - top) / SCALE) for s, value in standing.items()}
    return weights[seat] / sum(weights.values())


def _merc_standing(state, merc) -> float:
    row = merc_score(state, merc)
    return row["total"] + HEALTH_WORTH * max(0, merc["health"]) + EXP_WORTH * (merc["exp"] % 5)


def _heroes_chance(state) -> float:
    """The mercenaries' chance in a co-operative game: the share of the monsters killed, and their Health
    (they lose when every one of them is at Minus Health at the end of a turn)."""
    cards = state["cards"]
    left = len(state["board"]) + sum(1 for c in state["monster_deck"] if cards[code(c)]["kind"] == "monster")
    left += len(state["spawn"]["queue"]) if state.get("spawn") else 0
    killed = sum(1 for merc in state["mercs"] for pile in ("deck", "hand", "discard")
                 for c in merc[pile] if cards[code(c)]["kind"] == "monster")
    killed += sum(1 for c in state["monster_discard"] if cards[code(c)]["kind"] == "monster")
    progress = killed / (killed + left) if killed + left else 1.0
    healths = [min(1.0, max(0.0, merc["health"] / START_HEALTH)) for merc in state["mercs"]]
    standing = max(healths) * 0.5 + sum(healths) / len(healths) * 0.5
    return min(1.0, max(0.0, 0.15 + 0.45 * progress + 0.4 * standing * (0.5 + 0.5 * progress)))


__all__ = ["redeal", "heuristic"]
