"""Mercenarium's hymns and learning: what a hymn does (its effect primitives, cards.py), the targets it
may take, the choice it may leave pending (Primary, Zodiac; ruling MC5), keeping and learning hymns, and
reading a learn picked on a phone.

Split from ``game.py`` by subject (issue 39): ``game.py`` turns actions into these steps.
"""

from __future__ import annotations

from itertools import combinations

from ..kernel import PickRefused
from ..words import gettext_noop
from . import lines
from .board import (
    DIRS,
    SIZE,
    _discard,
    _draw,
    _draw_hymn,
    _enforce_limits,
    _leave_board,
    cards_in_play,
    hand_cards,
    hand_hymns,
    house,
    is_hymn,
    key,
    name,
    neighbours,
    parse,
    unspent,
    value,
)
from .cards import MERCENARY_VALUES


def hymn_effect(state: dict, hymn_id: str) -> dict:
    effect = state["hymns"][hymn_id]["effect"]
    if state["singularity"] and effect.get("singularity"):
        return effect["singularity"]
    return effect


def hymn_by_number(state: dict, number: int) -> str | None:
    for hymn_id, hymn in state["hymns"].items():
        if hymn["number"] == number:
            return hymn_id
    return None


def effect_targets(state: dict, seat: int, effect: dict) -> list[dict]:
    """Every target of a hymn effect for ``seat``; [] means it cannot be sung now."""
    kind, board = effect["primitive"], state["board"]
    mine = cards_in_play(state, seat)
    enemy = [cell for cell, slot in board.items() if slot["owner"] != seat]
    if kind == "draw":
        return [{}]
    if kind == "roll_as":
        return [{}]
    if kind == "look_hymns":
        return [{}] if state["hymnal"] or state["hymn_discard"] else []
    if kind == "search":
        return [{}] if state["deck"] else []
    if kind == "return_to_hand":
        cells = mine if effect.get("whose") == "own" else enemy
        return [{"cell": c} for c in sorted(cells)
                if value(state, board[c]["card"]) <= min(14, effect.get("max_value", 14))
                or (effect.get("whose") == "own" and effect.get("max_value", 14) >= 15)]
    if kind == "take_control":
        return [{"cell": c} for c in sorted(enemy)
                if effect.get("min_value", 2) <= value(state, board[c]["card"]) <= effect.get("max_value", 14)
                and board[c]["card"] not in state["contracts"] and board[c]["card"] not in state["wards"]]
    if kind == "leap":
        distance, result = effect.get("distance", 2), []
        for cell in sorted(mine):
            r, c = parse(cell)
            for dr, dc in DIRS:
                tr, tc = r + dr * distance, c + dc * distance
                if 0 <= tr < SIZE and 0 <= tc < SIZE and key(tr, tc) not in board:
                    result.append({"cell": cell, "to": key(tr, tc)})
        return result
    if kind == "protect":
        return [{"cell": c} for c in sorted(mine)]
    if kind == "swap_places":
        return [{"cell": a, "to": b} for a, b in combinations(sorted(mine), 2)
                if board[a]["card"] != board[b]["card"]]
    if kind == "refresh_capture":
        return [{"capture": i} for i, cap in enumerate(state["captures"][seat]) if cap["spent"]]
    if kind == "summon_near_house":
        home = house(state, seat)
        cells = [home] + [n for _, n in neighbours(home)]
        return [{"card": card_id, "to": c} for card_id in hand_cards(state, seat) for c in cells if c not in board]
    if kind == "banish":
        return [{"cell": c} for c in sorted(enemy) if value(state, board[c]["card"]) <= effect.get("max_value", 10)
                and board[c]["card"] not in state["wards"]
                and any(board.get(n, {}).get("owner") == seat for _, n in neighbours(c))]
    if kind == "salvage":
        return [{"card": card_id} for card_id in sorted(set(state["discard"]))]
    return []


def _learn_actions(state: dict, seat: int) -> list[dict]:
    if state["singularity"] or not (state["hymnal"] or state["hymn_discard"]):
        return []
    hymns, cards = hand_hymns(state, seat), hand_cards(state, seat)
    spend = unspent(state, seat)
    result = []
    if not hymns:
        low = [c for c in cards if 2 <= value(state, c) <= 9]
        result += [{"type": "learn", "seat": seat, "offer": "two_low", "cards": [a, b]}
                   for a, b in combinations(low, 2)]
        result += [{"type": "learn", "seat": seat, "offer": "one_high", "cards": [c]}
                   for c in cards if value(state, c) >= 10]
        if spend:
            result.append({"type": "learn", "seat": seat, "offer": "capture", "capture": spend[0]})
    elif len(hymns) == 1:
        result += [{"type": "learn", "seat": seat, "offer": "hymn_card", "hymn": hymns[0], "cards": [c]} for c in cards]
        if spend:
            result.append({"type": "learn", "seat": seat, "offer": "hymn_capture", "hymn": hymns[0],
                           "capture": spend[0]})
    return result


class LearnRefused(PickRefused):
    """Picked offering cards refused with a sentence (the page keeps them picked)."""


def read_learn(state: dict, seat: int, picks: list[str]) -> dict:
    """The offering a set of picked cards makes (ruling MC4): the full ``learn`` action, or LearnRefused.

    Picks are ids of cards and hymns of the hand and of the seat's unspent captures (a captured card's id
    spends one capture). Holding no hymn: two cards of 2-9, one card of 10 or more, or one capture. Holding
    one hymn: that hymn (picked or not) with one card or one capture.
    """
    def refuse(message: str, **params):
        raise LearnRefused(message, picks, **params)

    if state["singularity"]:
        refuse(gettext_noop("No hymn is learnt in the Singularity."))
    if not (state["hymnal"] or state["hymn_discard"]):
        refuse(gettext_noop("The hymnal is empty (and no hymn is discarded to reshuffle): no hymn can be learnt."))
    hymns = hand_hymns(state, seat)
    if len(hymns) > 1:
        refuse(gettext_noop("You hold more than one hymn: sing one first, then learn."))
    if not picks:
        refuse(gettext_noop("Tap the cards (or a capture) you offer first, then Learn a hymn."))
    if len(set(picks)) != len(picks):
        refuse(gettext_noop("A card was picked twice: each card is offered once."))
    hand = state["hands"][seat]
    captured = {cap["card"]: index for index, cap in enumerate(state["captures"][seat])}
    cards, captures, picked_hymns = [], [], []
    for pick in picks:
        if pick in hand:
            (picked_hymns if is_hymn(state, pick) else cards).append(pick)
        elif pick in captured:
            if state["captures"][seat][captured[pick]]["spent"]:
                refuse(gettext_noop("That capture is already spent: only an unspent capture can be offered."))
            captures.append(pick)
        else:
            refuse(gettext_noop("A picked card is not in your hand or among your captures: an offering is made "
                                "from your hand or your captures, never from cards in play."))
    cards = [c for c in hand if c in cards]  # the hand's order, as the offerings are listed
    if len(captures) > 1:
        refuse(gettext_noop("An offering spends one capture: pick only one."))
    spend = unspent(state, seat)
    action = {"type": "learn", "seat": seat}
    if hymns:
        others = cards + captures
        if len(others) != 1:
            refuse(gettext_noop("You hold the %(hymn)s: it is offered with exactly one card of your hand or one "
                                "capture (%(picked)s picked besides it)."),
                   hymn=name(state, hymns[0]), picked=len(others))
        action.update({"offer": "hymn_capture", "hymn": hymns[0], "capture": spend[0]} if captures
                      else {"offer": "hymn_card", "hymn": hymns[0], "cards": cards})
        return action
    if captures:
        if cards:
            refuse(gettext_noop("A capture is an offering by itself: pick the capture or cards, not both."))
        action.update({"offer": "capture", "capture": spend[0]})
        return action
    high = [c for c in cards if value(state, c) >= 10]
    low = [c for c in cards if 2 <= value(state, c) <= 9]
    if len(cards) == 1 and high:
        action.update({"offer": "one_high", "cards": cards})
        return action
    if len(cards) == 1 and low:
        refuse(gettext_noop("The %(card)s is worth %(value)s: a card of 2 to 9 is offered with a second one, or "
                            "pick one card of 10 or more."), card=name(state, cards[0]), value=value(state, cards[0]))
    if len(cards) == 2 and not high and len(low) == 2:
        action.update({"offer": "two_low", "cards": cards})
        return action
    if high and len(cards) > 1:
        refuse(gettext_noop("The %(card)s is worth %(value)s: a card of 10 or more is an offering by itself, so "
                            "pick it alone."), card=name(state, high[0]), value=value(state, high[0]))
    if len(cards) > 2:
        refuse(gettext_noop("An offering is two cards of 2 to 9 or one card of 10 or more: %(picked)s cards are too "
                            "many."), picked=len(cards))
    refuse(gettext_noop("Those cards make no offering: two cards of 2 to 9, one card of 10 or more, or one capture."))


def _pending_actions(state: dict, pending: dict) -> list[dict]:
    seat = pending["seat"]
    if pending["kind"] == "target":
        effect = hymn_effect(state, hymn_by_number(state, pending["number"]))
        targets = effect_targets(state, seat, effect)
        return [{"type": "resolve", "seat": seat, **t} for t in targets] or [{"type": "resolve", "seat": seat,
                                                                               "fizzle": True}]
    if pending["kind"] == "search":
        return [{"type": "take", "seat": seat, "card": card_id} for card_id in sorted(state["deck"])]
    result = []
    for hymn_id in pending["options"]:
        if state["singularity"] or not hand_hymns(state, seat):
            result.append({"type": "keep", "seat": seat, "hymn": hymn_id, "use": False})
        for target in effect_targets(state, seat, hymn_effect(state, hymn_id)):
            result.append({"type": "keep", "seat": seat, "hymn": hymn_id, "use": True, **target})
    return result


def _sing(state: dict, seat: int, hymn_id: str, target: dict, rng) -> None:
    state["events"].append(lines.SINGS % {"player": state["players"][seat], "hymn": name(state, hymn_id)})
    effect = hymn_effect(state, hymn_id)
    if effect["primitive"] == "roll_as":
        if hymn_id not in state["face_up"]:
            state["face_up"].append(hymn_id)
    else:
        state["hands"][seat].remove(hymn_id)
        _discard(state, hymn_id)
    _effect(state, seat, effect, target, rng)


def _effect(state: dict, seat: int, effect: dict, target: dict, rng) -> None:
    kind, board, player = effect["primitive"], state["board"], state["players"][seat]
    if kind == "draw":
        _draw(state, seat, effect.get("count", 1), rng)
        for _ in range(effect.get("hymns", 0)):
            hymn_id = _draw_hymn(state, rng)
            if hymn_id:
                state["hands"][seat].append(hymn_id)
        _enforce_limits(state, seat, rng)
    elif kind == "roll_as":
        number = rng.randint(1, effect.get("die", 12))
        hymn_id = hymn_by_number(state, number)
        state["events"].append(lines.ZODIAC % {"number": number})
        if hymn_id is None:
            return
        inner = hymn_effect(state, hymn_id)
        if inner["primitive"] == "roll_as":
            return
        targets = effect_targets(state, seat, inner)
        if targets == [{}]:
            _effect(state, seat, inner, {}, rng)
        else:
            state["pending"] = {"seat": seat, "kind": "target", "number": number}
    elif kind == "look_hymns":
        options = []
        for _ in range(effect.get("count", 3)):
            hymn_id = _draw_hymn(state, rng)
            if hymn_id:
                options.append(hymn_id)
        state["pending"] = {"seat": seat, "kind": "primary", "options": options}
        if not _pending_actions(state, state["pending"]):  # ruling MC5: nothing can be held or used
            state["pending"] = None
            state["hymnal"] = rng.shuffled(state["hymnal"] + options)
            state["events"].append(lines.LOOKS_IN_VAIN % {"player": player, "count": len(options)})
    elif kind == "search":
        state["pending"] = {"seat": seat, "kind": "search"}
        state["events"].append(lines.SEARCHES % {"player": player})
    elif kind == "return_to_hand":
        slot = board.pop(target["cell"])
        _leave_board(state, slot["card"])
        state["hands"][slot["owner"]].append(slot["card"])
        _enforce_limits(state, slot["owner"], rng)
        owner = state["players"][slot["owner"]]
        state["events"].append(lines.RETURNS % {"card": name(state, slot["card"]), "owner": owner})
    elif kind == "take_control":
        slot = board[target["cell"]]
        slot["owner"] = seat
        state["contracts"].pop(slot["card"], None)
        if value(state, slot["card"]) in MERCENARY_VALUES:
            state["contracts"][slot["card"]] = seat
        state["events"].append(lines.TAKES_CONTROL % {"player": player, "card": name(state, slot["card"])})
    elif kind in ("leap",):
        board[target["to"]] = board.pop(target["cell"])
    elif kind == "protect":
        state["wards"][board[target["cell"]]["card"]] = seat
    elif kind == "swap_places":
        board[target["cell"]], board[target["to"]] = board[target["to"]], board[target["cell"]]
    elif kind == "refresh_capture":
        state["captures"][seat][target["capture"]]["spent"] = False
    elif kind == "summon_near_house":
        state["hands"][seat].remove(target["card"])
        board[target["to"]] = {"card": target["card"], "owner": seat}
        if value(state, target["card"]) in MERCENARY_VALUES:
            state["contracts"][target["card"]] = seat
        state["events"].append(lines.SUMMONS % {"player": player, "card": name(state, target["card"])})
    elif kind == "banish":
        slot = board.pop(target["cell"])
        _leave_board(state, slot["card"])
        state["discard"].append(slot["card"])
        state["events"].append(lines.BANISHED % {"card": name(state, slot["card"])})
    elif kind == "salvage":
        state["discard"].remove(target["card"])
        state["hands"][seat].append(target["card"])
        _enforce_limits(state, seat, rng)


def _keep(state: dict, seat: int, action: dict, rng) -> None:
    options = state["pending"]["options"]
    state["pending"] = None
    chosen = action["hymn"]
    rest = [h for h in options if h != chosen]
    state["hymnal"] = rng.shuffled(state["hymnal"] + rest)
    state["hands"][seat].append(chosen)
    if action["use"]:
        _sing(state, seat, chosen, action, rng)
    else:
        state["events"].append(lines.KEEPS % {"player": state["players"][seat]})
    _enforce_limits(state, seat, rng)


def _learn(state: dict, seat: int, action: dict, rng) -> None:
    hand = state["hands"][seat]
    for card_id in [action.get("hymn"), *action.get("cards", [])]:
        if card_id:
            hand.remove(card_id)
            _discard(state, card_id)
    if "capture" in action:
        state["captures"][seat][action["capture"]]["spent"] = True
    hymn_id = _draw_hymn(state, rng)
    if hymn_id:
        hand.append(hymn_id)
    state["events"].append(lines.LEARNS % {"player": state["players"][seat]})
