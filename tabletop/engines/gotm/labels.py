"""What a GOT'M action is called on a button and in the log: ``label(state, action)``.

Its own module (below ``seat_view`` and ``assault``, which both name actions) so that the assault's
reading of picked cards needs no import from the seat view, which imports the game.
"""

from __future__ import annotations

from . import battle, cards


def _slot_name(state: dict, seat: int, pos) -> str:
    if pos is None:
        return ""
    return cards.short(state["squads"][seat][pos]["card"])


def _pay_text(pay: list[str], price: int) -> str:
    lost = sum(cards.value(card) for card in pay) - price
    return " ".join(cards.short(card) for card in pay) + (f" ({lost} lost)" if lost > 0 else "")


def label(state: dict, action: dict) -> str:
    kind, seat = action["type"], action["seat"]
    foe = 1 - seat
    if kind == "hire":
        return f"Hire {cards.name(action['card'])} with {_pay_text(action['pay'], cards.value(action['card']))}"
    if kind == "sell_hire":
        price = cards.value(action["card"]) - cards.ARTIFACT_VALUE
        return (f"Sell {cards.short(action['artifact'])} for 10 credit and hire {cards.name(action['card'])} "
                f"with {_pay_text(action['pay'], price)}")
    if kind in ("swap", "swap_artifact"):
        return f"Trade your {cards.name(action['give'])} for the {cards.name(action['card'])}"
    if kind == "buy_artifact":
        return f"Buy {cards.name(action['card'])} with {_pay_text(action['pay'], cards.ARTIFACT_VALUE)}"
    if kind == "skip":
        return "Skip this turn"
    if kind == "done":
        return "Done shopping"
    if kind == "deploy":
        where = len(state["squads"][seat]) + 1
        wounded = " (wounded, from the infirmary)" if action["card"] in state["infirmary"][seat] else ""
        return f"Place {cards.name(action['card'])}{wounded} at position {where}"
    if kind == "equip":
        return f"Equip {_slot_name(state, seat, action['slot'])} with {cards.short(action['card'])}"
    if kind == "ready":
        return "Ready to fight"
    if kind == "attack":
        ap = battle.ap(state, seat, action["attacker"])
        text = (f"{_slot_name(state, seat, action['attacker'])} (AP {ap}) attacks "
                f"{_slot_name(state, foe, action['target'])} (value {battle.value(state, foe, action['target'])})")
        if action["cleave"] is not None:
            text += f", cleaving {_slot_name(state, foe, action['cleave'])}"
        return text
    if kind == "lightning":
        return f"{_slot_name(state, seat, action['attacker'])} hurls Chain Lightning at the whole squad"
    if kind == "assault":
        (a, b), (ta, tb) = action["attackers"], action["targets"]
        if ta == tb:
            total = battle.ap(state, seat, a) + battle.ap(state, seat, b)
            return (f"Coordinated Assault: {_slot_name(state, seat, a)} + {_slot_name(state, seat, b)} "
                    f"(AP {total}) focus on {_slot_name(state, foe, ta)}")
        return (f"Coordinated Assault: {_slot_name(state, seat, a)} on {_slot_name(state, foe, ta)}, "
                f"{_slot_name(state, seat, b)} on {_slot_name(state, foe, tb)}")
    if kind == "shield":
        return (f"Shield {_slot_name(state, seat, action['target'])} with "
                f"{_slot_name(state, seat, action['shield'])} (sacrificed)")
    if kind == "no_shield":
        return "Do not shield"
    if kind == "pick_up":
        artifact = state["squads"][seat][action["from"]]["artifact"]
        return f"{_slot_name(state, seat, action['to'])} picks up {cards.short(artifact)}"
    if kind == "leave":
        artifact = state["squads"][seat][action["from"]]["artifact"]
        return f"Leave {cards.short(artifact)} on the ground"
    return kind
