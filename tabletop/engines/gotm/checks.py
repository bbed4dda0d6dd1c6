"""Self-checks for GOT'M states: invariants, examples of refused actions, random configs.

``invariants``: every one of the 52 cards is in exactly one place (camp, merchant,
bank, spent pile, graveyard, hands, infirmaries, ears, the shop, squads and the
artifacts worn or dropped there); each pile holds only its kind of card; artifacts
sit on cards of their race; the phase agrees with squads, shop and result.

``illegal_examples``: the deciding seat's moves made by the other seat, an unknown
type, cards that are not the player's, attacks with missing or spent cards, and a
non-tank target while a tank stands; simulate.py checks each one is refused.
"""

from __future__ import annotations

from collections import Counter

from . import battle, cards
from .game import PHASES, VERSION, legal_actions, to_act


def _places(state: dict) -> Counter:
    found = list(state["camp"]) + state["merchant"] + state["bank"] + state["spent"] + state["graveyard"]
    for seat in (0, 1):
        found += state["hands"][seat] + state["infirmary"][seat] + state["ears"][seat]
        for s in state["squads"][seat]:
            found.append(s["card"])
            if s["artifact"]:
                found.append(s["artifact"])
    found += [card for card in state["shop"]["mercenaries"] if card]
    if state["shop"]["artifact"]:
        found.append(state["shop"]["artifact"])
    return Counter(found)


def invariants(state: dict) -> list[str]:
    if state.get("v") != VERSION:
        return [f"unknown state version {state.get('v')!r}"]
    problems = []
    places = _places(state)
    for card in cards.ALL_CARDS:
        if places[card] != 1:
            problems.append(f"card {card} is in {places[card]} places")
    strangers = sorted(set(places) - set(cards.ALL_CARDS))
    if strangers:
        problems.append(f"unknown cards {strangers[:3]}")
    if not all(cards.is_mercenary(c) for c in state["camp"]):
        problems.append("the camp holds a card that is not a mercenary")
    if not all(cards.is_artifact(c) for c in state["merchant"]):
        problems.append("the merchant holds a card that is not an artifact")
    if not all(cards.is_resource(c) for c in state["bank"] + state["spent"]):
        problems.append("the bank or the spent pile holds a card that is not a resource")
    phase = state["phase"]
    if phase not in PHASES:
        return problems + [f"unknown phase {phase!r}"]
    for seat in (0, 1):
        squad = state["squads"][seat]
        if len(squad) > 3:
            problems.append(f"seat {seat} has {len(squad)} cards in its squad")
        for s in squad:
            if s["artifact"] and cards.suit(s["artifact"]) != cards.suit(s["card"]):
                problems.append(f"{s['artifact']} is worn by {s['card']} of another race")
            if cards.is_artifact(s["card"]):
                problems.append(f"the artifact {s['card']} stands in a squad")
        if phase in ("recruit", "over") and squad:
            problems.append(f"seat {seat} has a squad outside combat")
        if phase == "combat" and not battle.living(state, seat):
            problems.append(f"combat goes on although seat {seat} has lost its squad")
        if phase in ("equip", "combat") and not any(cards.is_mercenary(s["card"]) for s in squad):
            problems.append(f"seat {seat} fights without a mercenary")
    if phase not in ("recruit", "over") and (any(state["shop"]["mercenaries"]) or state["shop"]["artifact"]):
        problems.append("the shop is open outside recruitment")
    if (phase == "over") != (state["result"] is not None):
        problems.append("the result and the phase disagree")
    if phase != "over" and not legal_actions(state):
        problems.append("nobody can act but the game is not over")
    return problems


def illegal_examples(state: dict) -> list[dict]:
    examples: list[dict] = [{"type": "teleport", "seat": 0}, {"type": "done"}]
    deciding = to_act(state)
    if not deciding:
        return examples + [{"type": "skip", "seat": 0}]
    legal = legal_actions(state)
    idle = [seat for seat in (0, 1) if seat not in deciding]
    if idle and legal:
        examples.append({**legal[0], "seat": idle[0]})
    seat = deciding[0]
    foe = 1 - seat
    phase = state["phase"]
    if phase == "recruit":
        theirs = [c for c in state["hands"][foe] if cards.is_resource(c)]
        examples.append({"type": "hire", "seat": seat, "card": "JC", "pay": theirs[:2]})
        shown = [c for c in state["shop"]["mercenaries"] if c]
        if shown:
            examples.append({"type": "hire", "seat": seat, "card": shown[0], "pay": []})
            examples.append({"type": "swap", "seat": seat, "give": "2C", "card": shown[0]})
    elif phase == "squad":
        if state["hands"][foe]:
            examples.append({"type": "deploy", "seat": seat, "card": state["hands"][foe][0]})
        examples.append({"type": "deploy", "seat": seat, "card": "AS"})
    elif phase == "equip":
        examples.append({"type": "equip", "seat": seat, "card": "AH", "slot": 7})
    elif phase == "combat" and not state["pending"]:
        examples.append({"type": "attack", "seat": seat, "attacker": 5, "target": 0, "cleave": None})
        pulled = [p for p, s in enumerate(state["squads"][seat]) if s["pulled"] and not s["dead"]]
        if pulled:
            examples.append({"type": "attack", "seat": seat, "attacker": pulled[0], "target": 0, "cleave": None})
        tanks = [p for p in battle.living(state, foe) if cards.is_tank(state["squads"][foe][p]["card"])]
        others = [p for p in battle.living(state, foe) if p not in tanks]
        ready = [p for p in battle.living(state, seat) if not state["squads"][seat][p]["pulled"]]
        if tanks and others and ready:
            examples.append({"type": "attack", "seat": seat, "attacker": ready[0], "target": others[0],
                             "cleave": None})
    return examples


def random_config(rng) -> dict:
    return {"players": ["Ann", "Ben"], "series_game": rng.randint(0, 3)}
