"""Card effects: discards, discard powers and Rituals.

* "Discard: unless otherwise indicated, ... you place it in your Disabled pile from
  your hand." ``discard`` does that and lets the commander's power react (the
  Battlemage's 5+). The Oathbound's designated unit is "only Exhausted" when it
  would be Disabled, a discard included (ruling AR21).
* Discard powers (``discard_bonus``, ``discard_heal``) are used from hand in a
  reaction window of a skirmish (abilities.py). A discard power may return any card of
  the piles within its Strength limit, one with a return power of its own included
  (ruling AR31: "normally usable once per Battle"; the withdrawn AR30 refused it): two
  such cards may return each other, and the window ends when its position comes round a
  third time (AR32, skirmish.py).
* Rituals: "Only two cards with the Ritual role may be played by a commander each
  Battle, one per Phase. To use a Ritual, an Army must include at least two units
  with a matching Path." Ruling AR12: the army is every non-Ritual card the commander
  brought to this battle, wherever it is now (power-granted units included); a
  Ritual is played during its commander's Offense decision or in a reaction window,
  and is then discarded (Disabled pile). The Animist may play two per Phase.
"""

from __future__ import annotations

from ..words import Words, gettext_noop
from . import abilities, lines
from .common import event, gain_morale, lose_morale, move, name, other, strength_of
from .powers import enemy_disable, power_of, protected_fate, uses


def discard(state: dict, seat: int, card_id: str) -> None:
    """To the Disabled pile -- unless the Oathbound's designated unit is "only Exhausted" (AR21)."""
    fate = protected_fate(state, card_id, "disabled", "discard")
    move(state, card_id, fate)
    if fate != "disabled":
        event(state, lines.DISCARD_OATHBOUND % {"name": name(state, seat), "card": state["cards"][card_id]["name"]})
    power_of(state, seat).on_discard(state, seat, card_id)


def heal_targets(state: dict, seat: int, limit: int | None, exclude: str | None = None) -> list[str]:
    """Cards of ``seat``'s Disabled and Exhausted piles of Strength ``limit`` or less."""
    piles = state["piles"][seat]
    return [card_id for card_id in piles["disabled"] + piles["exhausted"]
            if card_id != exclude and (limit is None or strength_of(state["cards"][card_id]) <= limit)]


def use_discard(state: dict, seat: int, card_id: str, index: int, side: str | None, target: str | None) -> None:
    card = state["cards"][card_id]
    ability = card["abilities"][index]
    discard(state, seat, card_id)
    if ability["kind"] == "discard_bonus":
        unit = state["cards"][state["skirmish"][side]["card"]]
        source = lines.DISCARDED_BY % {"card": card["name"], "name": name(state, seat)}
        state["skirmish"]["mods"].append({"side": side, "amount": ability["amount"], "source": source, "kind": "card"})
        event(state, lines.DISCARDS_BONUS[side] % {"name": name(state, seat), "card": card["name"],
                                                   "unit": unit["name"], "amount": f"{ability['amount']:+d}"})
    else:
        move(state, target, "hand")
        event(state, lines.HEALS % {"name": name(state, seat), "healer": card["name"],
                                    "card": state["cards"][target]["name"]})


def ritual_limits(state: dict, seat: int) -> tuple[int, int]:
    per_phase = power_of(state, seat).rituals_per_phase
    return per_phase, 2 * per_phase


def ritual_refusal(state: dict, seat: int, card_id: str) -> Words | None:
    """Why ``seat`` may not play this Ritual now, or None."""
    card = state["cards"][card_id]
    if card["role"] != "ritual":
        return Words(gettext_noop("%(card)s is not a Ritual."), card=card["name"])
    if state["phase"] not in ("first", "second"):
        return Words(gettext_noop("Rituals are played during the battle."))
    per_phase, per_battle = ritual_limits(state, seat)
    used = uses(state, seat)
    if used["rituals"] >= per_battle:
        return Words(gettext_noop("You have already played %(rituals)s Rituals this Battle."), rituals=per_battle)
    if used["rituals_phase"] >= per_phase:
        if per_phase > 1:
            return Words(gettext_noop("You may play only %(rituals)s Rituals each Phase."), rituals=per_phase)
        return Words(gettext_noop("You may play only %(rituals)s Ritual each Phase."), rituals=per_phase)
    army = sum(1 for other_card in state["cards"].values() if other_card["owner"] == seat
               and other_card["role"] != "ritual" and other_card["path"] == card["path"])
    if army < 2:
        return Words(gettext_noop("%(card)s needs at least two units of the Path of %(path)s in your army; you "
                                  "have %(army)s."), card=card["name"], path=card["path"].title(), army=army)
    return None


def ritual_targets(state: dict, seat: int, card_id: str) -> list[str | None]:
    """The targets a Ritual may be played with ([None] when it needs none, [] when it cannot be)."""
    card = state["cards"][card_id]
    if not abilities.has(card, "ritual_disable"):
        return [None]
    targets: list[str | None] = list(state["piles"][other(seat)]["exhausted"])
    if not targets and len(card["abilities"]) > 1:
        targets = [None]
    return targets


def play_ritual(state: dict, seat: int, card_id: str, target: str | None) -> None:
    card = state["cards"][card_id]
    used = uses(state, seat)
    used["rituals"] += 1
    used["rituals_phase"] += 1
    event(state, lines.PLAYS_RITUAL % {"name": name(state, seat), "card": card["name"]})
    discard(state, seat, card_id)
    enemy = other(seat)
    for ability in card["abilities"]:
        kind = ability["kind"]
        if kind == "ritual_morale":
            gain_morale(state, seat, ability["amount"], card["name"])
        elif kind == "ritual_bonus":
            state["phase_effects"][seat].append({"amount": ability["amount"], "source": card["name"]})
            event(state, lines.UNITS_ADD % {"name": name(state, seat), "amount": ability["amount"]})
        elif kind == "ritual_disable" and target is not None:
            enemy_disable(state, target, card["name"])
        elif kind == "ritual_damage":
            lose_morale(state, enemy, ability["amount"], card["name"])
