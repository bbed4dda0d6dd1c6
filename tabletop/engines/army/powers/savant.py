"""Savant commanders: Rogue, Illusionist, Chaplain, Shaman, Etherealist."""

from __future__ import annotations

from .. import lines
from ..common import event, gain_morale, name, playable, put, take
from ..dice import roll
from ..steps import ask, handler
from .aggressor import once_per_skirmish, side_label, skirmish_sides
from .base import Power, register, uses
from .healer import grant_card


@register
class Rogue(Power):
    """Rogue (Savant, Steel).

    Rulebook: "When you Kill an enemy unit, gain a Morale on a 4+."

    Rulings: rolled automatically for each enemy unit that ends Killed (after the
    enemy's chance to pay to save it), in a skirmish or by a rout roll: the Rogue's
    rout roll Kills the unit as surely as a skirmish does, and the Morale gained is
    the Morale the outcome reports (AR14, AR22).
    """

    key, title, role, path = "rogue", "Rogue", "savant", "steel"

    def on_kill(self, state, seat, victim):
        roll(state, [lines.ROGUE_ROLL % {"name": name(state, seat)}], {"do": "rogue_rolled", "seat": seat})


@handler("rogue_rolled")
def _rogue_rolled(state, task, rng):
    value = task["values"][0]
    if value >= 4:
        gain_morale(state, task["seat"], 1, lines.ROGUE_ROLLED % {"value": value})
    else:
        event(state, lines.ROGUE_NOTHING % {"value": value})


@register
class Illusionist(Power):
    """Illusionist (Savant, Magic).

    Rulebook: "Twice per Battle, you may roll a d6 and have either unit in a Skirmish
    Add the result. You may not do this more than once per Skirmish."

    Rulings: used in a reaction window (before or after the dice). In the text's order:
    the commander rolls first, then, seeing the result, chooses which unit Adds it (a
    decision that cannot be declined: the roll is made). A commander bonus (no Savant
    trigger). Ruling AR23.
    """

    key, title, role, path = "illusionist", "Illusionist", "savant", "magic"

    def options(self, state, seat, context, stage=None):
        if context == "step":
            skirmish = state["skirmish"]
            if stage != "assign" or skirmish is None or not skirmish.get("illusion"):
                return []
            value = skirmish["illusion"]["value"]
            return [(self.action(seat, side=side),
                     lines.ILLUSIONIST % {"unit_words": side_label(state, side), "value": value})
                    for side in skirmish_sides(state)]
        if context not in ("pre", "post") or uses(state, seat)["illusionist"] >= 2 or once_per_skirmish(
                state, seat, self.key):
            return []
        return [(self.action(seat, choice="roll"),
                 lines.ILLUSIONIST_ROLL_CHOICE)]

    def use(self, state, seat, action, context, rng):
        if context == "step":
            value = state["skirmish"].pop("illusion")["value"]
            state["skirmish"]["mods"].append({"side": action["side"], "amount": value,
                                              "source": lines.ILLUSIONIST_SOURCE % {"name": name(state, seat),
                                                                                    "value": value},
                                              "kind": "commander"})
            event(state, lines.ILLUSIONIST_HAS % {"name": name(state, seat),
                                                  "unit_words": side_label(state, action["side"]), "value": value})
            return
        uses(state, seat)["illusionist"] += 1
        state["skirmish"]["once"].append(f"{seat}:{self.key}")
        roll(state, [lines.ILLUSIONIST_ROLL % {"name": name(state, seat)}], {"do": "illusion_rolled", "seat": seat})


@handler("illusion_rolled")
def _illusion_rolled(state, task, rng):
    if state["skirmish"] is None:
        return
    value = task["values"][0]
    if not state["skirmish"].get("illusion"):
        event(state, lines.ILLUSIONIST_ROLLS % {"name": name(state, task["seat"]), "value": value})
    state["skirmish"]["illusion"] = {"seat": task["seat"], "value": value}  # until the unit is chosen
    ask(state, "power", task["seat"], task, power="illusionist", stage="assign")


@register
class Chaplain(Power):
    """Chaplain (Savant, Faith).

    Rulebook: "You gain access to the Mediating Chaplain unit, which neither deals nor
    receives damage in Skirmishes."

    Rulings: the Mediating Chaplain (``granted_card`` or the starter card: Strength 2
    Savant with ``no_damage``) is added to the hand at setup. In a skirmish with it the
    dice still decide the winner (Exhausted); the loser is Exhausted, never Disabled
    or Killed; Unopposed it deals no Morale damage (odds rulings AO4, AO5).
    """

    key, title, role, path = "chaplain", "Chaplain", "savant", "faith"

    def on_setup(self, state, seat):
        grant_card(state, seat, "mediating_chaplain")


@register
class Shaman(Power):
    """Shaman (Savant, Nature).

    Rulebook: "Elemental and Savant units you play Add 1."

    Ruling: +1 once for a unit that is Elemental (trait), a Savant (Role in force), or
    both; a commander bonus (no Savant trigger).
    """

    key, title, role, path = "shaman", "Shaman", "savant", "nature"

    def bonuses(self, state, seat, me, enemy):
        return [(1, lines.SHAMAN)] if "elemental" in me["traits"] or me["role"] == "savant" else []


@register
class Etherealist(Power):
    """Etherealist (Savant, Mind).

    Rulebook: "Once per Battle, you may exchange any unit in your hand with any unit
    you have played in a Skirmish, as long as the unit from your hand would be legal
    to play into that Skirmish."

    Rulings: used in the reaction window before the dice (after them, the roll belongs
    to the unit that made it). The unit from hand enters revealed with its printed
    Role; the unit it replaces returns to hand. Modifiers already given to that side
    stay with the side.
    """

    key, title, role, path = "etherealist", "Etherealist", "savant", "mind"

    def options(self, state, seat, context, stage=None):
        if context != "pre" or uses(state, seat)["etherealist"]:
            return []
        side = own_side(state, seat)
        if side is None:
            return []
        return [(self.action(seat, card=card_id),
                 lines.ETHEREALIST % {"unit_words": side_label(state, side), "card": state["cards"][card_id]["name"]})
                for card_id in playable(state, seat)]

    def use(self, state, seat, action, context, rng):
        uses(state, seat)["etherealist"] = 1
        side = own_side(state, seat)
        skirmish = state["skirmish"]
        old = skirmish[side]["card"]
        take(state, old)
        put(state, old, "hand")
        take(state, action["card"])
        new = state["cards"][action["card"]]
        skirmish[side] = {"card": action["card"], "role": new["role"], "role_source": None, "revealed": True}
        event(state, lines.ETHEREALIST_EXCHANGES[side] % {"name": name(state, seat), "old": state["cards"][old]["name"],
                                                          "card": new["name"]})


def own_side(state: dict, seat: int) -> str | None:
    skirmish = state["skirmish"]
    for side in skirmish_sides(state):
        if state["cards"][skirmish[side]["card"]]["owner"] == seat:
            return side
    return None
