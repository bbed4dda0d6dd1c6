"""Combat: attacks, defence, retaliation, lashing out (both ways), traps and killed monsters.

``state["combat"]`` is the fight being resolved: who strikes (``"monster"``, ``"merc"`` or a
``"trap"``), the monster and mercenary, melee or ranged, whether it is a lash-out or a
retaliation, the cards played into it and the stage. ``state["lash"]`` holds the monsters
still to lash out at a retreating mercenary; ``state["leaving"]`` the mercenaries who may
lash out at a monster moving away; ``state["trap"]`` the mercenaries a trap still has to hit.
"""

from __future__ import annotations

from . import lines
from .board import (
    able,
    adjacent,
    card,
    category,
    event,
    monster,
    monster_defence,
    monster_value,
    named,
    on_board,
    skill_cards,
    stats,
)
from .status import inflict

MONSTER_ORDER = {"melee": 0, "champion": 1, "ranged": 2}


def merc_defence(state, merc) -> int:
    """The Skill Defence cards lying in front of the mercenary (its card prints no Defence Value)."""
    return sum(stats(state, c)["value"] for c in merc["defence"])


def defence_cards(state, merc, lash) -> list[str]:
    """Cards that may defend: Skill Defence, and Skill Melee at their printed value against a lash-out."""
    kinds = ("defence", "melee") if lash else ("defence",)
    return [c for c in merc["hand"] if card(state, c)["kind"] == "skill" and stats(state, c)["skill"] in kinds]


def monster_attacks(state, mid, merc_index, kind, lash=False, retaliation=False):
    state["combat"] = {"who": "monster", "monster": mid, "merc": merc_index, "kind": kind, "lash": lash,
                       "retaliation": retaliation, "cards": [], "stage": "defend"}


def merc_strikes(state, merc_index, mid, *, lash=False, retaliation=False) -> dict:
    """A mercenary's melee strike outside its own attack (a retaliation or a lash-out): it picks cards next."""
    state["combat"] = {"who": "merc", "monster": mid, "merc": merc_index, "kind": "melee", "lash": lash,
                       "retaliation": retaliation, "cards": [], "stage": "cards"}
    merc = state["mercs"][merc_index]
    return {"type": "attack", "seat": merc["owner"], "merc": merc_index, "kind": "melee", "target": mid, "cards": []}


def _suffer(state, merc, attack, cards) -> int:
    """Wounds from ``attack`` after the Skill Defence cards in front of the mercenary and the melee cards just
    played against a lash-out; the defence was successful when the Skill Defence cards saved a wound (D22)."""
    melee = sum(stats(state, c)["value"] for c in cards)
    unblocked = max(0, attack - melee)
    wounds = max(0, unblocked - merc_defence(state, merc))
    if wounds < unblocked:
        merc["defended"] = True
    merc["health"] -= wounds
    merc["discard"] += cards
    cards.clear()
    return wounds


def step_combat(state) -> None:
    cb = state["combat"]
    merc = state["mercs"][cb["merc"]]
    if cb["who"] == "merc":
        _merc_hits(state, cb, merc)
        return
    if cb["stage"] == "defend":
        cb["stage"] = "resolve"
        if defence_cards(state, merc, cb["lash"]):
            state["pending"] = {"type": "defend", "seat": merc["owner"], "merc": cb["merc"]}
            return
    if cb["stage"] != "resolve":  # a retaliation was offered and declined or is over
        end_combat(state)
        return
    if cb["who"] == "trap":
        wounds = _suffer(state, merc, cb["amount"], cb["cards"])
        event(state, lines.TRAP_WOUNDS % {"card": named(state, cb["card"]), "merc": merc["name"], "wounds": wounds,
                                         "health": merc["health"]})
        end_combat(state)
        return
    m = monster(state, cb["monster"])
    wounds = _suffer(state, merc, monster_value(state, m, cb["kind"]), cb["cards"])
    m["acted"] = True
    how = "lash" if cb["lash"] else "retaliation" if cb["retaliation"] else "attack"
    event(state, lines.MONSTER_HITS[how] % {"monster": named(state, m["id"]), "merc": merc["name"], "wounds": wounds,
                                            "health": merc["health"]})
    if wounds and inflict(merc, stats(state, m["id"])):
        event(state, lines.IS_STATUS[stats(state, m["id"])["status"]] % {"name": merc["name"]})
    if not cb["lash"] and not cb["retaliation"] and able(merc) and adjacent(m["pos"], merc["pos"]) \
            and skill_cards(state, merc, "melee"):
        state["pending"] = {"type": "retaliate", "seat": merc["owner"], "merc": cb["merc"], "monster": m["id"]}
        cb["stage"] = "offered"
        return
    end_combat(state)


def _merc_hits(state, cb, merc) -> None:
    """A mercenary's attack with its cards chosen: wounds, EXP, the monster's retaliation, a kill."""
    m = monster(state, cb["monster"])
    played = list(cb["cards"])
    attack = sum(stats(state, c)["value"] for c in played)  # only Skill cards make an attack (D21)
    wounds = max(0, attack - monster_defence(state, m))
    m["wounds"] += wounds
    merc["discard"] += cb["cards"]
    cb["cards"] = []
    merc["acted"] = True
    killed = m["wounds"] >= stats(state, m["id"])["health"]
    if wounds and not killed:
        merc["exp"] += 1
    how = "retaliation" if cb["retaliation"] else "lash" if cb["lash"] else "attack"
    event(state, lines.MERC_HITS[how] % {"merc": merc["name"], "monster": named(state, m["id"]), "wounds": wounds})
    for name in sorted({inflict(m, stats(state, c)) for c in played} - {None}) if wounds and not killed else ():
        event(state, lines.IS_STATUS[name] % {"name": named(state, m["id"])})
    state["combat"] = None
    if killed:
        state.setdefault("dying", []).append([m["id"], cb["merc"]])
    if not cb["retaliation"] and not cb["lash"] and not m["acted"] and adjacent(m["pos"], merc["pos"]):
        monster_attacks(state, m["id"], cb["merc"], "melee", retaliation=True)
        return
    bury(state)


def end_combat(state) -> None:
    state["combat"] = None
    bury(state)


def bury(state) -> None:
    """Killed monsters leave after the combat: into the killer's discard pile, with their EXP."""
    for mid, killer in state.pop("dying", []):
        m = monster(state, mid)
        state["board"].remove(m)
        merc = state["mercs"][killer]
        merc["discard"].append(mid)
        merc["exp"] += stats(state, mid)["exp"]
        merc["killed"] = True
        gained = stats(state, mid)["exp"]
        event(state, lines.KILLS % {"merc": merc["name"], "monster": named(state, mid), "exp": gained})
        if state["mstep"] and state["mstep"]["todo"] and mid in state["mstep"]["todo"]:
            state["mstep"]["todo"].remove(mid)


# --- a mercenary moves away: monsters lash out ------------------------------------------------


def start_retreat(state, merc_index, dest) -> None:
    merc = state["mercs"][merc_index]
    lashers = [m for m in state["board"] if adjacent(m["pos"], merc["pos"]) and not adjacent(m["pos"], dest)
               and not m["acted"]]
    lashers.sort(key=lambda m: (MONSTER_ORDER[category(state, m["id"])], -stats(state, m["id"])["health"], m["id"]))
    state["lash"] = {"merc": merc_index, "dest": list(dest), "monsters": [m["id"] for m in lashers]}


def step_lash(state) -> None:
    lash = state["lash"]
    if lash["monsters"]:
        monster_attacks(state, lash["monsters"].pop(0), lash["merc"], "melee", lash=True)
        return
    merc = state["mercs"][lash["merc"]]
    merc["pos"] = list(lash["dest"])
    state["lash"] = None
    event(state, lines.MOVES_TO % {"name": merc["name"], "row": merc["pos"][0] + 1, "column": merc["pos"][1] + 1})


# --- a monster moves away: mercenaries may lash out -------------------------------------------


def start_leaving(state, m, square) -> None:
    """A monster moves to ``square``; every able mercenary it leaves behind may lash out first."""
    placed = [i for i in state["this_turn"] if state["mercs"][i]["pos"] is not None]
    left = [i for i in placed if adjacent(m["pos"], state["mercs"][i]["pos"])
            and not adjacent(square, state["mercs"][i]["pos"])]
    state["leaving"] = {"monster": m["id"], "dest": list(square), "mercs": left}


def step_leaving(state) -> None:
    leaving = state["leaving"]
    if not on_board(state, leaving["monster"]):
        state["leaving"] = None  # killed by a lash-out: it goes nowhere
        return
    m = monster(state, leaving["monster"])
    while leaving["mercs"]:
        index = leaving["mercs"].pop(0)
        merc = state["mercs"][index]
        if able(merc) and adjacent(m["pos"], merc["pos"]) and skill_cards(state, merc, "melee"):
            state["pending"] = {"type": "lash_out", "seat": merc["owner"], "merc": index, "monster": m["id"]}
            return
    state["leaving"] = None
    m["pos"] = list(leaving["dest"])
    event(state, lines.MOVES_TO % {"name": named(state, m["id"]), "row": m["pos"][0] + 1, "column": m["pos"][1] + 1})


# --- traps ------------------------------------------------------------------------------------


def step_trap(state) -> None:
    trap = state["trap"]
    if not trap["mercs"]:
        state["trap"] = None
        return
    state["combat"] = {"who": "trap", "card": trap["card"], "amount": trap["amount"], "merc": trap["mercs"].pop(0),
                       "lash": False, "retaliation": False, "cards": [], "stage": "defend"}
