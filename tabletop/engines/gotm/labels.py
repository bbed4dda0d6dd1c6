"""What a GOT'M action is called on a button and in the log: ``label(state, action)``.

Its own module (below ``seat_view`` and ``assault``, which both name actions) so that the assault's
reading of picked cards needs no import from the seat view, which imports the game.
"""

from __future__ import annotations

from ..words import phrase
from . import battle, cards

# The moves' labels (issue 41): English templates the page says in the reader's language. A payment's label
# comes without and with the value it loses over the price.
HIRE = (phrase("Hire %(card)s with %(paid)s"), phrase("Hire %(card)s with %(paid)s (%(lost)d lost)"))
SELL_HIRE = (phrase("Sell %(artifact)s for 10 credit and hire %(card)s with %(paid)s"),
             phrase("Sell %(artifact)s for 10 credit and hire %(card)s with %(paid)s (%(lost)d lost)"))
BUY = (phrase("Buy %(card)s with %(paid)s"), phrase("Buy %(card)s with %(paid)s (%(lost)d lost)"))
TRADE = phrase("Trade your %(give)s for the %(card)s")
SKIP = phrase("Skip this turn")
DONE = phrase("Done shopping")
PLACE = phrase("Place %(card)s at position %(n)d")
PLACE_WOUNDED = phrase("Place %(card)s (wounded, from the infirmary) at position %(n)d")
EQUIP = phrase("Equip %(card)s with %(artifact)s")
READY = phrase("Ready to fight")
ATTACK = phrase("%(attacker)s (AP %(ap)d) attacks %(target)s (value %(value)d)")
ATTACK_CLEAVING = phrase("%(attacker)s (AP %(ap)d) attacks %(target)s (value %(value)d), cleaving %(cleaved)s")
LIGHTNING = phrase("%(attacker)s hurls Chain Lightning at the whole squad")
ASSAULT_FOCUS = phrase("Coordinated Assault: %(first)s + %(second)s (AP %(ap)d) focus on %(target)s")
ASSAULT_SPLIT = phrase("Coordinated Assault: %(first)s on %(first_target)s, %(second)s on %(second_target)s")
SHIELD = phrase("Shield %(target)s with %(shield)s (sacrificed)")
NO_SHIELD = phrase("Do not shield")
PICK_UP = phrase("%(card)s picks up %(artifact)s")
LEAVE = phrase("Leave %(artifact)s on the ground")


def _slot_name(state: dict, seat: int, pos) -> str:
    if pos is None:
        return ""
    return cards.short(state["squads"][seat][pos]["card"])


def _paying(labels: tuple[str, str], pay: list[str], price: int, **values) -> str:
    """A payment's label (``labels``: without and with a loss) for ``pay`` at ``price``."""
    lost = sum(cards.value(card) for card in pay) - price
    values["paid"] = " ".join(cards.short(card) for card in pay)
    return labels[1] % {**values, "lost": lost} if lost > 0 else labels[0] % values


def label(state: dict, action: dict) -> str:
    kind, seat = action["type"], action["seat"]
    foe = 1 - seat
    if kind == "hire":
        card = action["card"]
        return _paying(HIRE, action["pay"], cards.value(card), card=cards.name(card))
    if kind == "sell_hire":
        card = action["card"]
        return _paying(SELL_HIRE, action["pay"], cards.value(card) - cards.ARTIFACT_VALUE,
                       artifact=cards.short(action["artifact"]), card=cards.name(card))
    if kind in ("swap", "swap_artifact"):
        return TRADE % {"give": cards.name(action["give"]), "card": cards.name(action["card"])}
    if kind == "buy_artifact":
        return _paying(BUY, action["pay"], cards.ARTIFACT_VALUE, card=cards.name(action["card"]))
    if kind == "skip":
        return SKIP
    if kind == "done":
        return DONE
    if kind == "deploy":
        where = len(state["squads"][seat]) + 1
        line = PLACE_WOUNDED if action["card"] in state["infirmary"][seat] else PLACE
        return line % {"card": cards.name(action["card"]), "n": where}
    if kind == "equip":
        return EQUIP % {"card": _slot_name(state, seat, action["slot"]), "artifact": cards.short(action["card"])}
    if kind == "ready":
        return READY
    if kind == "attack":
        values = {"attacker": _slot_name(state, seat, action["attacker"]),
                  "ap": battle.ap(state, seat, action["attacker"]),
                  "target": _slot_name(state, foe, action["target"]),
                  "value": battle.value(state, foe, action["target"])}
        if action["cleave"] is None:
            return ATTACK % values
        return ATTACK_CLEAVING % {**values, "cleaved": _slot_name(state, foe, action["cleave"])}
    if kind == "lightning":
        return LIGHTNING % {"attacker": _slot_name(state, seat, action["attacker"])}
    if kind == "assault":
        (a, b), (ta, tb) = action["attackers"], action["targets"]
        pair = {"first": _slot_name(state, seat, a), "second": _slot_name(state, seat, b)}
        if ta == tb:
            total = battle.ap(state, seat, a) + battle.ap(state, seat, b)
            return ASSAULT_FOCUS % {**pair, "ap": total, "target": _slot_name(state, foe, ta)}
        return ASSAULT_SPLIT % {**pair, "first_target": _slot_name(state, foe, ta),
                                "second_target": _slot_name(state, foe, tb)}
    if kind == "shield":
        return SHIELD % {"target": _slot_name(state, seat, action["target"]),
                         "shield": _slot_name(state, seat, action["shield"])}
    if kind == "no_shield":
        return NO_SHIELD
    if kind == "pick_up":
        artifact = state["squads"][seat][action["from"]]["artifact"]
        return PICK_UP % {"card": _slot_name(state, seat, action["to"]), "artifact": cards.short(artifact)}
    if kind == "leave":
        artifact = state["squads"][seat][action["from"]]["artifact"]
        return LEAVE % {"artifact": cards.short(artifact)}
    return kind
