"""GM overrides: accepted from the GM seat at any step, logged as ordinary actions.

Real LARP cards can say anything, so the GM must never be stuck:

* ``{"type": "gm_modifier", "seat": "gm", "side": "offense"|"defense", "amount": n}``
  -- a Strength modifier (source "GM") on that side of the current skirmish; with no
  skirmish in progress it waits for the next one.
* ``{"type": "gm_set_dice", "seat": "gm", "values": [...]}`` -- the next dice the
  engine needs are these, instead of ``rng`` or the GM's typing ("setting a die");
  an empty list clears dice set earlier.
* ``{"type": "gm_move_card", "seat": "gm", "card": id, "to": "hand"|"exhausted"|
  "disabled"|"killed"}`` -- from anywhere. A card taken out of the current skirmish
  calls it off (ruling AR25): the other unit returns to its hand and the defender
  takes the next turn. Moving a card out of Killed revives it; into Killed kills it.
* ``{"type": "gm_morale", "seat": "gm", "target": 0|1, "amount": n}`` -- add or remove
  Morale (losses take Base Morale first, never below 0; reaching 0 routs).
* ``{"type": "gm_end_battle", "seat": "gm"[, "winner": 0|1|null]}`` -- end the battle
  now; without ``winner`` the usual rules name the winner, ``null`` names none.

A decision that an override leaves without real options is closed and decided afresh
(steps.py). ``view(state, "gm")["overrides"]`` describes what the GM can do now.
"""

from __future__ import annotations

from .. import kernel
from ..kernel import IllegalAction
from ..words import gettext_noop
from . import lines
from .choices import real_options
from .common import PILES, SIDES, card_name, event, gain_morale, location, lose_morale, move, name, push, put, take
from .dice import refresh as refresh_dice
from .steps import advance

OVERRIDES = ("gm_modifier", "gm_set_dice", "gm_move_card", "gm_morale", "gm_end_battle")


def _whole(value, refusal: str) -> int:
    """``value``, a whole number, else refused with ``refusal`` (a template of ``%(value)r``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(refusal, value=value)
    return value


def check(state: dict, action: dict) -> tuple:
    kind = action["type"]
    if action.get("seat") != kernel.GM:
        raise IllegalAction(gettext_noop("Only the GM can override the rules."))
    if kind not in OVERRIDES:
        raise IllegalAction(gettext_noop("Unknown GM override %(kind)r; the GM may use %(overrides)s."), kind=kind,
                            overrides=", ".join(OVERRIDES))
    if kind == "gm_modifier":
        if action.get("side") not in SIDES:
            raise IllegalAction(gettext_noop("A GM modifier goes to the 'offense' or the 'defense' unit."))
        if _whole(action.get("amount"), gettext_noop("The modifier must be a whole number, not %(value)r.")) == 0:
            raise IllegalAction(gettext_noop("A modifier of 0 changes nothing."))
        return _modifier, (action["side"], action["amount"])
    if kind == "gm_set_dice":
        values = action.get("values")
        if not isinstance(values, list):
            raise IllegalAction(gettext_noop("Set the dice as a list of numbers, e.g. [6, 6]."))
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise IllegalAction(gettext_noop("Dice show 1 to 6; %(value)r is not a die roll."), value=value)
        return _set_dice, (list(values),)
    if kind == "gm_move_card":
        card_id, to = action.get("card"), action.get("to")
        if not isinstance(card_id, str) or card_id not in state["cards"]:
            raise IllegalAction(gettext_noop("There is no card %(card)r in this battle."), card=card_id)
        if to not in PILES:
            raise IllegalAction(gettext_noop("A card can be moved to %(piles)s, not %(to)r."), piles=", ".join(PILES),
                                to=to)
        if location(state, card_id) == to:
            raise IllegalAction(gettext_noop("%(card)s is already there."), card=card_name(state, card_id))
        return _move_card, (card_id, to)
    if kind == "gm_morale":
        target = action.get("target")
        if isinstance(target, bool) or target not in (0, 1):
            raise IllegalAction(gettext_noop("gm_morale needs a target commander: 0 or 1."))
        if _whole(action.get("amount"), gettext_noop("The Morale change must be a whole number, not %(value)r.")) == 0:
            raise IllegalAction(gettext_noop("A Morale change of 0 changes nothing."))
        return _morale, (target, action["amount"])
    winner = action.get("winner", "rules")
    if winner not in ("rules", None, 0, 1) or isinstance(winner, bool):
        raise IllegalAction(gettext_noop("The winner must be 0, 1 or null (nobody); leave it out to apply the rules."))
    return _end, (winner,)


def override(state: dict, action: dict, rng) -> dict:
    effect, arguments = check(state, action)
    new_state = kernel.thaw(state, shared=("cards",))
    effect(new_state, *arguments)
    decide_again(new_state, rng)
    return new_state


def settle(state: dict, rng) -> dict:
    """The contract's ``settle`` (a what-if's new deal, ruling WI13): what an override's refresh decides,
    decided on the new cards (``decide_again``): an Offense or Defense decision for a commander who now
    holds no playable unit is closed and its task re-run, so the commander is Unable as the rules say."""
    new_state = kernel.thaw(state, shared=("cards",))
    decide_again(new_state, rng)
    return new_state


def decide_again(state: dict, rng) -> None:
    """A decision the cards no longer allow closed and decided afresh, then the battle run on to the next one."""
    refresh(state)
    advance(state, rng)


def _modifier(state: dict, side: str, amount: int) -> None:
    skirmish = state["skirmish"]
    if skirmish:
        skirmish["mods"].append({"side": side, "amount": amount, "source": lines.GM, "kind": "gm"})
        event(state, lines.GM_MODIFIER[side] % {"amount": f"{amount:+d}"})
    else:
        state["gm_next"].append({"side": side, "amount": amount})
        event(state, lines.GM_NEXT_MODIFIER[side] % {"amount": f"{amount:+d}"})


def _set_dice(state: dict, values: list[int]) -> None:
    state["forced_dice"] = values
    event(state, lines.GM_DICE_SET % {"values": ", ".join(map(str, values))} if values else lines.GM_DICE_CLEARED)


def _move_card(state: dict, card_id: str, to: str) -> None:
    where = location(state, card_id)
    seat = state["cards"][card_id]["owner"]
    if where in SIDES:
        skirmish = state["skirmish"]
        for side in SIDES:
            other_card = skirmish[side]["card"] if skirmish[side] else None
            if other_card and other_card != card_id:
                take(state, other_card)
                put(state, other_card, "hand")
        face_down = not skirmish[where]["revealed"]
        move(state, card_id, to)
        state["skirmish"], state["step"], state["tasks"] = None, None, [{"do": "next_turn",
                                                                          "seat": skirmish["defender"]}]
        # A face-down card going back to a hand stays secret: only the GM's view names it.
        calls_off = lines.GM_CALLS_OFF_FACE_DOWN if face_down and to == "hand" else lines.GM_CALLS_OFF
        event(state, calls_off % {"name": name(state, seat), "card": card_name(state, card_id),
                                  "to_words": lines.PILE_WORDS[to]})
        return
    move(state, card_id, to)
    event(state, lines.GM_MOVES % {"name": name(state, seat), "card": card_name(state, card_id),
                                   "where_words": lines.PILE_WORDS[where], "to_words": lines.PILE_WORDS[to]})


def _morale(state: dict, target: int, amount: int) -> None:
    if amount > 0:
        gain_morale(state, target, amount, lines.GM)
    else:
        lose_morale(state, target, -amount, lines.GM)


def _end(state: dict, winner) -> None:
    state["step"], state["tasks"] = None, []
    push(state, {"do": "finish", "reason": "gm", "winner": winner})


def refresh(state: dict) -> None:
    """Close a decision the override emptied, so it is decided afresh."""
    refresh_dice(state)
    step = state["step"]
    if step is None or step["kind"] in ("dice", "choose_first"):
        return
    if step["kind"] == "save":
        if location(state, step["card"]) != "killed" or step["card"] in state["killed_log"]:
            state["step"] = None
        return
    if not real_options(state):
        state["step"] = None
        push(state, step["task"])


def examples(state: dict) -> list[dict]:
    """Overrides the GM could make now, of every kind (random play in simulate mixes them in).

    During a skirmish the moves are those of its cards, which call it off (the case where a
    face-down card must stay secret); otherwise any card to any other pile.
    """
    if state["phase"] == "over":
        return []
    found = [{"type": "gm_modifier", "seat": kernel.GM, "side": side, "amount": amount}
             for side in SIDES for amount in (-2, 1)]
    found += [{"type": "gm_set_dice", "seat": kernel.GM, "values": values} for values in ([6, 1, 3], [])]
    skirmish = state["skirmish"]
    moved = [skirmish[side]["card"] for side in SIDES if skirmish[side]] if skirmish else []
    found += [{"type": "gm_move_card", "seat": kernel.GM, "card": card_id, "to": to}
              for card_id in moved or state["cards"] for to in PILES if to != location(state, card_id)]
    found += [{"type": "gm_morale", "seat": kernel.GM, "target": target, "amount": amount}
              for target in (0, 1) for amount in (-1, 1)]
    found += [{"type": "gm_end_battle", "seat": kernel.GM},
              {"type": "gm_end_battle", "seat": kernel.GM, "winner": None}]
    return found


def shown_by(action: dict) -> list[str]:
    """A card the GM moves to a face-up pile is shown to everyone, even if the same action sends it
    back to hand (moving a commander's last playable card ends the Phase: Exhausted returns to hand)."""
    if action.get("type") == "gm_move_card" and action.get("to") in PILES and action["to"] != "hand":
        return [action["card"]] if isinstance(action.get("card"), str) else []
    return []


def override_menu(state: dict) -> list[dict]:
    """What the GM may override now, each with the label the GM sees (none once the battle is over).

    The GM view shows it; the table service reads the label from it for the activity log.
    """
    return describe(state) if state["phase"] != "over" else []


def describe(state: dict) -> list[dict]:
    """What the GM may override now (for the GM view)."""
    skirmish = state["skirmish"]
    cards = [{"id": card_id, "name": card["name"], "owner": card["owner"], "where": location(state, card_id)}
             for card_id, card in state["cards"].items()]
    return [
        {"type": "gm_modifier", "fields": {"side": list(SIDES), "amount": "whole number"},
         "label": lines.MENU_MODIFIER_NOW if skirmish else lines.MENU_MODIFIER_NEXT},
        {"type": "gm_set_dice", "fields": {"values": "list of dice, 1 to 6"},
         "label": lines.MENU_DICE, "set": list(state["forced_dice"])},
        {"type": "gm_move_card", "fields": {"card": "card id", "to": list(PILES)}, "cards": cards,
         "label": lines.MENU_MOVE_OFF if skirmish else lines.MENU_MOVE},
        {"type": "gm_morale", "fields": {"target": [0, 1], "amount": "whole number (negative to remove)"},
         "label": lines.MENU_MORALE},
        {"type": "gm_end_battle", "fields": {"winner": [0, 1, None]},
         "label": lines.MENU_END},
    ]
