"""Self-checks for Gridaris states: invariants and examples of refused actions.

``invariants`` lists what is wrong with a state (empty when it is sound): every card
exactly once across piles, hands and board stacks; owners are seats; battlefields
lie on the map; the phase agrees with the board, the hands and the turn; modifiers
only under Class Project/War and never beyond 5.

``illegal_examples`` gives actions the rules must refuse right now (wrong seat, card
not in hand, occupied or foreign battlefield, off the map, malformed fields, unknown
type, Rags to Riches violations, bad choices); simulate.py checks each is refused.
Rulings: docs/rulings.md.
"""

from __future__ import annotations

from collections import Counter

from ..kernel import GM
from . import maps
from .combat import MAX_MODIFIER
from .game import PHASES, VERSION, legal_actions, owned_cells, playable_cards, to_act


def invariants(state: dict) -> list[str]:
    problems: list[str] = []
    if state.get("v") != VERSION:
        return [f"unknown state version {state.get('v')!r}"]
    count = len(state["players"])
    places = Counter(
        [card_id for pile in state["decks"].values() for card_id in pile]
        + [card_id for hand in state["hands"] for card_id in hand]
        + [card_id for cell in state["board"].values() for card_id in cell["stack"]]
    )
    for card_id in state["cards"]:
        if places[card_id] != 1:
            problems.append(f"card {card_id} is in {places[card_id]} places")
    strangers = sorted(set(places) - set(state["cards"]))
    if strangers:
        problems.append(f"unknown cards {strangers[:3]}")
    phase = state["phase"]
    if phase not in PHASES:
        problems.append(f"unknown phase {phase!r}")
        return problems
    map_key = state["map"]
    if phase != "choose_map" and map_key not in maps.MAPS:
        problems.append(f"phase {phase} without a map")
        return problems
    for cell_key, cell in state["board"].items():
        if not maps.on_map(map_key, cell_key):
            problems.append(f"battlefield {cell_key} is not on the {map_key} map")
        if not cell["stack"]:
            problems.append(f"battlefield {cell_key} has no card")
        if cell["owner"] not in range(count):
            problems.append(f"battlefield {cell_key} has owner {cell['owner']!r}")
        if abs(cell["modifier"]) > MAX_MODIFIER or (
                cell["modifier"] and not {"class_project", "class_war"} & set(state["active"])):
            problems.append(f"battlefield {cell_key} has modifier {cell['modifier']}")
        if len(cell["stack"]) > 1 and phase not in ("reinforcement", "over"):
            problems.append(f"battlefield {cell_key} is covered before the Reinforcement Phase")
    full = map_key is not None and len(state["board"]) == len(maps.MAPS[map_key]["cells"])
    if phase in ("choose_map", "placement") and full:
        problems.append(f"phase {phase} with a full board")
    if phase in ("choose_order", "reinforcement", "over") and not full:
        problems.append(f"phase {phase} with empty battlefields")
    if phase == "choose_map" and state["board"]:
        problems.append("cards on the board before the map is chosen")
    deciding = to_act(state)
    if phase == "over":
        if deciding or state["result"] is None:
            problems.append("a finished game still has someone to act or no result")
    elif not legal_actions(state):
        problems.append(f"phase {phase}: {deciding} must act but has no legal action")
    for seat in deciding:
        if seat != GM and state["out"][seat]:
            problems.append(f"seat {seat} is out of the game but must act")
    for seat, is_out in enumerate(state["out"]):
        if is_out and owned_cells(state, seat):
            problems.append(f"seat {seat} is out of the game but controls battlefields")
    return problems


def illegal_examples(state: dict) -> list[dict]:
    count, phase = len(state["players"]), state["phase"]
    some_card = next(iter(state["cards"]))
    if phase == "over":
        return [{"type": "place", "seat": 0, "card": some_card, "cell": "0,0"},
                {"type": "order", "seat": 0, "go": "first"}]
    examples: list[dict] = [
        {"type": "pass", "seat": 0},
        {"type": "place", "seat": count, "card": some_card, "cell": "0,0"},
        {"type": "place", "seat": "x", "card": some_card, "cell": "0,0"},
    ]
    if phase == "choose_map":
        return examples + [
            {"type": "map", "seat": GM, "map": "nowhere"},
            {"type": "map", "seat": 0, "map": state["map_options"][0]},
            {"type": "place", "seat": state["first"], "card": state["hands"][state["first"]][0], "cell": "0,0"},
        ]
    if phase == "choose_order":
        chooser = state["chooser"]
        return examples + [
            {"type": "order", "seat": chooser, "go": "middle"},
            {"type": "order", "seat": (chooser + 1) % count, "go": "first"},
            {"type": "map", "seat": GM, "map": state["map"]},
        ]
    seat = state["turn"]
    hand, cells = state["hands"][seat], maps.cell_keys(state["map"])
    open_cells = [key for key in cells if key not in state["board"]] if phase == "placement" \
        else owned_cells(state, seat)
    good_card, good_cell = playable_cards(state, seat)[0], open_cells[0]
    other = (seat + 1) % count
    foreign = [card_id for index, other_hand in enumerate(state["hands"]) if index != seat for card_id in other_hand]
    foreign += [card_id for pile in state["decks"].values() for card_id in pile]
    examples += [
        {"type": "place", "seat": other, "card": good_card, "cell": good_cell},
        {"type": "place", "seat": seat, "card": good_card, "cell": "9,9"},
        {"type": "place", "seat": seat, "card": good_card, "cell": "nowhere"},
        {"type": "place", "seat": seat, "card": None, "cell": good_cell},
        {"type": "order", "seat": seat, "go": "first"},
    ]
    if foreign:
        examples.append({"type": "place", "seat": seat, "card": foreign[0], "cell": good_cell})
    holes = [maps.key(r, c) for r in range(maps.MAPS[state["map"]]["rows"])
             for c in range(maps.MAPS[state["map"]]["cols"]) if (r, c) not in maps.MAPS[state["map"]]["cells"]]
    if holes:
        examples.append({"type": "place", "seat": seat, "card": good_card, "cell": holes[0]})
    refused_cells = [key for key in cells if key in state["board"]] if phase == "placement" \
        else [key for key in cells if key not in open_cells]
    if refused_cells:
        examples.append({"type": "place", "seat": seat, "card": good_card, "cell": refused_cells[0]})
    too_rich = [card_id for card_id in hand if card_id not in playable_cards(state, seat)]
    if too_rich:
        examples.append({"type": "place", "seat": seat, "card": too_rich[0], "cell": good_cell})
    return examples
