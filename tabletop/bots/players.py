"""The computer's players: random, greedy (one-move lookahead) and ISMCTS (ismcts.py).

Every player has ``choose(engine, state, seat, seed) -> action``: one of ``legal_actions(state)``
for ``seat``, the same for the same state and seed (ISMCTS: with an iteration budget only).
"""

from __future__ import annotations

from tabletop.engines.kernel import IllegalAction, SeededRng

from .common import BotError, heuristic_function, redeal_function, seat_actions


def own_actions(engine, state: dict, seat) -> list[dict]:
    """``seat``'s legal actions now, or ``BotError`` when it has none."""
    actions = seat_actions(engine.legal_actions(state), seat)
    if not actions:
        raise BotError(f"Seat {seat} has no legal action now.")
    return actions


class RandomPlayer:
    """A seeded uniform choice among the seat's legal actions."""

    name = "random"

    def choose(self, engine, state: dict, seat, seed: int | str = 0) -> dict:
        actions = own_actions(engine, state, seat)
        return actions[0] if len(actions) == 1 else SeededRng(f"random-{seed}").choice(actions)


class GreedyPlayer:
    """One-move lookahead: apply each legal action to a state redealt from the seat's view and keep the
    best ``heuristic`` for the seat. Chance and hidden cards are averaged over ``samples`` redeals and
    rngs (the same rng for every action of a sample: common random numbers); a seat that sees
    everything and an action list that drew no chance need one sample. Ties go to a seeded choice."""

    name = "greedy"

    def __init__(self, samples: int = 3) -> None:
        self.samples = samples

    def choose(self, engine, state: dict, seat, seed: int | str = 0) -> dict:
        actions = own_actions(engine, state, seat)
        if len(actions) == 1:
            return actions[0]
        rng = SeededRng(f"greedy-{seed}")
        redeal, value = redeal_function(engine), heuristic_function(engine)
        hidden = bool(engine.hidden_from(state, seat))
        totals = [0.0] * len(actions)
        for sample in range(self.samples):
            world = redeal(state, seat, rng)
            chance = False
            for index, action in enumerate(actions):
                dice = SeededRng(f"greedy-{seed}-{sample}")
                try:
                    after = engine.apply(world, action, dice)
                except IllegalAction:  # not legal in this redeal (should not happen): never preferred
                    totals[index] -= 1.0
                    continue
                chance = chance or bool(dice.draws)
                totals[index] += value(after, seat)
            if not chance and not hidden:
                break
        best = max(totals)
        return rng.choice([action for action, total in zip(actions, totals, strict=True) if total >= best - 1e-9])
