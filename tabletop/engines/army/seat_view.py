"""What each seat sees of an Army battle, and the outcome.

* A commander's seat sees their own hand (and their own face-down card), every
  commander's Morale (Base Morale apart), hand counts and the face-up piles
  (Exhausted, Disabled, Killed), the skirmish as the table shows it (the other
  side's card face down until revealed), cards revealed by a Mender, their own
  choices with labels, the last resolution step by step, and recent events.
* The public view (``None``) is the table: no hand, no face-down card.
* The GM (``"gm"``) sees everything: both hands, face-down cards, the choices of
  whoever decides now, the exact odds of the revealed skirmish (odds.py), the dice
  still needed at a physical table, dice the GM has set, and ``overrides``.
* Event lines and the last resolution name cards, never card ids, so a card that
  returns to a hand (a Healer, the Etherealist) is not given away.
* Once the battle is over nothing is hidden any more (the log is public then too).
"""

from __future__ import annotations

from ..kernel import GM
from . import abilities, gm, odds
from .actions import describe_step
from .choices import dice_needed, options
from .common import PILES, SIDES, total_morale
from .powers import POWERS
from .strength import breakdown, dice_mode, side_dice
from .strength import unit as skirmish_unit

VISIBLE_EVENTS = 20


def card_view(state: dict, card_id: str) -> dict:
    card = state["cards"][card_id]
    return {"id": card_id, "name": card["name"], "strength": card["strength"], "role": card["role"],
            "path": card["path"], "traits": list(card["traits"]), "upkeep": card["upkeep"],
            "abilities": [abilities.describe(ability) for ability in card["abilities"]],
            "granted": bool(card.get("granted"))}


def _sees_hand(viewer, seat: int, state: dict) -> bool:
    return viewer == GM or viewer == seat or state["phase"] == "over"


def _commander(state: dict, seat: int, viewer) -> dict:
    commander, piles = state["commanders"][seat], state["piles"][seat]
    own = _sees_hand(viewer, seat, state)
    benefit = commander["benefit"]
    used = commander["uses"]
    return {
        "seat": seat, "player": state["players"][seat], "name": commander["name"], "kind": commander["kind"],
        "class": POWERS[commander["power"]].title,
        "benefit": POWERS[benefit].title if benefit else None,
        "morale": total_morale(state, seat), "own_morale": commander["morale"], "base_morale": commander["base"],
        "base_morale_used": commander["base_used"], "start_morale": commander["start_morale"],
        "routed": commander["routed"], "favors": commander["favors"], "influence_halves": commander["influence_halves"],
        "hand_count": len(piles["hand"]),
        "hand": [card_view(state, card_id) for card_id in piles["hand"]] if own else None,
        "revealed": [card_view(state, card_id) for card_id in state["revealed"][seat]],
        **{pile: [card_view(state, card_id) for card_id in piles[pile]] for pile in PILES if pile != "hand"},
        "oath": state["cards"][commander["oath"]]["name"] if own and commander["oath"] else None,
        "dervish": commander["dervish"], "mindblade_streak": commander["streak"],
        "uses": {"evoker_left": 3 - used["evoker"], "illusionist_left": 2 - used["illusionist"],
                 "shapeshifter_used": bool(used["shapeshifter"]), "etherealist_used": bool(used["etherealist"]),
                 "cleric_used": bool(used["cleric"]), "rituals": used["rituals"]},
        "ritual_bonus": sum(effect["amount"] for effect in state["phase_effects"][seat]),
    }


def _window(window: dict | None) -> dict | None:
    """The open reaction window without its record of positions seen (AR32): digests of every hand, the
    other commander's included, are no one's to see."""
    return None if window is None else {key: value for key, value in window.items() if key != "seen"}


def _skirmish(state: dict, viewer) -> dict | None:
    skirmish = state["skirmish"]
    if not skirmish:
        return None
    found = {"n": skirmish["n"], "attacker": skirmish["attacker"], "defender": skirmish["defender"],
             "unopposed": skirmish["unopposed"], "rerolls": skirmish["rerolls"],
             "window": _window(skirmish["window"]), "rolled": skirmish["dice"] is not None}
    for side in SIDES:
        entry = skirmish[side]
        if entry is None:
            found[side] = None
            continue
        seat = state["cards"][entry["card"]]["owner"]
        if not entry["revealed"] and viewer != GM and viewer != seat:
            found[side] = {"face_down": True, "seat": seat}
            continue
        info = breakdown(state, side) if entry["revealed"] else {"name": state["cards"][entry["card"]]["name"]}
        found[side] = {**info, "id": entry["card"], "face_down": not entry["revealed"], "seat": seat,
                       "played_as": entry["role"], "role_source": entry["role_source"]}
    return found


def _odds(state: dict):
    skirmish = state["skirmish"]
    if not skirmish or skirmish["dice"] is not None or not skirmish["offense"]["revealed"]:
        return None
    if skirmish["unopposed"]:
        damage = odds.unopposed_odds(side_dice(state, "offense"))
        return {"unopposed": {str(points): {"p": round(float(p), 4), "exact": f"{p.numerator}/{p.denominator}"}
                              for points, p in damage.items()}}
    return odds.skirmish_odds(side_dice(state, "offense"), side_dice(state, "defense")).as_json()


def view(state: dict, seat) -> dict:
    step = state["step"]
    deciding = [] if step is None or state["phase"] == "over" else [step["seat"]]
    acting = seat == GM or (seat is not None and seat in deciding)
    result = {
        "game": "army", "viewer": seat, "phase": state["phase"], "dice_mode": state["dice"],
        "to_act": deciding, "turn_text": describe_step(state)[0].upper() + describe_step(state)[1:],
        "step": step["kind"] if step else None, "active": state["active"], "first": state["first"],
        "chooser": state["chooser"], "skirmish_count": state["number"],
        "commanders": [_commander(state, index, seat) for index in (0, 1)],
        "hand": ([card_view(state, card_id) for card_id in state["piles"][seat]["hand"]]
                 if isinstance(seat, int) else []),
        "skirmish": _skirmish(state, seat),
        "choices": [{**action, "label": label} for action, label in options(state)] if acting else [],
        "dice_needed": dice_needed(state),
        "last": state["last"],
        "events": state["events"][-VISIBLE_EVENTS:],
        "result": state["result"],
    }
    if seat == GM:
        result["odds"] = _odds(state)
        result["overrides"] = gm.override_menu(state)
        result["dice_set"] = list(state["forced_dice"])
        result["gm_next_modifiers"] = list(state["gm_next"])
        if state["skirmish"] and state["skirmish"]["offense"]["revealed"]:
            result["dice_modes"] = {side: dice_mode(state, side) for side in SIDES if skirmish_unit(state, side)}
    return result


def card_names(state: dict) -> dict[str, str]:
    """Every card of the game by id, with the name its lines use (the simulate checks look for names)."""
    return {card_id: card["name"] for card_id, card in state["cards"].items()}


def hidden_from(state: dict, seat) -> list[str]:
    """Card ids ``seat`` must not see: other hands (but Mender-revealed cards) and face-down cards."""
    if seat == GM or state["phase"] == "over":
        return []
    hidden = []
    skirmish = state["skirmish"]
    for other_seat in (0, 1):
        if other_seat == seat:
            continue
        revealed = state["revealed"][other_seat]
        hidden.extend(card_id for card_id in state["piles"][other_seat]["hand"] if card_id not in revealed)
        if skirmish:
            for side in SIDES:
                entry = skirmish[side]
                if entry and not entry["revealed"] and state["cards"][entry["card"]]["owner"] == other_seat:
                    hidden.append(entry["card"])
    return hidden


def outcome(state: dict):
    result = state["result"]
    if result is None:
        return None
    winner = result["winner"]
    return {"winners": [] if winner is None else [winner], "winner": winner, "losers": list(result["losers"]),
            "scores": {str(seat): result["kills"][seat] for seat in (0, 1)}, "reason": result["reason"],
            "how": result["how"], "sides": result["sides"]}
