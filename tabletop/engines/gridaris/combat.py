"""Combat in Gridaris: facing edges, Aces, modifiers and the scenarios that bend them.

When a Mercenary is played, it fights every orthogonally adjacent Mercenary controlled
by another Empire, its facing edge against their facing edge:

* higher wins and captures (the battlefield changes owner); a tie or a loss does
  nothing. The Mercenary just played is never captured that turn.
* An Ace beats every non-Ace whatever the modifiers. Ace against Ace is decided by
  the modifiers alone: the higher modifier wins (+1 beats none, none beats -1),
  equal modifiers tie.
* Inverse: the smaller number wins; Aces still win, and Ace against Ace is still
  decided by the higher modifier (ruling).
* Ace in the Hole: an Ace is the number 0 (modifiers apply). With Inverse too, Aces
  are automatic winners again, exactly as under Inverse alone (ruling).
* Class Project / Class War: when a Mercenary is played its four values get +N / -N,
  N = the number of uncovered Mercenaries of its class on other battlefields, at most
  5 (ruling). The modifier token stays on the battlefield and counts when that card
  defends. Both drawn together cancel out (neither is active).
* Carbon Copy: ties capture too (two Aces with equal modifiers tie, so they capture).
* Cascade: each battlefield captured by the played card then fights its own enemy
  neighbours with its facing edge and captures those it beats (ties too under
  Carbon Copy). One step only: cascaded captures do not cascade again.
* Head Stand: cards of the named classes are upside down: top<->bottom and
  left<->right swap places, values unchanged.

Rulings are recorded in docs/rulings.md.
"""

from __future__ import annotations

from . import maps

MAX_MODIFIER = 5


def played_edges(state: dict, card_id: str) -> list[str]:
    """The card's edges (top, right, bottom, left) as it lies on the table."""
    card = state["cards"][card_id]
    top, right, bottom, left = card["edges"]
    if card["class"] in state["headstand_classes"]:
        return [bottom, left, top, right]
    return [top, right, bottom, left]


def is_flipped(state: dict, card_id: str) -> bool:
    return state["cards"][card_id]["class"] in state["headstand_classes"]


def class_modifier(state: dict, card_class: str, cell_key: str) -> int:
    """The modifier a card of ``card_class`` gets when played on ``cell_key`` (0 without Project/War)."""
    active = state["active"]
    if "class_project" in active:
        sign = 1
    elif "class_war" in active:
        sign = -1
    else:
        return 0
    same = sum(
        1 for other_key, cell in state["board"].items()
        if other_key != cell_key and state["cards"][cell["stack"][-1]]["class"] == card_class
    )
    return sign * min(same, MAX_MODIFIER)


def _sign(number: int) -> int:
    return (number > 0) - (number < 0)


def duel(attack: str, attack_mod: int, defence: str, defence_mod: int, active) -> int:
    """+1 when the attacking edge wins, 0 on a tie, -1 when it loses."""
    inverse = "inverse" in active
    aces_are_zero = "ace_in_the_hole" in active and not inverse
    if not aces_are_zero and "A" in (attack, defence):
        if attack == defence:
            return _sign(attack_mod - defence_mod)
        return 1 if attack == "A" else -1
    attack_value = (0 if attack == "A" else int(attack)) + attack_mod
    defence_value = (0 if defence == "A" else int(defence)) + defence_mod
    result = _sign(attack_value - defence_value)
    return -result if inverse else result


def captures(result: int, active) -> bool:
    return result > 0 or (result == 0 and "carbon_copy" in active)


def _fight(state: dict, attacker_key: str, defender_key: str, mine: int, theirs: int) -> bool:
    board = state["board"]
    attacker, defender = board[attacker_key], board[defender_key]
    attack = played_edges(state, attacker["stack"][-1])[mine]
    defence = played_edges(state, defender["stack"][-1])[theirs]
    result = duel(attack, attacker["modifier"], defence, defender["modifier"], state["active"])
    return captures(result, state["active"])


def resolve(state: dict, cell_key: str, seat: int) -> tuple[list[str], list[str]]:
    """Fight around a card just played on ``cell_key`` by ``seat``; changes ``state`` in place.

    Returns (battlefields captured directly, battlefields captured by Cascade).
    """
    board, map_key = state["board"], state["map"]
    direct = [
        other for other, mine, theirs in maps.neighbours(map_key, cell_key)
        if other in board and board[other]["owner"] != seat and _fight(state, cell_key, other, mine, theirs)
    ]
    for other in direct:
        board[other]["owner"] = seat
    cascaded: list[str] = []
    if "cascade" in state["active"]:
        for source in direct:
            for other, mine, theirs in maps.neighbours(map_key, source):
                if (other in board and board[other]["owner"] != seat and other not in cascaded
                        and _fight(state, source, other, mine, theirs)):
                    cascaded.append(other)
        for other in cascaded:
            board[other]["owner"] = seat
    return direct, cascaded
