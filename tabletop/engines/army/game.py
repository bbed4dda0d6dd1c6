"""Set-up, who acts and the legal actions of an Army battle.

Set-up: every participating card goes to its commander's hand (power-granted units
too: the Chirurgeon's Alchemy Lab, the Chaplain's Mediating Chaplain). Starting
Morale = 3 + floor(progression / 2) (or the config's ``morale``, carried from an
earlier battle that Day -- ruling AR11); a Base's bonus Morale is kept apart for the
defending commander. A commander chosen at random (``rng.randint(0, 1)``) will decide
who takes the first turn. First the pre-battle decisions (the Tactician's benefit;
the Oathbound's designation and the Dervish's target; the Mender's reveal), then
``choose_first``, then the first Phase.
"""

from __future__ import annotations

from . import lines
from .choices import options
from .common import event
from .config import validate
from .powers import POWERS
from .steps import advance

VERSION = 1
PHASES = ("before", "first", "second", "over")


def new_uses() -> dict:
    return {"evoker": 0, "illusionist": 0, "shapeshifter": 0, "etherealist": 0, "cleric": 0,
            "rituals": 0, "rituals_phase": 0, "battlemage_phase": False}


def setup(config: dict, rng) -> dict:
    clean = validate(config)
    cards: dict[str, dict] = {}
    piles = []
    for seat, side in enumerate(clean["units"]):
        for card in side:
            cards[card["id"]] = {**card, "owner": seat, "granted": False}
        piles.append({"hand": [card["id"] for card in side], "exhausted": [], "disabled": [], "killed": []})
    commanders = []
    for seat, raw in enumerate(clean["commanders"]):
        start = 3 + raw["progression"] // 2
        base = clean["base_morale"] if clean["defender"] == seat else 0
        commanders.append({
            "name": raw["name"], "kind": raw["kind"], "progression": raw["progression"],
            "favors": raw["favors"], "influence_halves": raw["influence_halves"],
            "role": raw["role"], "path": raw["path"], "power": raw["power"], "benefit": raw["power"],
            "options": raw["options"], "start_morale": start,
            "morale": raw["morale"] if raw["morale"] is not None else start,
            "base": base, "base_start": base, "base_used": 0, "routed": False,
            "spent": {"favors": 0, "influence_halves": 0, "morale": 0}, "uses": new_uses(),
            "oath": None, "dervish": raw["options"].get("dervish_target"), "streak": 0,
        })
    state = {
        "v": VERSION, "game": "army", "players": clean["players"], "dice": clean["dice"],
        "cards": cards, "commanders": commanders, "piles": piles, "used": [[], []],
        "phase": "before", "chooser": rng.randint(0, 1), "first": None, "active": None,
        "last_defender": None, "pass_run": [], "number": 0, "skirmish": None, "step": None, "tasks": [],
        "routing": None, "forced_dice": [], "gm_next": [], "phase_effects": [[], []],
        "killed_log": [], "revived": [], "revealed": [[], []], "last": None, "events": [], "result": None,
    }
    for seat in (0, 1):
        c = commanders[seat]
        event(state, (lines.COMMANDS_BASE if c["base"] else lines.COMMANDS) % {
            "commander": c["name"], "player": state["players"][seat], "power": POWERS[c["power"]].title,
            "morale": c["morale"], "base": c["base"]})
        POWERS[c["power"]].on_setup(state, seat)
    prebattle = [(POWERS[commanders[seat]["power"]].prebattle_order, seat, task)
                 for seat in (0, 1) for task in POWERS[commanders[seat]["power"]].prebattle(state, seat)]
    state["tasks"] = [task for _, _, task in sorted(prebattle, key=lambda item: (item[0], item[1]))]
    state["tasks"].append({"do": "choose_first"})
    event(state, lines.CHOSEN % {"commander": commanders[state["chooser"]]["name"]})
    advance(state, rng)
    return state


def to_act(state: dict) -> list:
    step = state["step"]
    return [] if step is None or state["phase"] == "over" else [step["seat"]]


def legal_actions(state: dict) -> list[dict]:
    return [action for action, _ in options(state)]
