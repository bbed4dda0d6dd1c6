"""Aggressor commanders: Master of Arms, Evoker, Dervish, Scout, Mindblade."""

from __future__ import annotations

from .. import lines
from ..common import PATHS, ROLES, SIDES, event, name
from .base import Power, register, uses


def side_label(state: dict, side: str) -> str:
    entry = state["skirmish"][side]
    return lines.SIDE_LABEL[side] % {"card": state["cards"][entry["card"]]["name"]}


def skirmish_sides(state: dict) -> list[str]:
    skirmish = state["skirmish"]
    return [side for side in SIDES if skirmish and skirmish[side] and skirmish[side]["revealed"]]


def once_per_skirmish(state: dict, seat: int, key: str) -> bool:
    return f"{seat}:{key}" in state["skirmish"]["once"]


@register
class MasterOfArms(Power):
    """Master of Arms (Aggressor, Steel).

    Rulebook: "You may change the Role of any card you play to Aggressor. Aggressor
    units you play Add 1."

    Ruling: the change is chosen with the play (``"role": "aggressor"``), on Offense or
    Defense; the +1 is a commander bonus (no Savant trigger).
    """

    key, title, role, path = "master_of_arms", "Master of Arms", "aggressor", "steel"

    def play_roles(self, state, seat, card_id):
        return [] if state["cards"][card_id]["role"] == "aggressor" else ["aggressor"]

    def bonuses(self, state, seat, me, enemy):
        return [(1, lines.MASTER_OF_ARMS)] if me["role"] == "aggressor" else []


@register
class Evoker(Power):
    """Evoker (Aggressor, Magic).

    Rulebook: "Three times per Battle, you may Add 2 to any unit in a Skirmish. You
    may not do this more than once per Skirmish."

    Ruling: used in a reaction window (before or after the dice) on either unit; a
    commander bonus (no Savant trigger).
    """

    key, title, role, path = "evoker", "Evoker", "aggressor", "magic"

    def options(self, state, seat, context, stage=None):
        if context not in ("pre", "post") or uses(state, seat)["evoker"] >= 3:
            return []
        if once_per_skirmish(state, seat, self.key):
            return []
        return [(self.action(seat, side=side), lines.EVOKER % {"unit_words": side_label(state, side)})
                for side in skirmish_sides(state)]

    def use(self, state, seat, action, context, rng):
        uses(state, seat)["evoker"] += 1
        skirmish = state["skirmish"]
        skirmish["once"].append(f"{seat}:{self.key}")
        skirmish["mods"].append({"side": action["side"], "amount": 2,
                                 "source": lines.EVOKER_SOURCE % {"name": name(state, seat)}, "kind": "commander"})
        event(state, lines.EVOKER_GIVES % {"name": name(state, seat), "unit_words": side_label(state, action["side"]),
                                           "left": 3 - uses(state, seat)["evoker"]})


@register
class Dervish(Power):
    """Dervish (Aggressor, Faith).

    Rulebook: "Units under your command Add 1 against units that are on a specific
    Path or Role (choose one each Day)."

    Rulings: the Day's choice comes from the config (``options.dervish_target``); if
    it is missing, it is a pre-battle decision. It compares the enemy unit's Path or
    its Role in force (after any change). Unopposed there is no enemy unit: no bonus.
    """

    key, title, role, path = "dervish", "Dervish", "aggressor", "faith"

    def prebattle(self, state, seat):
        return [] if state["commanders"][seat]["dervish"] else [self.step_task(seat, "target")]

    def options(self, state, seat, context, stage=None):
        if context != "step":
            return []
        return ([(self.action(seat, path=path), lines.DERVISH_PATH % {"path": path.title()}) for path in PATHS]
                + [(self.action(seat, role=role), lines.DERVISH_ROLE % {"role": role.title()}) for role in ROLES])

    def use(self, state, seat, action, context, rng):
        target = {"path": action["path"]} if "path" in action else {"role": action["role"]}
        state["commanders"][seat]["dervish"] = target
        kind, value = describe_target(target)
        event(state, lines.DERVISH_TODAY[kind] % {"name": name(state, seat), "target": value})

    def bonuses(self, state, seat, me, enemy):
        target = state["commanders"][seat]["dervish"]
        if not target or enemy is None:
            return []
        if enemy["card"]["path"] == target.get("path") or enemy["role"] == target.get("role"):
            kind, value = describe_target(target)
            return [(1, lines.DERVISH_BONUS[kind] % {"target": value})]
        return []


def describe_target(target: dict) -> tuple[str, str]:
    """Whether the Dervish's target is a Path or a Role, and its name."""
    return ("path", target["path"].title()) if "path" in target else ("role", target["role"].title())


@register
class Scout(Power):
    """Scout (Aggressor, Nature).

    Rulebook: "All cards you play on Offense gain the Ranged trait. If they already
    had the Ranged trait, they Add 1."

    Ruling: the gained Ranged counts for the enemy's Reach (Reach gets no +1 against
    it); "already had" means a printed Ranged trait.
    """

    key, title, role, path = "scout", "Scout", "aggressor", "nature"
    offense_ranged = True

    def bonuses(self, state, seat, me, enemy):
        return [(1, lines.SCOUT)] if me["side"] == "offense" and "ranged" in me["card"]["traits"] else []


@register
class Mindblade(Power):
    """Mindblade (Aggressor, Mind).

    Rulebook: "Whenever you win a Skirmish, you may Add 1 to the next Skirmish that
    Phase. Whenever you win the next Skirmish, it increases to Add 2. This ends when
    you lose a Skirmish."

    Rulings: the bonus is applied automatically to the commander's unit in their next
    skirmish (a bonus can only help). One win: +1; two or more wins in a row: +2.
    A lost skirmish or the end of the Phase resets it; an Unopposed attack, a
    stand-off or two 0-Strength Equipment neither win nor lose.
    """

    key, title, role, path = "mindblade", "Mindblade", "aggressor", "mind"

    def after_skirmish(self, state, seat, won):
        commander = state["commanders"][seat]
        commander["streak"] = min(commander["streak"] + 1, 2) if won else 0

    def bonuses(self, state, seat, me, enemy):
        streak = state["commanders"][seat]["streak"]
        if not streak:
            return []
        return [(streak, (lines.MINDBLADE_WINS if streak > 1 else lines.MINDBLADE) % {"streak": streak})]
