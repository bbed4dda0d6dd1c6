"""Two-seat games between players, for bench/bots.py and the tests.

``two_seat_config(engine, rng)`` is a random legal config of the engine cut to two seats (the
contest a two-seat bench measures: app dice at the Army, a competitive dungeon without a Deck
Master). ``play_game`` plays one game to its end, each seat's decisions by its player, the GM's
(physical dice, if any) at random, and returns the outcome value per seat and the wall time of
every decision of the seats named in ``timed``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from tabletop.engines.kernel import SeededRng

from .common import BotError, is_player, outcome_value

MAX_ACTIONS = 20000


def two_seat_config(engine, rng) -> dict:
    config = engine.random_config(rng)
    config["players"] = list(config["players"])[:2]
    config.pop("deck_master", None)
    if engine.NAME == "army":
        config["dice"] = "app"
    if engine.NAME == "dungeon":
        config["mode"] = "competitive"
        config.setdefault("variant", "singles")
    return config


@dataclass
class GameResult:
    values: list[float]  # per seat: 1 won, 0 lost, 0.5 a draw
    actions: int = 0
    timings: list[float] = field(default_factory=list)  # seconds per timed decision


def play_game(engine, players: list, seed: int | str, timed: tuple = (), config: dict | None = None) -> GameResult:
    """One game: ``players[seat].choose(engine, state, seat, seed)`` for each seat's decisions."""
    rng = SeededRng(f"game-{seed}")
    state = engine.setup(config if config is not None else two_seat_config(engine, SeededRng(f"config-{seed}")), rng)
    chooser = SeededRng(f"gm-{seed}")
    result = GameResult(values=[])
    for step in range(MAX_ACTIONS):
        outcome = engine.outcome(state)
        if outcome is not None:
            result.values = [outcome_value(outcome, seat, len(players)) for seat in range(len(players))]
            return result
        seats = [seat for seat in engine.to_act(state) if is_player(seat)]
        if not seats:
            action = chooser.choice(engine.legal_actions(state))
        else:
            seat = seats[0]
            started = time.perf_counter()
            action = players[seat].choose(engine, state, seat, f"{seed}-{step}")
            if seat in timed:
                result.timings.append(time.perf_counter() - started)
        state = engine.apply(state, action, rng)
        result.actions += 1
    raise BotError(f"{engine.NAME} game {seed} had no outcome after {MAX_ACTIONS} actions.")
