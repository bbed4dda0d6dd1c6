"""Status effects: poison, burn and webbed, on mercenaries and on monsters (ruling D24).

The rulebook names the effects and when they resolve ("If the player is currently under an
effect (poisoned, burn, webbed), now is the time their effects resolve"; "Effects on Monsters:
If any Monsters have effects on them (i.e. burn) now is the time to resolve them") and sends
what they do to the Adventure Book, which Muster does not have. So a card says what it
inflicts, as catalog data: a monster's ``status`` lands on the mercenary its attack wounds; a
Skill Melee or Skill Ranged card's ``status`` lands on the monster the attack wounds and
leaves alive. ``status_amount`` is the wounds poison or burn deal each time it resolves and
``status_turns`` how many times it resolves before it wears off.

* poison and burn: the victim suffers ``amount`` wounds, no defence (no attack to block);
* webbed: the victim cannot move that turn (a webbed ranged monster next to a mercenary
  stays and strikes in melee, as one that cannot get away).

A mercenary's effects resolve at the start of its own turn, before regeneration; a monster's
at the start of the Monster Turn. A monster killed by an effect goes to the Monster Discard
Pile: nobody gains its EXP or MVPs. Inflicting an effect the victim already has keeps the
larger amount and the longer duration. The end of an area removes every token from the
mercenaries, effects included.
"""

from __future__ import annotations

from . import lines
from .board import event, named, stats

STATUSES = ("poison", "burn", "webbed")
WOUNDING = ("poison", "burn")


def inflict(holder: dict, card_stats: dict) -> str | None:
    """Put the effect a card inflicts (if any) on ``holder`` (a mercenary or a monster); its name, or None."""
    name = card_stats.get("status")
    if name not in STATUSES:
        return None
    amount = card_stats.get("status_amount", 1 if name in WOUNDING else 0)
    turns = card_stats.get("status_turns", 1)
    held = holder.setdefault("status", {})
    old = held.get(name, {"amount": 0, "turns": 0})
    held[name] = {"amount": max(old["amount"], amount), "turns": max(old["turns"], turns)}
    return name


def _tick(holder: dict) -> list[tuple[str, int]]:
    """The effects that resolve now, as (name, amount), each one turn nearer to wearing off."""
    held = holder.get("status") or {}
    now = []
    for name in STATUSES:
        if name in held:
            now.append((name, held[name]["amount"]))
            held[name]["turns"] -= 1
            if held[name]["turns"] <= 0:
                del held[name]
    return now


def resolve_merc(state, merc) -> None:
    """The start of a mercenary's turn: its effects resolve (before regeneration)."""
    for name, amount in _tick(merc):
        if name in WOUNDING:
            merc["health"] -= amount
            event(state, lines.MERC_SUFFERS[name] % {"merc": merc["name"], "amount": amount, "health": merc["health"]})
        else:
            merc["moved"] = True
            event(state, lines.MERC_WEBBED % {"merc": merc["name"]})


def resolve_monsters(state) -> None:
    """The start of the Monster Turn: effects on monsters resolve; those they kill go to the Monster Discard Pile."""
    for m in list(state["board"]):
        m["webbed"] = False
        for name, amount in _tick(m):
            if name in WOUNDING:
                m["wounds"] += amount
                event(state, lines.MONSTER_SUFFERS[name] % {"monster": named(state, m["id"]), "amount": amount})
            else:
                m["webbed"] = True
                event(state, lines.MONSTER_WEBBED % {"monster": named(state, m["id"])})
        if m["wounds"] >= stats(state, m["id"])["health"]:
            state["board"].remove(m)
            state["monster_discard"].append(m["id"])
            event(state, lines.DIES_OF_WOUNDS % {"monster": named(state, m["id"])})


def clear(merc: dict) -> None:
    merc["status"] = {}
