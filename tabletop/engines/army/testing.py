"""Test helpers: Army battles with chosen cards, commanders and scripted dice.

``card`` and ``commander`` make config entries in one line; ``battle`` runs the real
``setup`` (the random chooser scripted), applies the given pre-battle actions and
the choice of the first commander, and returns the state at the first decision of
the battle. ``act`` applies one action with scripted dice (a list, or a shared
``ScriptedRng`` so several actions can draw from one script) and checks that the
dice given were all used. ``decline_all`` declines reaction windows and Healer
steps until another decision comes. Not used by play.
"""

from __future__ import annotations

from ..kernel import GM, ScriptedRng
from . import actions, game
from .common import location

ANN, BEN = 0, 1


def card(card_id: str, strength: int | None = 2, role: str = "aggressor", path: str = "steel", traits=(),
         abilities=(), name: str | None = None, upkeep: int = 1) -> dict:
    return {"id": card_id, "name": name or card_id.title(), "strength": strength, "role": role, "path": path,
            "traits": list(traits), "abilities": [dict(a) for a in abilities], "upkeep": upkeep}


SOLDIER_BONUS = {"kind": "discard_bonus", "amount": 1, "target": "either"}


def commander(role: str = "aggressor", path: str = "faith", kind: str = "pc", progression: int = 4,
              favors: int = 0, influence_halves: int = 0, name: str | None = None, options=None,
              morale: int | None = None) -> dict:
    """Defaults to a Dervish whose target (the Path of Mind) no test card follows: no effect."""
    entry = {"name": name or f"{role.title()} of {path.title()}", "kind": kind, "progression": progression,
             "favors": favors, "influence_halves": influence_halves, "role": role, "path": path,
             "options": options if options is not None else {"dervish_target": {"path": "mind"}}}
    if morale is not None:
        entry["morale"] = morale
    return entry


def config(side0, side1, commanders=None, dice: str = "app", defender=None, base_morale: int = 0) -> dict:
    result = {"players": ["Ann", "Ben"], "dice": dice,
              "commanders": list(commanders) if commanders else [commander(name="Ann's commander"),
                                                                 commander(name="Ben's commander")],
              "units": [list(side0), list(side1)]}
    if defender is not None:
        result["defender"], result["base_morale"] = defender, base_morale
    return result


def battle(side0, side1, *, commanders=None, first: int = ANN, chooser: int = ANN, prebattle=(),
           setup_draws=(), dice: str = "app", defender=None, base_morale: int = 0) -> dict:
    """A battle at its first Offense decision (or wherever the given actions lead)."""
    state = game.setup(config(side0, side1, commanders, dice, defender, base_morale),
                       ScriptedRng([chooser, *setup_draws]))
    for action in prebattle:
        state = act(state, action)
    if state["step"] and state["step"]["kind"] == "choose_first":
        state = act(state, {"type": "choose_first", "seat": chooser, "first": first})
    return state


def act(state: dict, action: dict, dice=()) -> dict:
    rng = dice if isinstance(dice, ScriptedRng) else ScriptedRng(list(dice))
    new_state = actions.apply(state, action, rng)
    if not isinstance(dice, ScriptedRng):
        assert rng.remaining == 0, f"{rng.remaining} scripted dice were not used by {action!r}"
    return new_state


def play(state: dict, card_id: str, role: str | None = None, dice=()) -> dict:
    action = {"type": "play", "seat": state["step"]["seat"], "card": card_id}
    if role:
        action["role"] = role
    return act(state, action, dice)


def decline(state: dict, dice=()) -> dict:
    return act(state, {"type": "decline", "seat": state["step"]["seat"]}, dice)


def decline_all(state: dict, dice=()) -> dict:
    """Decline reaction windows and Healers until another decision; ``dice`` feed the rolls."""
    rng = ScriptedRng(list(dice))
    while state["step"] and state["step"]["kind"] in ("react", "heal", "power"):
        state = act(state, {"type": "decline", "seat": state["step"]["seat"]}, rng)
    assert rng.remaining == 0, f"{rng.remaining} scripted dice were not used"
    return state


def skirmish(state: dict, offense: str, defense: str | None, dice=(), offense_role=None, defense_role=None) -> dict:
    """Play ``offense`` and ``defense`` (None: pass on Defense), decline everything, roll ``dice``."""
    rng = ScriptedRng(list(dice))
    state = act(state, {"type": "play", "seat": state["step"]["seat"], "card": offense,
                        **({"role": offense_role} if offense_role else {})}, rng)
    if defense is None:
        state = act(state, {"type": "pass", "seat": state["step"]["seat"]}, rng)
    else:
        state = act(state, {"type": "play", "seat": state["step"]["seat"], "card": defense,
                            **({"role": defense_role} if defense_role else {})}, rng)
    while state["step"] and state["step"]["kind"] in ("react", "heal"):
        state = act(state, {"type": "decline", "seat": state["step"]["seat"]}, rng)
    assert rng.remaining == 0, f"{rng.remaining} scripted dice were not used"
    return state


def gm(state: dict, kind: str, dice=(), **fields) -> dict:
    return act(state, {"type": kind, "seat": GM, **fields}, dice)


def where(state: dict, card_id: str) -> str | None:
    return location(state, card_id)


def kinds(state: dict) -> set[str]:
    """The action types the deciding seat may use now."""
    return {action["type"] for action in game.legal_actions(state)}
