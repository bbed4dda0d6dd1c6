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
* ``skip`` the turn (the player may shop again later; only while the other player still
  shops, ruling M25) or announce ``done`` (no more turns this phase, ruling). The shop
  closes when both are done: the shown mercenaries go face down to the bottom of the camp
  in slot order, the artifact to the bottom of the merchant.

Every shop ends (ruling M28, issue 36): the rulebook lets a skip answer a skip and a card given
away in a swap be swapped back (the withdrawn M26 forbade both), so the shop counts its positions
(the hands, the piles, the done flags and the player to shop: ``position_parts``) with the rulebooks'
own rule for a loop, Mercenarium's three repetitions (tabletop/engines/repetition.py): the same
position coming round a third time closes the shop as if both players were done. The count is
``state["seen"]``, emptied when the shop closes.

A player with no mercenary (hand and infirmary) must recruit one: only ``hire`` and
``sell_hire`` are offered; if none is affordable when their turn comes, the game ends.
Cards in the infirmary are out of the hand: they are neither spent nor traded (ruling).

Picked cards (rulings M1, M22, M23): a phone composes a move by tapping cards of the
hand and then a card of the shop, and posts ``hire`` or ``buy_artifact`` with the
picked cards as ``pay`` and the loss the player has agreed to as ``lost`` (0 at
first). ``read_picked`` reads what the picked cards mean: resources alone pay, one
artifact with resources is a sale (``sell_hire``), one mercenary alone is a swap, one
artifact alone trades for the shown artifact. A payment that is not legal is refused
with a sentence saying exactly why (``payment_refusal``); a legal payment whose excess
is not the ``lost`` the player agreed to is refused with ``ConfirmLoss``, which names
the loss (and the cheapest payment) and offers the same move with that ``lost`` to
confirm. An action without ``lost`` (a listed button, whose label states the loss, or
a logged action) is applied as listed.
"""

from __future__ import annotations

from .. import repetition
from ..kernel import IllegalAction, PickRefused
from ..words import Words, either, gettext_noop, phrase
from . import cards, combat
from .common import event, finish, has_mercenary, other, player

SHOP_SIZE = 3
PAYING = ("hire", "sell_hire", "buy_artifact")

# The log's lines and the confirm's label (issue 41): English templates the page says in the reader's language.
SHOP_OPENS = phrase("Round %(round)d: the shop opens with %(shown)s. %(name)s shops first.")
SHOP_OPENS_EMPTY = phrase("Round %(round)d: the shop opens with nothing. %(name)s shops first.")
CANNOT_RECRUIT = phrase("%(name)s has no mercenary left and cannot afford to recruit one.")
THIRD_TIME = phrase("The same position came round a third time (the same hands, cards shown and player to shop): "
                    "the shop closes as if both players were done.")
# A payment's line, without and with the value it loses over the price.
HIRES = (phrase("%(name)s hires the %(card)s, paying %(paid)s."),
         phrase("%(name)s hires the %(card)s, paying %(paid)s (%(lost)d lost)."))
SELLS_AND_HIRES = (
    phrase("%(name)s sells an artifact to the merchant for 10 credit and hires the %(card)s, paying %(paid)s."),
    phrase("%(name)s sells an artifact to the merchant for 10 credit and hires the %(card)s, paying %(paid)s "
           "(%(lost)d lost)."))
BUYS = (phrase("%(name)s buys the %(card)s, paying %(paid)s."),
        phrase("%(name)s buys the %(card)s, paying %(paid)s (%(lost)d lost)."))
SWAPS = phrase("%(name)s swaps the %(give)s for the %(card)s.")
SKIPS = phrase("%(name)s skips a turn of shopping.")
DONE = phrase("%(name)s is done shopping.")
SHOP_CLOSES = phrase("The shop closes.")
PAY_AND_LOSE = phrase("Pay %(paid)s and lose %(lost)d")


class ConfirmLoss(PickRefused):
    """A legal payment whose excess the player has not agreed to lose yet."""


def start(state: dict) -> None:
    state["phase"] = "recruit"
    state["done"] = [False, False]
    state["turn"] = state["first"]
    row = [state["camp"].pop(0) if state["camp"] else None for _ in range(SHOP_SIZE)]
    artifact = state["merchant"].pop(0) if state["merchant"] else None
    state["shop"] = {"mercenaries": row, "artifact": artifact}
    shown = [cards.name(card) for card in row if card] + ([cards.name(artifact)] if artifact else [])
    line = SHOP_OPENS if shown else SHOP_OPENS_EMPTY
    event(state, line % {"round": state["round"], "shown": ", ".join(shown), "name": player(state, state["first"])})
    state["seen"] = {}
    repetition.remember(state["seen"], position_parts(state))
    check_forced(state)


def check_forced(state: dict) -> None:
    """M4 at the start of a shopping turn: the player with no mercenary who can pay for none ends the game
    (also what ``game.settle`` decides again on a what-if's new deal)."""
    seat = state["turn"]
    if not has_mercenary(state, seat) and not _hires(state, seat):
        finish(state, CANNOT_RECRUIT % {"name": player(state, seat)})


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
    return [action for action in actions if stall_refusal(state, action) is None]  # M25


def stall_refusal(state: dict, action: dict) -> IllegalAction | None:
    """Why ``action`` would only put the shop off (ruling M25), or None: a skip with the other player done
    would come straight back to the skipper. (Every other loop ends by repetition, M28.)"""
    rival = other(action["seat"])
    if action["type"] == "skip" and state["done"][rival]:
        return IllegalAction(gettext_noop("%(name)s is done shopping, so a skipped turn would come straight back "
                                          "to you: shop, or say you are done."), name=player(state, rival))
    return None


def position_parts(state: dict) -> list:
    """What makes two moments of a shop the same position (M28): hands, piles, done flags, the player to shop."""
    return [state["hands"], state["infirmary"], state["shop"], state["camp"], state["merchant"], state["bank"],
            state["spent"], state["done"], state["turn"]]


def _third_time(state: dict) -> bool:
    """Count the shop's position; the third time it comes round, close the shop as if both were done (M28)."""
    if repetition.remember(state.setdefault("seen", {}), position_parts(state)) < repetition.THIRD:
        return False
    event(state, THIRD_TIME)
    state["done"] = [True, True]
    _close(state)
    return True


def _pay(state: dict, seat: int, pay: list[str], price: int, name: str, card: str, lines: tuple[str, str]) -> str:
    """Spend ``pay`` for ``card`` at ``price``; the line saying so (``lines``: without and with a loss)."""
    hand = state["hands"][seat]
    for spent in pay:
        hand.remove(spent)
    state["spent"].extend(pay)
    lost = sum(cards.value(spent) for spent in pay) - price
    values = {"name": name, "card": cards.name(card), "paid": " ".join(cards.short(spent) for spent in pay)}
    return lines[1] % {**values, "lost": lost} if lost > 0 else lines[0] % values


def _take_mercenary(state: dict, card: str, replacement=None) -> None:
    row = state["shop"]["mercenaries"]
    row[row.index(card)] = replacement


def execute(state: dict, action: dict) -> None:
    seat, kind, hand = action["seat"], action["type"], state["hands"][action["seat"]]
    name = player(state, seat)
    if kind == "hire":
        card = action["card"]
        line = _pay(state, seat, action["pay"], cards.value(card), name, card, HIRES)
        _take_mercenary(state, card)
        hand.append(card)
        event(state, line)
    elif kind == "sell_hire":
        card, artifact = action["card"], action["artifact"]
        hand.remove(artifact)
        state["merchant"].append(artifact)
        line = _pay(state, seat, action["pay"], cards.value(card) - cards.ARTIFACT_VALUE, name, card, SELLS_AND_HIRES)
        _take_mercenary(state, card)
        hand.append(card)
        event(state, line)
    elif kind in ("swap", "swap_artifact"):
        give, card = action["give"], action["card"]
        hand.remove(give)
        if kind == "swap":
            _take_mercenary(state, card, give)
        else:
            state["shop"]["artifact"] = give
        hand.append(card)
        event(state, SWAPS % {"name": name, "give": cards.name(give), "card": cards.name(card)})
    elif kind == "buy_artifact":
        card = action["card"]
        line = _pay(state, seat, action["pay"], cards.ARTIFACT_VALUE, name, card, BUYS)
        state["shop"]["artifact"] = None
        hand.append(card)
        event(state, line)
    elif kind == "skip":
        event(state, SKIPS % {"name": name})
    elif kind == "done":
        state["done"][seat] = True
        event(state, DONE % {"name": name})
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
    if not _third_time(state):
        check_forced(state)


def _close(state: dict) -> None:
    shop = state["shop"]
    state["camp"].extend(card for card in shop["mercenaries"] if card is not None)
    if shop["artifact"] is not None:
        state["merchant"].append(shop["artifact"])
    state["shop"] = {"mercenaries": [None] * SHOP_SIZE, "artifact": None}
    state["turn"] = None
    state["seen"] = {}
    event(state, SHOP_CLOSES)
    combat.start_squads(state)


# --- picked cards ---------------------------------------------------------------------------


def _names(picked: list[str]) -> str:
    return " ".join(cards.short(card) for card in picked)


def _price(kind: str, card: str) -> int:
    if kind == "buy_artifact":
        return cards.ARTIFACT_VALUE
    if kind == "sell_hire":
        return cards.value(card) - cards.ARTIFACT_VALUE
    return cards.value(card)


def loss(action: dict) -> int:
    """What a payment throws away: its worth (with a sale's credit) over the price."""
    return sum(cards.value(card) for card in action["pay"]) - _price(action["type"], action["card"])


def read_picked(state: dict, action: dict) -> dict:
    """The move a set of picked cards makes with the tapped shop card (see the module's docstring)."""
    kind, pay = action.get("type"), action.get("pay")
    if kind not in ("hire", "buy_artifact") or not isinstance(pay, list) or not all(isinstance(c, str) for c in pay):
        return action
    known = [card for card in pay if card in cards.ALL_CARDS]
    if len(known) != len(pay):
        return action
    artifacts = [card for card in pay if cards.is_artifact(card)]
    mercenaries = [card for card in pay if cards.is_mercenary(card)]
    seat = action["seat"]
    if kind == "hire" and mercenaries == pay and len(pay) == 1:
        return {"type": "swap", "seat": seat, "give": pay[0], "card": action.get("card")}
    if kind == "buy_artifact" and artifacts == pay and len(pay) == 1:
        return {"type": "swap_artifact", "seat": seat, "give": pay[0], "card": action.get("card")}
    if kind == "hire" and len(artifacts) == 1 and not mercenaries:
        rest = [card for card in pay if card not in artifacts]
        return {"type": "sell_hire", "seat": seat, "artifact": artifacts[0], "card": action.get("card"),
                "pay": cards.sorted_cards(rest)}
    return action


def payment_refusal(state: dict, action: dict) -> IllegalAction | None:
    """Why a picked payment (already read by ``read_picked``) cannot be made, as the refusal to raise; None if
    it can."""
    kind, seat, card = action["type"], action["seat"], action.get("card")
    shop = state["shop"]
    if kind == "buy_artifact":
        if card is None or card != shop["artifact"]:
            return IllegalAction(gettext_noop("That artifact is not in the shop: tap the one the merchant shows."))
    elif card not in [c for c in shop["mercenaries"] if c]:
        return IllegalAction(
            gettext_noop("That mercenary is not in the shop: tap one of the mercenaries the camp shows."))
    hand = state["hands"][seat]
    pay = list(action.get("pay", []))
    if len(set(pay)) != len(pay):
        return IllegalAction(gettext_noop("A card was picked twice: each card pays once."))
    offered = pay + ([action["artifact"]] if kind == "sell_hire" else [])
    for picked in offered:
        if picked not in hand:
            if picked not in cards.ALL_CARDS:
                return IllegalAction(gettext_noop("A picked card is not yours: pay with cards of your hand."))
            if picked in state["infirmary"][seat]:
                return IllegalAction(gettext_noop("%(card)s is your infirmary: pay with cards of your hand."),
                                     card=cards.short(picked))
            return IllegalAction(gettext_noop("%(card)s is not in your hand: pay with cards of your hand."),
                                 card=cards.short(picked))
    race = cards.suit(card)
    what = cards.name(card)
    price = _price(kind, card)
    if not pay and kind != "sell_hire":
        return IllegalAction(gettext_noop("Tap the resources you pay with first: the %(card)s costs %(price)s in "
                                          "%(race)s (%(symbol)s) resources."),
                             card=what, price=price, race=cards.RACES[race], symbol=cards.SUIT_SYMBOLS[race])
    strays = [c for c in pay if not cards.is_resource(c) or cards.suit(c) != race]
    if strays:
        if kind == "hire":
            message = gettext_noop("%(cards)s cannot pay for the %(card)s: it is paid with %(race)s (%(symbol)s) "
                                   "resources, with one artifact sold for 10 credit.")
        else:
            message = gettext_noop("%(cards)s cannot pay for the %(card)s: it is paid with %(race)s (%(symbol)s) "
                                   "resources.")
        return IllegalAction(message, cards=_names(strays), card=what, race=cards.RACES[race],
                             symbol=cards.SUIT_SYMBOLS[race])
    credit = cards.ARTIFACT_VALUE if kind == "sell_hire" else 0
    worth = sum(cards.value(c) for c in pay) + credit
    full_price = price + credit
    if worth < full_price:
        if not credit:
            message = gettext_noop("%(cards)s makes %(worth)s; the %(card)s costs %(price)s.")
        elif pay:
            message = gettext_noop("%(cards)s + the sale's 10 credit makes %(worth)s; the %(card)s costs %(price)s.")
        else:
            message = gettext_noop("the sale's 10 credit makes %(worth)s; the %(card)s costs %(price)s.")
        return IllegalAction(message, cards=_names(pay), worth=worth, card=what, price=full_price)
    spare = [c for c in pay if worth - cards.value(c) >= full_price]
    if spare:
        return IllegalAction(gettext_noop("%(cards)s could be left out: the rest already pays %(price)s for the "
                                          "%(card)s, and a payment holds no card it does not need."),
                             cards=either([cards.short(c) for c in spare]), price=full_price, card=what)
    return None


def confirm_loss(state: dict, match: dict, agreed: int) -> None:
    """Refuse a legal payment whose loss is not the one agreed, offering it with its loss to confirm."""
    lost = loss(match)
    if lost == agreed:
        return
    picked = list(match["pay"]) + ([match["artifact"]] if match["type"] == "sell_hire" else [])
    same = [a for a in legal(state) if a["type"] == match["type"] and a["card"] == match["card"]
            and a.get("artifact") == match.get("artifact")]
    cheapest = min(same, key=loss)
    worth = sum(cards.value(c) for c in match["pay"]) + (cards.ARTIFACT_VALUE if match["type"] == "sell_hire" else 0)
    if match["type"] == "sell_hire":
        message = gettext_noop("Paying %(cards)s with the sale's 10 credit makes %(worth)s for the %(card)s, which "
                               "costs %(price)s: %(lost)s over the price is lost.")
    else:
        message = gettext_noop("Paying %(cards)s makes %(worth)s for the %(card)s, which costs %(price)s: "
                               "%(lost)s over the price is lost.")
    said = Words(message, cards=_names(match["pay"]), worth=worth, card=cards.name(match["card"]),
                 price=cards.value(match["card"]), lost=lost)
    confirm = {**match, "lost": lost, "label": PAY_AND_LOSE % {"paid": _names(match["pay"]), "lost": lost}}
    if loss(cheapest) < lost:
        if loss(cheapest):
            hint = Words(gettext_noop("%(cards)s would lose only %(lost)s."), cards=_names(cheapest["pay"]),
                         lost=loss(cheapest))
        else:
            hint = Words(gettext_noop("%(cards)s would pay it exactly."), cards=_names(cheapest["pay"]))
        # Translators: a refused payment's sentence, then a cheaper payment's
        raise ConfirmLoss(gettext_noop("%(sentence)s %(hint)s"), picked, confirm, sentence=said, hint=hint)
    raise ConfirmLoss(said.message, picked, confirm, **said.params)
