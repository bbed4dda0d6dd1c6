"""The computer players against a random and a greedy player, per game (issue 16).

    .venv/bin/python bench/bots.py [--game army] [--games 200] [--strength normal] [--jobs 1]
    .venv/bin/python bench/bots.py --cap [--cap-factor 8] ...   # does a much stronger search do better?

Per game, ``--games`` two-seat games with fixed seeds (tabletop/bots/match.py: the engine's random
config cut to two seats) of the ISMCTS player at ``--strength`` against ``RandomPlayer`` and, on
the same seeds, against ``GreedyPlayer`` (one-move lookahead on the engine's heuristic), the bot
taking seat 0 in even games and seat 1 in odd ones. A draw counts a half. Every bot decision that
searched (more than one legal action) is timed with ``time.perf_counter`` in its own
single-threaded process (``--jobs`` processes, one per core; use 1 on a shared machine), in wall
time and in CPU time; ``--clock cpu`` makes the seconds cap and the p95 count CPU time, which is
one free core's worth on a machine others share. Per game
it prints each rate with its 95 % Wilson interval, the decision times, and last:

    bots <game>: vs random W %, vs greedy G %, decision p95 T ms

``--cap`` plays the same seeds against greedy with the ``--strength`` search and with one of
``--cap-factor`` times its iterations and seconds, and prints both rates with their intervals:
when the stronger search does no better with enough games, the game's luck caps the rate.

How long: a searched decision costs up to the strength's seconds (normal 0.8 s), and the bot searches
about 10 times a game at the Army and Gridaris, 50 at GOT'M, 130 at Mercenarium and 770 in the
dungeon (random games of the two-seat configs; forced moves are not searched). So 200 games against
each opponent at ``normal`` take, on one free core, about 55 min (army), 50 min (gridaris), 4.5 h
(gotm), 11.5 h (mercenarium) and 68 h (dungeon); ``--jobs n`` divides by n. Pass a small
``--games`` for the long games (``--games 2 --strength quick`` for the dungeon: about 15 min). The
per-game lines come when all of that game's games are done.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop.bots import BUDGETS, GreedyPlayer, RandomPlayer, player_for  # noqa: E402
from tabletop.bots.match import play_game  # noqa: E402
from tabletop.engines import ENGINES  # noqa: E402


class Timed:
    """Wraps the ISMCTS player: the wall time and iterations of each decision that searched."""

    def __init__(self, player) -> None:
        self.player, self.name = player, player.name
        self.times: list[float] = []
        self.cpu_times: list[float] = []
        self.iterations: list[int] = []

    def choose(self, engine, state, seat, seed):
        started, cpu_started = time.perf_counter(), time.process_time()
        action = self.player.choose(engine, state, seat, seed)
        if self.player.last_iterations:
            self.times.append(time.perf_counter() - started)
            self.cpu_times.append(time.process_time() - cpu_started)
            self.iterations.append(self.player.last_iterations)
        return action


def opponent(name: str):
    return RandomPlayer() if name == "random" else GreedyPlayer()


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def bot(strength: str, factor: int = 1, clock: str = "wall"):
    iterations, seconds, _ = BUDGETS[strength]
    player = player_for(strength, iterations=iterations * factor, seconds=seconds * factor)
    player.clock = CLOCKS[clock]
    return player


def one_game(task: tuple) -> tuple:
    """(label, bot's result, decision wall times, CPU times, iterations) of one seeded game."""
    game, label, rival, strength, factor, seed, index, clock = task
    engine, searcher = ENGINES[game], Timed(bot(strength, factor, clock))
    bot_seat = index % 2
    players = [searcher, opponent(rival)] if bot_seat == 0 else [opponent(rival), searcher]
    result = play_game(engine, players, f"{seed}-{index // 2}")  # each deal played from both seats
    return label, result.values[bot_seat], searcher.times, searcher.cpu_times, searcher.iterations


def wilson(successes: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate (a draw counts a half)."""
    if not games:
        return 0.0, 1.0
    rate = successes / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def run(tasks: list, jobs: int) -> dict:
    results: dict[str, dict] = {}
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            done = list(pool.imap_unordered(one_game, tasks))
    else:
        done = [one_game(task) for task in tasks]
    for label, value, times, cpu_times, iterations in done:
        row = results.setdefault(label, {"won": 0.0, "games": 0, "times": [], "cpu_times": [], "iterations": []})
        row["won"] += value
        row["games"] += 1
        row["times"] += times
        row["cpu_times"] += cpu_times
        row["iterations"] += iterations
    return results


def rate_line(label: str, row: dict) -> str:
    low, high = wilson(row["won"], row["games"])
    return (f"  {label}: {100 * row['won'] / row['games']:.1f} % of {row['games']} games "
            f"(95 % Wilson interval {100 * low:.1f}-{100 * high:.1f} %)")


def times_line(rows: list[dict], clock: str) -> tuple[str, float]:
    """The decisions' wall and CPU times; the p95 of ``clock``'s."""
    times = [each for row in rows for each in row["times"]]
    cpu_times = [each for row in rows for each in row["cpu_times"]]
    iterations = [each for row in rows for each in row["iterations"]]
    if not times:
        return "  decisions: none searched", 0.0
    p95 = percentile(times if clock == "wall" else cpu_times, 0.95) * 1000
    return (f"  decisions: {len(times)} searched; wall median {statistics.median(times) * 1000:.0f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; CPU median "
            f"{statistics.median(cpu_times) * 1000:.0f} ms, p95 {percentile(cpu_times, 0.95) * 1000:.0f} ms; "
            f"iterations median {statistics.median(iterations):.0f}, least {min(iterations)}"), p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(ENGINES), action="append", help="one game (repeatable); default all")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--strength", choices=sorted(BUDGETS), default="normal")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--cap", action="store_true",
                        help="against greedy: the strength's search and a much stronger one")
    parser.add_argument("--cap-factor", type=int, default=8)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="what the seconds cap and the p95 count: wall time (default) or this process's CPU "
                             "time (one core's worth on a machine others share)")
    args = parser.parse_args()
    iterations, seconds, depth = BUDGETS[args.strength]
    print(f"ISMCTS {args.strength}: up to {iterations} iterations or {seconds} s a decision, playouts of {depth} "
          f"actions; {args.games} games per opponent, --jobs {args.jobs}, {args.clock} clock", flush=True)
    for game in args.game or list(ENGINES):
        started = time.perf_counter()
        if args.cap:
            labels = [("vs greedy", 1), (f"{args.cap_factor}x search vs greedy", args.cap_factor)]
            tasks = [(game, label, "greedy", args.strength, factor, args.seed, index, args.clock)
                     for label, factor in labels for index in range(args.games)]
        else:
            tasks = [(game, f"vs {rival}", rival, args.strength, 1, args.seed, index, args.clock)
                     for rival in ("random", "greedy") for index in range(args.games)]
        results = run(tasks, args.jobs)
        print(f"{game} ({time.perf_counter() - started:.0f} s):", flush=True)
        for label in dict.fromkeys(task[1] for task in tasks):
            print(rate_line(label, results[label]))
        if args.cap:
            print(times_line([results["vs greedy"]], args.clock)[0])
            (base, base_row), (strong, strong_row) = ((label, results[label]) for label, _ in labels)
            stronger = wilson(strong_row["won"], strong_row["games"])[0] > wilson(base_row["won"], base_row["games"])[1]
            verdict = ("better: the search, not luck, holds the rate down" if stronger
                       else "no better within the intervals: as a luck cap would be; more games narrow them")
            print(f"cap {game}: {base} {100 * base_row['won'] / base_row['games']:.1f} %, "
                  f"{strong} {100 * strong_row['won'] / strong_row['games']:.1f} % ({verdict})", flush=True)
            continue
        line, p95 = times_line([results["vs random"], results["vs greedy"]], args.clock)
        print(line)
        random_rate = 100 * results["vs random"]["won"] / results["vs random"]["games"]
        greedy_rate = 100 * results["vs greedy"]["won"] / results["vs greedy"]["games"]
        print(f"bots {game}: vs random {random_rate:.1f} %, vs greedy {greedy_rate:.1f} %, decision p95 {p95:.0f} ms",
              flush=True)


if __name__ == "__main__":
    main()
