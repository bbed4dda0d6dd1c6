"""Values, attack power and damage on the GOT'M battlefield.

A squad is a fixed row of slots ``{"card", "wounded", "dead", "artifact", "pulled",
"skin", "infirmary"}``; positions never change and dead cards stay in place (flipped),
so "adjacent" always means the neighbouring position, and only living cards count.

* Value = base value + 2 while wearing an artifact + 1 per living adjacent wearer
  (Ancestral Guidance; auras stack, ruling). The bonus grants no new properties:
  shields, elites, tanks and classes are read from the printed rank.
* AP = value + racial bonus (Inspiring Presence/Enrage): fixed at the reveal, +1 for
  each of two cards sharing a race, +2 for all when a full squad of three shares one;
  +1 more for each fallen member of that race in this combat.
* AP check: AP >= value kills; a shortfall of 1-7 wounds (a wounded card dies);
  8 or more leaves the target unharmed.
* Ability damage (Cleaving Attack, Chain Lightning), no AP check: an artifact
  wearer is unharmed, value 5 or lower dies, others are wounded (a wounded card dies).
* Hardened Skin: the first damaging hit a leader takes in the skirmish only wounds
  it if it would kill, and does nothing if it would only wound.
"""

from __future__ import annotations

from ..words import phrase
from . import cards
from .common import event, player

# What a hit does to a card, at the end of the line that says what hit it (combat.py's HITS and others).
SKIN_SURVIVES = phrase("Hardened Skin, it survives wounded")
SKIN_UNHARMED = phrase("Hardened Skin, it is unharmed")
KILLED = phrase("killed")
WOUNDED = phrase("wounded")
UNHARMED = phrase("unharmed")

KILL, WOUND, NONE = "kill", "wound", "none"


def slot(card: str, from_infirmary: bool) -> dict:
    return {"card": card, "wounded": False, "dead": False, "artifact": None, "pulled": False,
            "skin": False, "infirmary": from_infirmary}


def living(state: dict, seat: int) -> list[int]:
    return [pos for pos, s in enumerate(state["squads"][seat]) if not s["dead"]]


def neighbours(state: dict, seat: int, pos: int) -> list[int]:
    squad = state["squads"][seat]
    return [p for p in (pos - 1, pos + 1) if 0 <= p < len(squad) and not squad[p]["dead"]]


def value(state: dict, seat: int, pos: int) -> int:
    squad = state["squads"][seat]
    total = cards.value(squad[pos]["card"])
    if squad[pos]["artifact"] and not squad[pos]["dead"]:
        total += 2
    total += sum(1 for p in neighbours(state, seat, pos) if squad[p]["artifact"])
    return total


def racial_bonus(state: dict, seat: int, pos: int) -> int:
    race = cards.suit(state["squads"][seat][pos]["card"])
    base = state["bonus"][seat].get(race, 0)
    return base + state["fallen"][seat].get(race, 0) if base else 0


def ap(state: dict, seat: int, pos: int) -> int:
    return value(state, seat, pos) + racial_bonus(state, seat, pos)


def compute_bonus(squad: list[dict]) -> dict:
    counts: dict[str, int] = {}
    for s in squad:
        race = cards.suit(s["card"])
        counts[race] = counts.get(race, 0) + 1
    if len(squad) == 3 and len(counts) == 1:
        return {race: 2 for race in counts}
    return {race: 1 for race, count in counts.items() if count >= 2}


def check(attack_power: int, target_value: int) -> str:
    shortfall = target_value - attack_power
    if shortfall <= 0:
        return KILL
    return WOUND if shortfall <= 7 else NONE


def ability_effect(state: dict, seat: int, pos: int) -> str:
    target = state["squads"][seat][pos]
    if target["artifact"]:
        return NONE
    return KILL if value(state, seat, pos) <= 5 else WOUND


def can_kill(state: dict, attack_power: int, seat: int, pos: int) -> bool:
    effect = check(attack_power, value(state, seat, pos))
    return effect == KILL or (effect == WOUND and state["squads"][seat][pos]["wounded"])


def damage(state: dict, seat: int, pos: int, effect: str, source: tuple[str, dict], dropped: list[int]) -> None:
    """Apply ``effect`` to a card, with wounds, Hardened Skin and deaths; log it. ``source`` is what hit it: the
    line's template (it ends with the target and the outcome) and its values."""
    target = state["squads"][seat][pos]
    template, values = source
    values = {**values, "foe": player(state, seat), "target": cards.name(target["card"])}
    if effect == WOUND and target["wounded"]:
        effect = KILL
    if cards.rank(target["card"]) == "K" and not target["skin"] and effect != NONE:
        target["skin"] = True
        if effect == KILL:
            target["wounded"] = True
            event(state, template % {**values, "outcome_words": SKIN_SURVIVES})
        else:
            event(state, template % {**values, "outcome_words": SKIN_UNHARMED})
        return
    if effect == KILL:
        kill(state, seat, pos, dropped)
        event(state, template % {**values, "outcome_words": KILLED})
    elif effect == WOUND:
        target["wounded"] = True
        event(state, template % {**values, "outcome_words": WOUNDED})
    else:
        event(state, template % {**values, "outcome_words": UNHARMED})


def kill(state: dict, seat: int, pos: int, dropped: list[int]) -> None:
    target = state["squads"][seat][pos]
    target["dead"] = True
    target["pulled"] = False
    race = cards.suit(target["card"])
    state["fallen"][seat][race] = state["fallen"][seat].get(race, 0) + 1
    if target["artifact"]:
        dropped.append(pos)


def pickup_candidates(state: dict, seat: int, pos: int) -> list[int]:
    """Adjacent living allies of the artifact's race not already wearing one."""
    squad = state["squads"][seat]
    artifact = squad[pos]["artifact"]
    if not artifact or not squad[pos]["dead"]:
        return []
    return [p for p in neighbours(state, seat, pos)
            if not squad[p]["artifact"] and cards.suit(squad[p]["card"]) == cards.suit(artifact)]
