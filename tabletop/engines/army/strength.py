"""Strength in a skirmish: effective Role and traits, modifiers with their sources, dice, totals.

* A unit's Role is its printed Role unless a power changed it as it was played
  (Adept, Master of Arms, Shapeshifter); the skirmish entry records the Role in force.
* Traits: printed, plus Ranged on Offense for a Scout's units.
* Reach: +1 "if their opponent in the Skirmish doesn't have Reach or Ranged"; an
  Unopposed unit has no opponent and gets no Reach bonus (ruling AR7).
* Commander bonuses (``Power.bonuses``, the Evoker's +2, the Illusionist's d6) never
  trigger the Savant. Card bonuses (discarded cards, Rituals) do: a Savant unit
  receiving a positive bonus from another card gets a further +2 for each.
* Dice: Equipment rolls none; an Aggressor on Offense rolls 2d6 and keeps the best
  unless the Defense unit is a Guardian; a Guardian on Defense likewise unless the
  Offense unit is an Aggressor; everything else rolls one d6. An Unopposed Aggressor
  keeps its 2d6 (nobody negates it).
* 0-Strength Equipment is Killed in any skirmish (not when Unopposed: no skirmish is
  fought -- odds ruling AO6); a ``no_damage`` unit is exempt.

Total = printed Strength + kept die + every modifier.
"""

from __future__ import annotations

from . import abilities, lines
from .common import other_side, strength_of
from .odds import SideDice
from .powers import power_of


def unit(state: dict, side: str) -> dict | None:
    """The unit on ``side`` of the current skirmish, with its Role and traits in force."""
    skirmish = state["skirmish"]
    entry = skirmish[side] if skirmish else None
    if not entry:
        return None
    card = state["cards"][entry["card"]]
    seat = card["owner"]
    traits = list(card["traits"])
    if side == "offense" and power_of(state, seat).offense_ranged and "ranged" not in traits:
        traits.append("ranged")
    return {"side": side, "seat": seat, "id": entry["card"], "card": card, "role": entry["role"],
            "traits": traits, "revealed": entry["revealed"]}


def modifiers(state: dict, side: str) -> list[dict]:
    """Every modifier of the unit on ``side``: ``{"amount", "source", "kind"}``."""
    me, enemy = unit(state, side), unit(state, other_side(side))
    if me is None:
        return []
    found: list[dict] = []
    if "reach" in me["traits"] and enemy is not None and not {"reach", "ranged"} & set(enemy["traits"]):
        found.append({"amount": 1, "source": lines.REACH, "kind": "trait"})
    for amount, source in power_of(state, me["seat"]).bonuses(state, me["seat"], me, enemy):
        found.append({"amount": amount, "source": source, "kind": "commander"})
    for effect in state["phase_effects"][me["seat"]]:
        found.append({"amount": effect["amount"], "source": effect["source"], "kind": "card"})
    for mod in state["skirmish"]["mods"]:
        if mod["side"] == side:
            found.append({"amount": mod["amount"], "source": mod["source"], "kind": mod["kind"]})
    if me["role"] == "savant":
        for mod in list(found):
            if mod["kind"] == "card" and mod["amount"] > 0:
                found.append({"amount": 2, "source": lines.SAVANT_BONUS % {"source_words": mod["source"]},
                              "kind": "savant"})
    return found


def dice_mode(state: dict, side: str) -> str:
    me, enemy = unit(state, side), unit(state, other_side(side))
    if me["role"] == "equipment":
        return "none"
    if side == "offense" and me["role"] == "aggressor" and (enemy is None or enemy["role"] != "guardian"):
        return "best2"
    if side == "defense" and me["role"] == "guardian" and (enemy is None or enemy["role"] != "aggressor"):
        return "best2"
    return "d6"


def dice_count(mode: str) -> int:
    return {"none": 0, "d6": 1, "best2": 2}[mode]


def kept(mode: str, dice: list[int]) -> int:
    return max(dice) if dice else 0


def no_damage(state: dict, side: str) -> bool:
    me = unit(state, side)
    return me is not None and abilities.has(me["card"], "no_damage")


def auto_killed(state: dict, side: str) -> bool:
    me = unit(state, side)
    return (me is not None and not state["skirmish"]["unopposed"] and me["role"] == "equipment"
            and me["card"]["strength"] == 0 and not abilities.has(me["card"], "no_damage"))


def total(state: dict, side: str) -> int:
    me = unit(state, side)
    dice = (state["skirmish"]["dice"] or {}).get(side, [])
    return strength_of(me["card"]) + kept(dice_mode(state, side), dice) + sum(
        mod["amount"] for mod in modifiers(state, side))


def breakdown(state: dict, side: str) -> dict | None:
    """Base Strength, dice, every modifier and the total of one side (views, last result)."""
    me = unit(state, side)
    if me is None:
        return None
    mode = dice_mode(state, side)
    dice = (state["skirmish"]["dice"] or {}).get(side)
    mods = modifiers(state, side)
    rolled = dice is not None
    return {"name": me["card"]["name"], "seat": me["seat"], "role": me["role"], "traits": me["traits"],
            "base": strength_of(me["card"]), "dice_mode": mode, "dice": list(dice or []),
            "kept": kept(mode, dice or []) if rolled else None, "modifiers": mods,
            "modifier_total": sum(mod["amount"] for mod in mods),
            "total": total(state, side) if rolled else None}


def side_dice(state: dict, side: str):
    """The odds module's description of one side (printed Strength, modifiers, dice)."""
    me = unit(state, side)
    return SideDice(base_strength=strength_of(me["card"]),
                    modifier=sum(mod["amount"] for mod in modifiers(state, side)),
                    dice=dice_mode(state, side), auto_killed=auto_killed(state, side),
                    no_damage=no_damage(state, side))
