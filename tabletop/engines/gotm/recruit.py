"""Recruitment (shopping) in GOT'M.

The dealer reveals the top three mercenaries of the camp in a row (slot 0 is closest
to the pile) and the top artifact of the merchant. The non-dealer shops first in round
one, then the loser of the last round. Players take turns; on a turn a player may:

* ``hire`` a shown mercenary with resources of its race worth at least its value
  (the excess is lost); the spent cards are shown and put face up by the bank;
* ``swap`` a mercenary from the hand for a shown one of lower or equal value (the
  given mercenary takes the bought one's place in the row, face up);
* ``buy_artifact`` with resources of the artifact's race, as for hiring;
* ``swap_artifact``: trade an artifact from the hand for the shown one;
* ``sell_hire``: sell an artifact from the hand to the merchant (face down, bottom of
  the pile) for 10 race-agnostic credit, spent at once with resources of the hired
  mercenary's race (one artifact per hire, ruling);
* ``skip`` the turn (the player may shop again later) or announce ``done`` (no more
  turns this phase, ruling). The shop closes when both are done: the shown mercenaries
  go face down to the bottom of the camp in slot order, the artifact to the bottom
  of the merchant.

A player with no mercenary (hand and infirmary) must recruit one: only ``hire`` and
``sell_hire`` are offered; if none is affordable when their turn comes, the game ends.
Cards in the infirmary are out of the hand: they are neither spent nor traded (ruling).
"""

from __future__ import annotations

from . import cards, combat
from .common import event, finish, has_mercenary, other, player

SHOP_SIZE = 3


def start(state: dict) -> None:
    state["phase"] = "recruit"
    state["done"] = [False, False]
    state["turn"] = state["first"]
    row = [state["camp"].pop(0) if state["camp"] else None for _ in range(SHOP_SIZE)]
    artifact = state["merchant"].pop(0) if state["merchant"] else None
    state["shop"] = {"mercenaries": row, "artifact": artifact}
    shown = [cards.name(card) for card in row if card] + ([cards.name(artifact)] if artifact else [])
    event(state, f"Round {state['round']}: the shop opens with {', '.join(shown) or 'nothing'}. "
                 f"{player(state, state['first'])} shops first.")
    _check_forced(state)


def _check_forced(state: dict) -> None:
    seat = state["turn"]
    if not has_mercenary(state, seat) and not _hires(state, seat):
        finish(state, f"{player(state, seat)} has no mercenary left and cannot afford to recruit one.")


def _hires(state: dict, seat: int) -> list[dict]:
    hand, actions = state["hands"][seat], []
    for card in state["shop"]["mercenaries"]:
        if card is None:
            continue
        for pay in cards.payments(hand, cards.suit(card), cards.value(card)):
            actions.append({"type": "hire", "seat": seat, "card": card, "pay": pay})
        credit_price = cards.value(card) - cards.ARTIFACT_VALUE
        for artifact in cards.sorted_cards(c for c in hand if cards.is_artifact(c)):
            for pay in cards.payments(hand, cards.suit(card), credit_price):
                actions.append({"type": "sell_hire", "seat": seat, "artifact": artifact, "card": card, "pay": pay})
    return actions


def legal(state: dict) -> list[dict]:
    seat = state["turn"]
    actions = _hires(state, seat)
    if not has_mercenary(state, seat):
        return actions
    hand, shop = state["hands"][seat], state["shop"]
    for give in cards.sorted_cards(c for c in hand if cards.is_mercenary(c)):
        for card in shop["mercenaries"]:
            if card is not None and cards.value(card) <= cards.value(give):
                actions.append({"type": "swap", "seat": seat, "give": give, "card": card})
    artifact = shop["artifact"]
    if artifact is not None:
        for pay in cards.payments(hand, cards.suit(artifact), cards.ARTIFACT_VALUE):
            actions.append({"type": "buy_artifact", "seat": seat, "card": artifact, "pay": pay})
        for give in cards.sorted_cards(c for c in hand if cards.is_artifact(c)):
            actions.append({"type": "swap_artifact", "seat": seat, "give": give, "card": artifact})
    actions.append({"type": "skip", "seat": seat})
    actions.append({"type": "done", "seat": seat})
    return actions


def _pay(state: dict, seat: int, pay: list[str], price: int) -> str:
    hand = state["hands"][seat]
    for card in pay:
        hand.remove(card)
    state["spent"].extend(pay)
    lost = sum(cards.value(card) for card in pay) - price
    paid = " ".join(cards.short(card) for card in pay)
    return f"paying {paid}" + (f" ({lost} lost)" if lost > 0 else "")


def _take_mercenary(state: dict, card: str, replacement=None) -> None:
    row = state["shop"]["mercenaries"]
    row[row.index(card)] = replacement


def execute(state: dict, action: dict) -> None:
    seat, kind, hand = action["seat"], action["type"], state["hands"][action["seat"]]
    name = player(state, seat)
    if kind == "hire":
        card = action["card"]
        paid = _pay(state, seat, action["pay"], cards.value(card))
        _take_mercenary(state, card)
        hand.append(card)
        event(state, f"{name} hires the {cards.name(card)}, {paid}.")
    elif kind == "sell_hire":
        card, artifact = action["card"], action["artifact"]
        hand.remove(artifact)
        state["merchant"].append(artifact)
        paid = _pay(state, seat, action["pay"], cards.value(card) - cards.ARTIFACT_VALUE)
        _take_mercenary(state, card)
        hand.append(card)
        event(state, f"{name} sells an artifact to the merchant for 10 credit and hires the "
                     f"{cards.name(card)}, {paid}.")
    elif kind == "swap":
        give, card = action["give"], action["card"]
        hand.remove(give)
        _take_mercenary(state, card, give)
        hand.append(card)
        event(state, f"{name} swaps the {cards.name(give)} for the {cards.name(card)}.")
    elif kind == "buy_artifact":
        card = action["card"]
        paid = _pay(state, seat, action["pay"], cards.ARTIFACT_VALUE)
        state["shop"]["artifact"] = None
        hand.append(card)
        event(state, f"{name} buys the {cards.name(card)}, {paid}.")
    elif kind == "swap_artifact":
        give, card = action["give"], action["card"]
        hand.remove(give)
        state["shop"]["artifact"] = give
        hand.append(card)
        event(state, f"{name} swaps the {cards.name(give)} for the {cards.name(card)}.")
    elif kind == "skip":
        event(state, f"{name} skips a turn of shopping.")
    elif kind == "done":
        state["done"][seat] = True
        event(state, f"{name} is done shopping.")
    state["hands"][seat] = cards.sorted_cards(hand)
    _next_turn(state, seat)


def _next_turn(state: dict, seat: int) -> None:
    if not state["done"][other(seat)]:
        state["turn"] = other(seat)
    elif not state["done"][seat]:
        state["turn"] = seat
    else:
        _close(state)
        return
    _check_forced(state)


def _close(state: dict) -> None:
    shop = state["shop"]
    state["camp"].extend(card for card in shop["mercenaries"] if card is not None)
    if shop["artifact"] is not None:
        state["merchant"].append(shop["artifact"])
    state["shop"] = {"mercenaries": [None] * SHOP_SIZE, "artifact": None}
    state["turn"] = None
    event(state, "The shop closes.")
    combat.start_squads(state)
