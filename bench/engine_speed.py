"""Actions per second of each engine's random play with checks off (what the computer's playouts need).

    .venv/bin/python bench/engine_speed.py [--games 20] [--game dungeon] [--seed 0] [--two-seat]

Per game: seeded random games played with ``legal_actions`` + ``apply`` + ``to_act``/``outcome`` only
(no invariants, views, secrecy or round-trip checks, unlike ``manage.py simulate``), timed with
``time.perf_counter`` in one process (``--clock cpu``: the process's CPU time, one free core's worth
on a machine others share). Configs come from the engine's ``random_config`` (``--two-seat``:
cut to two seats as bench/bots.py plays them). Also times the bot hooks when the engine has them
(``redeal`` and ``heuristic`` per call, on states met in the games). One line per game:

    engine <game>: A actions/s, M actions a game (G games, S s); redeal R us, heuristic H us

The whole default run takes about a minute on this machine (the dungeon's 20 games most of it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop.bots.common import is_player  # noqa: E402
from tabletop.bots.match import two_seat_config  # noqa: E402
from tabletop.engines import ENGINES  # noqa: E402
from tabletop.engines.kernel import SeededRng  # noqa: E402

CLOCK = time.perf_counter  # --clock cpu: time.process_time
SAMPLE_EVERY = 7  # one state in this many is kept to time the bot hooks on (at most MAX_SAMPLES)
MAX_SAMPLES = 300


def play(engine, seed: int, two_seat: bool, samples: list) -> tuple[int, float]:
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    config = two_seat_config(engine, chooser) if two_seat else engine.random_config(chooser)
    state = engine.setup(config, rng)
    legal_actions, apply, outcome, to_act = engine.legal_actions, engine.apply, engine.outcome, engine.to_act
    actions_done, elapsed = 0, 0.0
    started = CLOCK()
    while outcome(state) is None:
        to_act(state)
        actions = legal_actions(state)
        state = apply(state, chooser.choice(actions), rng)
        actions_done += 1
        if actions_done % SAMPLE_EVERY == 0 and len(samples) < MAX_SAMPLES:
            elapsed += CLOCK() - started
            samples.append(state)
            started = CLOCK()
    elapsed += CLOCK() - started
    return actions_done, elapsed


def hook_micros(engine, samples: list) -> tuple[float | None, float | None]:
    """Mean microseconds per ``redeal`` and per ``heuristic`` call on the sampled states."""
    timed = []
    for name, hook in (("redeal", engine.SPEC.redeal), ("heuristic", engine.SPEC.heuristic)):
        if hook is None or not samples:
            timed.append(None)
            continue
        rng, calls, started = SeededRng(0), 0, CLOCK()
        for state in samples:
            seats = [seat for seat in engine.to_act(state) if is_player(seat)] or [0]
            hook(state, seats[0], rng) if name == "redeal" else hook(state, seats[0])
            calls += 1
        timed.append((CLOCK() - started) / calls * 1e6)
    return timed[0], timed[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game", choices=sorted(ENGINES), action="append", help="one game (repeatable); default all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--two-seat", action="store_true", help="configs cut to two seats (as bench/bots.py)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    for game in args.game or list(ENGINES):
        engine, samples = ENGINES[game], []
        total_actions, total_seconds = 0, 0.0
        for index in range(args.games):
            actions, seconds = play(engine, args.seed + index, args.two_seat, samples)
            total_actions += actions
            total_seconds += seconds
        redeal, heuristic = hook_micros(engine, samples)
        hooks = ", ".join(f"{name} {'-' if value is None else f'{value:.0f} us'}"
                          for name, value in (("redeal", redeal), ("heuristic", heuristic)))
        print(f"engine {game}: {total_actions / total_seconds:.0f} actions/s, "
              f"{total_actions / args.games:.0f} actions a game "
              f"({args.games} games, {total_seconds:.1f} s {args.clock}); {hooks}",
              flush=True)


if __name__ == "__main__":
    main()
