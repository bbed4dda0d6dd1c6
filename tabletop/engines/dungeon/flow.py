"""The driver: run the game on until a seat must decide, and say who that is."""

from __future__ import annotations

from .anytime import window_seats
from .areas import end_turn, next_mercenary, step_feature, step_lead, step_place_mercs, step_spawn
from .combat import step_combat, step_lash, step_leaving, step_trap
from .monsters import step_monsters


def advance(state, rng) -> None:
    """Resolve everything that needs nobody's choice; stop at a pending decision or a free turn."""
    while state["result"] is None and state["pending"] is None:
        if state["combat"]:
            step_combat(state)
        elif state["lash"]:
            step_lash(state)
        elif state["leaving"]:
            step_leaving(state)
        elif state["trap"]:
            step_trap(state)
        elif state["phase"] == "feature":
            step_feature(state)
        elif state["phase"] == "spawn":
            step_spawn(state)
        elif state["phase"] == "place_mercs":
            step_place_mercs(state)
        elif state["phase"] == "lead":
            step_lead(state)
        elif state["phase"] == "mercs":
            if state["current"] is not None:
                return
            next_mercenary(state)
        elif state["phase"] == "monsters":
            step_monsters(state, rng)
        elif state["phase"] == "end_turn":
            if not end_turn(state, rng):
                return


def to_act(state) -> list:
    """The seats whose decision holds the table up (anybody may still act "at any time" meanwhile)."""
    if state["result"] is not None:
        return []
    if state["pending"]:
        return [state["pending"]["seat"]]
    if state["phase"] == "mercs" and state["current"] is not None:
        return [state["mercs"][state["current"]]["owner"]]
    if state["phase"] == "end_turn":
        return window_seats(state)
    return []
