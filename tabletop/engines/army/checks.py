"""Self-checks for Army battle states: invariants and examples of refused actions.

``invariants`` lists what is wrong with a state (empty when it is sound): every card
in exactly one place (a hand, a pile, the skirmish); nothing leaves the Killed pile
except by a power that allows it (the Cleric) or a GM override (``revived``);
Morale and Base Morale never below 0 and Base never above what the Base gave; a
routed commander only in a finished battle; the phase, the step and the skirmish
agree (an Offense decision has no skirmish, a Defense decision has an unrevealed
Offense card and no Defense card, a reaction window has a revealed skirmish ...);
every open decision has at least one legal action; ritual counts within the limits.

``illegal_examples`` gives actions the rules must refuse right now; simulate.py
checks that each is refused.
"""

from __future__ import annotations

from collections import Counter

from ..kernel import GM
from .common import PILES, SIDES, playable, total_morale
from .effects import ritual_limits
from .game import PHASES, VERSION, legal_actions

STEP_PHASES = {"choose_first": ("before",), "power": ("before", "second"), "offense": ("first", "second"),
               "defense": ("first", "second"), "react": ("first", "second"), "heal": ("first", "second"),
               "save": ("first", "second", "before"), "dice": ("before", "first", "second")}


def invariants(state: dict) -> list[str]:
    if state.get("v") != VERSION:
        return [f"unknown state version {state.get('v')!r}"]
    problems: list[str] = []
    places: Counter = Counter()
    for seat in (0, 1):
        for pile in PILES:
            for card_id in state["piles"][seat][pile]:
                places[card_id] += 1
                if state["cards"].get(card_id, {}).get("owner") != seat:
                    problems.append(f"card {card_id} is in seat {seat}'s {pile} but belongs to another")
    skirmish = state["skirmish"]
    if skirmish:
        for side in SIDES:
            if skirmish[side]:
                places[skirmish[side]["card"]] += 1
    for card_id in state["cards"]:
        if places[card_id] != 1:
            problems.append(f"card {card_id} is in {places[card_id]} places")
    strangers = sorted(set(places) - set(state["cards"]))
    if strangers:
        problems.append(f"unknown cards {strangers[:3]}")
    killed_now = {card_id for seat in (0, 1) for card_id in state["piles"][seat]["killed"]}
    pending = killed_now - set(state["killed_log"])
    step = state["step"]
    allowed_pending = set()
    if step and step["kind"] == "save":
        allowed_pending.add(step["card"])
    allowed_pending |= {task["card"] for task in state["tasks"] if task["do"] == "kill"}
    if pending - allowed_pending:
        problems.append(f"cards in a Killed pile without being Killed: {sorted(pending - allowed_pending)[:3]}")
    back = set(state["killed_log"]) - killed_now - set(state["revived"])
    if back:
        problems.append(f"cards left the Killed pile without a power or the GM: {sorted(back)[:3]}")
    for seat, commander in enumerate(state["commanders"]):
        if commander["morale"] < 0 or commander["base"] < 0:
            problems.append(f"seat {seat} has negative Morale")
        if commander["base"] + commander["base_used"] != commander["base_start"]:
            problems.append(f"seat {seat}'s Base Morale does not add up")
        if commander["routed"] and state["phase"] != "over" and state["routing"] is None:
            if not any(task["do"] in ("finish", "rout_roll", "rout_rolled", "kill", "roll")
                       for task in state["tasks"]) and not (step and step["kind"] in ("dice", "save", "power")):
                problems.append(f"seat {seat} is routed but the battle goes on")
        used = commander["uses"]
        per_phase, per_battle = ritual_limits(state, seat)
        if used["rituals"] > per_battle or used["rituals_phase"] > per_phase:
            problems.append(f"seat {seat} played too many Rituals")
        if used["evoker"] > 3 or used["illusionist"] > 2:
            problems.append(f"seat {seat} used a power too often")
    problems.extend(_flow_problems(state))
    return problems


def _flow_problems(state: dict) -> list[str]:
    problems = []
    phase, step, skirmish = state["phase"], state["step"], state["skirmish"]
    if phase not in PHASES:
        return [f"unknown phase {phase!r}"]
    if phase == "over":
        if step is not None or state["result"] is None or skirmish is not None:
            problems.append("a finished battle still has a decision, a skirmish or no result")
        return problems
    if step is None:
        return ["a battle in progress has no open decision"]
    kind = step["kind"]
    if phase not in STEP_PHASES.get(kind, ()):
        if not (kind in ("power", "heal", "dice", "save") and phase in ("before", "first", "second")):
            problems.append(f"decision {kind} in phase {phase}")
    if not legal_actions(state):
        problems.append(f"decision {kind}: {step['seat']} must act but has no legal action")
    if kind == "offense":
        if skirmish is not None:
            problems.append("an Offense decision during a skirmish")
        if not playable(state, step["seat"]):
            problems.append("an Offense decision for a commander who is Unable")
    if kind == "defense" and (not skirmish or skirmish["defense"] or skirmish["offense"]["revealed"]):
        problems.append("a Defense decision without a face-down Offense card waiting for it")
    if kind == "react" and (not skirmish or not skirmish["window"] or not skirmish["offense"]["revealed"]):
        problems.append("a reaction window without a revealed skirmish")
    if skirmish:
        if skirmish["offense"] is None:
            problems.append("a skirmish without an Offense card")
        if skirmish["unopposed"] and skirmish["defense"] is not None:
            problems.append("an Unopposed skirmish with a Defense card")
        if skirmish["defense"] and skirmish["defense"]["revealed"] != skirmish["offense"]["revealed"]:
            problems.append("only one of the skirmish cards is revealed")
    if kind == "dice" and step["seat"] != GM:
        problems.append("a dice decision that is not the GM's")
    for seat in (0, 1):
        if (total_morale(state, seat) == 0 and not state["commanders"][seat]["routed"] and phase != "before"
                and not any(each["routed"] for each in state["commanders"])):
            problems.append(f"seat {seat} has 0 Morale but is not Routed")
    return problems


def illegal_examples(state: dict) -> list[dict]:
    some_card = next(iter(state["cards"]))
    if state["phase"] == "over":
        return [{"type": "pass", "seat": 0}, {"type": "gm_morale", "seat": GM, "target": 0, "amount": -1}]
    step = state["step"]
    seat = step["seat"]
    examples: list[dict] = [
        {"type": "teleport", "seat": 0},
        {"type": "play", "seat": 2, "card": some_card},
        {"type": "play", "seat": "x", "card": some_card},
        {"type": "gm_morale", "seat": GM, "target": 5, "amount": 1},
        {"type": "gm_morale", "seat": 0, "target": 0, "amount": 1},
        {"type": "gm_modifier", "seat": GM, "side": "middle", "amount": 1},
        {"type": "gm_move_card", "seat": GM, "card": "no-such-card", "to": "hand"},
        {"type": "gm_set_dice", "seat": GM, "values": [7]},
        {"type": "roll", "seat": GM, "values": [0]},
        {"type": "roll", "seat": GM, "values": [7]},
    ]
    legal = legal_actions(state)
    if seat != GM:
        examples.append({**legal[0], "seat": 1 - seat})
        examples.append({"type": "play", "seat": seat, "card": "no-such-card"})
        foreign = [card_id for card_id in state["piles"][1 - seat]["hand"]]
        if foreign:
            examples.append({"type": "play", "seat": seat, "card": foreign[0]})
    else:
        examples.append({"type": "roll", "seat": GM, "values": [1] * (len(step["labels"]) - len(step["given"]) + 1)})
        examples.append({"type": "pass", "seat": 0})
    kind = step["kind"]
    if kind == "choose_first":
        examples.append({"type": "choose_first", "seat": seat, "first": 2})
    if kind in ("offense", "defense"):
        unplayable = [card_id for card_id in state["piles"][seat]["hand"] if card_id not in playable(state, seat)]
        if unplayable:
            examples.append({"type": "play", "seat": seat, "card": unplayable[0]})
        examples.append({"type": "decline", "seat": seat})
        examples.append({"type": "save", "seat": seat, "pay": "favor"})
    if kind == "react":
        examples.append({"type": "pass", "seat": seat})
        examples.append({"type": "play", "seat": seat, "card": (playable(state, seat) or [some_card])[0]})
    if kind == "save":
        commander = state["commanders"][seat]
        examples.append({"type": "save", "seat": seat, "pay": "morale" if commander["kind"] == "pc" else "favor"})
    if kind == "heal":
        cards = state["cards"]
        piles = state["piles"][seat]
        for healer in piles["hand"]:
            if cards[healer]["role"] != "healer":
                continue
            limit = 2 * (cards[healer]["strength"] or 0)
            for target in piles["disabled"] + piles["exhausted"]:
                if (cards[target]["strength"] or 0) > limit:
                    examples.append({"type": "heal", "seat": seat, "healer": healer, "card": target})
                    break
    return examples
