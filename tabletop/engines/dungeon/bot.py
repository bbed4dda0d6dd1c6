"""What a computer player of the dungeon needs from the engine: ``redeal``, ``heuristic`` (issue 16), ``playout``
and ``SEARCH`` (issue 27).

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
  game is over). Competitive: each mercenary's standing is its score as it would be counted now
  (scoring.py: MVPs, 1 per 5 EXP, the Minus Health penalty), plus a little for Health up to 20
  (staying out of Minus Health; above 20, Health only breaks ties, and potions pile it into the
  hundreds) and for EXP towards the next 5; the chances are a softmax of the standings, a player's
  the sum of their mercenaries' ("singles": the best mercenary wins) or of their pair's summed
  standing ("pairs"). Co-operative (and the Deck Master's seat, which wins when the mercenaries
  lose): the mercenaries' chance grows with the share of the monsters killed and with their Health.
  Rulings BOT22 and BOT36.
* ``playout(state, actions, rng)``: the search's playout policy and expansion order, rules that cost a
  list pass: attack, put every card in, strike, defend, strike back; move next to a monster; aim a
  monster at another player's mercenary; an action open at any time one step in ten.
* ``SEARCH``: iterations per strength (``quick`` merged into ``normal``, BOT39) and short playouts
  ended by the heuristic (ruling BOT37): a two-seat game is about 1,800 actions, 500 to 900 of them
  a seat's searched decisions.
"""

from __future__ import annotations

import math

from ..kernel import GM, viewer_set
from .anytime import FREE
from .board import START_HEALTH, adjacent, code, coop, thaw_state
from .scoring import merc_score

# A lead of SCALE points of score is worth odds of e : 1 (about 73 %).
SCALE = 3.0
HEALTH_WORTH = 0.1  # per point of Health from 0 to 20 (staying out of Minus Health)
TIE_WORTH = 0.001  # per point of Health above 20: the rulebook prints no maximum, but it only breaks ties
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
    if state["variant"] == "pairs":  # a player's two mercenaries score together
        standing: dict = {}
        for merc in state["mercs"]:
            standing[merc["owner"]] = standing.get(merc["owner"], 0.0) + _merc_standing(state, merc)
        rivals = list(standing.items())
    else:  # the best mercenary wins: each is a rival, and a player's chance is the sum of their mercenaries'
        rivals = [(merc["owner"], _merc_standing(state, merc)) for merc in state["mercs"]]
    top = max(value for _, value in rivals)
    weights = [(owner, math.exp((value - top) / SCALE)) for owner, value in rivals]
    return sum(weight for owner, weight in weights if owner == seat) / sum(weight for _, weight in weights)


def _merc_standing(state, merc) -> float:
    row = merc_score(state, merc)
    health = merc["health"]
    return (row["total"] + HEALTH_WORTH * min(max(0, health), START_HEALTH) + TIE_WORTH * max(0, health - START_HEALTH)
            + EXP_WORTH * (merc["exp"] % 5))


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


# --- the search: its playout policy and settings ---------------------------------------------------

# What a playout prefers, first found first: an attack when one can be made, every card into it, then
# the strike; a defence, a retaliation, a lash-out rather than letting it pass; being done buying. A
# random playout wanders instead: of the ten to twenty actions legal at a time most are acquisitions
# and ability cards open at any time, and a turn rarely ends.
PREFERRED = ("attack", "add", "strike", "defend", "retaliate", "lash_out", "done")
FREE_PERCENT = 10  # how often a playout takes any legal action, one open at any time included
MOVE_PERCENT = 50  # how often a mercenary that may still move does, rather than end its turn


def playout(state: dict, actions: list, rng) -> dict:
    """One of ``actions`` for a playout step or the next expansion (issue 27): cheap rules, no lookahead."""
    if len(actions) == 1:
        return actions[0]
    steps = [a for a in actions if a["type"] not in FREE]
    if not steps or rng.randint(0, 99) < FREE_PERCENT:
        return rng.choice(actions)
    by_kind: dict[str, list] = {}
    for a in steps:
        by_kind.setdefault(a["type"], []).append(a)
    for kind in PREFERRED:
        if kind in by_kind:
            return rng.choice(by_kind[kind])
    if "to" in by_kind:  # where a melee attack can be made next, when there is such a square
        near = [a for a in by_kind["to"] if any(adjacent(a["square"], m["pos"]) for m in state["board"])]
        return rng.choice(near or by_kind["to"])
    if "target" in by_kind:  # the First Player aims a monster at another player's mercenary
        mercs = state["mercs"]
        others = [a for a in by_kind["target"] if mercs[a["merc"]]["owner"] != a["seat"]]
        return rng.choice(others or steps)
    if "move" in by_kind and "end_turn" in by_kind:
        return by_kind["move"][0] if rng.randint(0, 99) < MOVE_PERCENT else by_kind["end_turn"][0]
    return rng.choice(steps)


# The search's settings (tabletop/bots/common.py ``search_settings``), tuned on bench/bots.py (ruling BOT37):
# four policy steps then the heuristic; depth 0 (the heuristic right after the expansion) lost to greedy.
# ``quick`` is merged into ``normal`` (ruling BOT39): 40 iterations won 6 of 10 against 120, and 120 answer
# well inside quick's seconds cap.
SEARCH = {"iterations": {"quick": 120, "normal": 120, "strong": 400}, "depth": 4, "exploration": 0.7}

__all__ = ["redeal", "heuristic", "playout", "SEARCH"]
