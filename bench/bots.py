"""The computer players against a random and a greedy player, and each strength against the next (issues 16, 27).

    .venv/bin/python bench/bots.py --game mercenarium --jobs 2      # the issue's run of one game
    .venv/bin/python bench/bots.py [--games N] [--pair-games N] [--no-pairs] [--strength normal] [--clock cpu]
    .venv/bin/python bench/bots.py --game gotm --progress ...   # each game printed as it ends
    .venv/bin/python bench/bots.py --cap [--cap-factor 8] ...   # does a much stronger search do better?

Per game, two-seat games with fixed seeds (tabletop/bots/match.py: the engine's random config cut to
two seats) of the ISMCTS player at ``--strength`` against ``RandomPlayer`` and, on the same seeds,
against ``GreedyPlayer`` (one-move lookahead on the engine's heuristic over 3 redeals), the bot taking
seat 0 in even games and seat 1 in odd ones (each deal is played from both seats); then ``strong``
against ``normal`` and ``normal`` against ``quick`` on the same seeds. A draw counts a half. The games
per opponent default to issue 27's sample sizes (``GAMES``: 100 at the Army, Gridaris and GOT'M, 40
at Mercenarium, 10 in the dungeon), the games per strength pair to ``PAIR_GAMES``.

Thinking is counted in iterations: each strength has a fixed number per game (the engine's
``SEARCH``, ``tabletop.bots.search_settings``), with no seconds cap, so the rates do not depend on the
machine or its load (play keeps the seconds cap). Every decision that searched is timed in its own
single-threaded process (``--jobs`` processes, one per core), in wall and CPU time; the p95 counts
``--clock`` time (CPU by default: one free core's worth, on a machine others share). Per game it
prints each rate with its 95 % Wilson interval, its interval per deal (``deal_interval``: a deal's two
games are not independent) and the decision times, then:

    bots <game>: vs random W %, vs greedy G %, decision p95 T ms
    bots <game>: strong vs normal S % (interval, games)
    bots <game>: normal vs quick Q % (interval, games)

A pair whose two strengths search the same iterations at a game is merged there (ruling BOT39): it is
not played, and its line says so. A game that reaches ``match.MAX_ACTIONS`` without an outcome is not
counted; it is printed as NO OUTCOME under its rate and the run goes on.

``--cap`` plays the same seeds against ``--cap-rival`` (greedy by default, or random) with the
``--strength`` search and with one of ``--cap-factor`` times its iterations, and prints both rates with
their intervals: when the stronger search does no better with enough games, the game's luck caps the
rate. With ``--cap-sees-all`` the stronger search also sees every hidden card (``SeesAll``: a cheat no
seat at a table is ever given, an upper bound on what knowing the other hand is worth); when even that
player's interval stays under the issue's goal (``GOALS``), no fair player reaches it on these deals. The
verdict reads the interval per deal, since the deals, not the games, are the independent draws.

How long each game's run takes on this machine is in docs/benchmarks.md."""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop.bots import STRENGTHS, BotError, GreedyPlayer, RandomPlayer, player_for, search_settings  # noqa: E402
from tabletop.bots.common import seat_count  # noqa: E402
from tabletop.bots.match import play_game  # noqa: E402
from tabletop.engines import ENGINES  # noqa: E402


class Timed:
    """Wraps the ISMCTS player: the wall time, CPU time and iterations of each decision that searched."""

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


class SeesAll:
    """An engine whose ``redeal`` keeps every seat's view (``kernel.viewer_set``): a search on it plays
    from the true state, the other seat's hand and face-down cards included (``--cap-sees-all`` only).
    The rest is the engine's own, ``observed`` included, so the other seat's replies in the search
    still do not answer a card it could not see."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.SPEC = replace(engine.SPEC, redeal=self.redeal)

    def __getattr__(self, name: str):
        return getattr(self.engine, name)

    def redeal(self, state: dict, seat, rng) -> dict:
        return self.engine.SPEC.redeal(state, tuple(range(seat_count(state))), rng)


class Cheating:
    """A player that searches on ``SeesAll(engine)``, whatever engine it is handed."""

    def __init__(self, player) -> None:
        self.player, self.name = player, f"{player.name} seeing all"

    def choose(self, engine, state, seat, seed):
        return self.player.choose(SeesAll(engine), state, seat, seed)

    @property
    def last_iterations(self):
        return self.player.last_iterations


def searcher(game: str, strength: str, factor: int = 1, sees_all: bool = False):
    """The ISMCTS player of ``strength`` at ``game``, counting iterations only (no seconds cap):
    ``factor`` times the game's iterations for that strength; with ``sees_all``, searching the true
    state (``SeesAll``)."""
    if sees_all:
        return Cheating(searcher(game, strength, factor))
    iterations = search_settings(ENGINES[game], strength)["iterations"]
    return player_for(strength, capped=False) if factor == 1 else player_for(strength, iterations=iterations * factor)


def opponent(game: str, name: str):
    """A rival: ``random``, ``greedy``, or an ISMCTS strength (the strength pairs)."""
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    return searcher(game, name)


def one_game(task: tuple) -> tuple:
    """(label, the game's index, the measured bot's result, its decision wall times, CPU times, iterations) of
    one seeded game; the result is the sentence saying why when the game had no outcome (it is reported, the
    run goes on)."""
    game, label, rival, strength, factor, sees_all, seed, index = task
    measured = Timed(searcher(game, strength, factor, sees_all))
    bot_seat = index % 2
    players = [measured, opponent(game, rival)] if bot_seat == 0 else [opponent(game, rival), measured]
    try:
        result = play_game(ENGINES[game], players, f"{seed}-{index // 2}")  # each deal played from both seats
    except BotError as error:
        return label, index, f"{error} (game {index}, the measured player at seat {bot_seat})", [], [], []
    return label, index, result.values[bot_seat], measured.times, measured.cpu_times, measured.iterations


def wilson(successes: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate (a draw counts a half)."""
    if not games:
        return 0.0, 1.0
    rate = successes / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def deal_interval(values: dict[int, float], z: float = 1.96) -> tuple[float, float, int] | None:
    """The 95 % interval of the rate over deals, and the deals counted; None under two whole deals.

    Games 2k and 2k + 1 are one deal played from both seats with the same dice, so a deal that goes to
    its seat whoever plays it gives one win and one loss: its two games are not independent, as the
    Wilson interval assumes. The deals are: their means (0, 1/2 or 1) are independent draws, and this is
    the normal interval of their average, over the deals both of whose games ended."""
    deals = [(values[index] + values[index + 1]) / 2 for index in sorted(values)
             if index % 2 == 0 and index + 1 in values]
    if len(deals) < 2:
        return None
    mean = statistics.fmean(deals)
    half = z * statistics.stdev(deals) / math.sqrt(len(deals))
    return max(0.0, mean - half), min(1.0, mean + half), len(deals)


def interval(row: dict) -> tuple[float, float, str]:
    """A row's 95 % interval and what it is: per deal when its deals are whole (``deal_interval``), else Wilson's."""
    per_deal = deal_interval(row["values"])
    if per_deal is not None and 2 * per_deal[2] == row["games"]:
        return per_deal[0], per_deal[1], f"per deal, {per_deal[2]} deals"
    low, high = wilson(row["won"], row["games"])
    return low, high, "Wilson"


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def reported_game(task: tuple) -> tuple:
    """``one_game``, printing the game as it ends (``--progress``): a run that passes its hour says where."""
    started = time.process_time()
    label, index, value, times, *rest = one_game(task)
    result = value if isinstance(value, str) else f"{value:.1f}"
    print(f"    {label} game {index}: {result}, {len(times)} decisions, {time.process_time() - started:.1f} CPU s",
          flush=True)
    return (label, index, value, times, *rest)


def run(tasks: list, jobs: int, progress: bool = False) -> dict:
    play = reported_game if progress else one_game
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return tally(pool.imap_unordered(play, tasks))
    return tally(play(task) for task in tasks)


def tally(done) -> dict:
    """Per label: the games won (a draw a half) and played, each game's result by its index, the games
    without an outcome, the decisions' times."""
    results: dict[str, dict] = {}
    for label, index, value, times, cpu_times, iterations in done:
        row = results.setdefault(label, {"won": 0.0, "games": 0, "values": {}, "unfinished": [], "times": [],
                                         "cpu_times": [], "iterations": []})
        if isinstance(value, str):
            row["unfinished"].append(value)
            continue
        row["won"] += value
        row["games"] += 1
        row["values"][index] = value
        row["times"] += times
        row["cpu_times"] += cpu_times
        row["iterations"] += iterations
    return results


def rate_line(label: str, row: dict) -> str:
    low, high = wilson(row["won"], row["games"])
    unfinished = "".join(f"\n    NO OUTCOME, not counted: {reason}" for reason in row["unfinished"])
    per_deal = deal_interval(row["values"])
    deals = f"; per deal {100 * per_deal[0]:.1f}-{100 * per_deal[1]:.1f} %, {per_deal[2]} deals" if per_deal else ""
    return (f"  {label}: {rate(row):.1f} % of {row['games']} games "
            f"(95 % Wilson interval {100 * low:.1f}-{100 * high:.1f} %{deals}){unfinished}")


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


# The goals (issue 27), in percent won at ``normal``.
GOALS = {"random": 95, "greedy": 60}
# Games per opponent (and per strength pair) when --games is not given: issue 27's sample sizes.
GAMES = {"army": 100, "gridaris": 100, "gotm": 100, "mercenarium": 40, "dungeon": 10}
# Games per strength pair when --pair-games is not given: a strong search costs three to four normal ones, so
# the pairs take fewer games where a game is long (each pair's interval is printed with it).
PAIR_GAMES = {"army": 100, "gridaris": 40, "gotm": 40, "mercenarium": 40, "dungeon": 10}
PAIRS = (("strong", "normal"), ("normal", "quick"))


def merged(game: str, strong: str, weak: str) -> int | None:
    """The iterations of two strengths that search alike at ``game`` (merged, ruling BOT39), else None."""
    iterations = {search_settings(ENGINES[game], strength)["iterations"] for strength in (strong, weak)}
    return iterations.pop() if len(iterations) == 1 else None


def cap_line(game: str, rows: list[tuple[str, dict]], goal: float) -> str:
    """The cap's verdict: does the much stronger player's interval (per deal when the deals are whole:
    ``interval``) reach the goal at all, and is that player better than the measured one? Under the goal,
    it is a cap whether or not the stronger player is better: no player reaches the goal on these deals."""
    (base, base_row), (strong, strong_row) = rows
    low, high, kind = interval(strong_row)
    shown = f"its interval ({100 * low:.1f}-{100 * high:.1f} %, {kind})"
    better = low > interval(base_row)[1]
    if 100 * high < goal:
        verdict = f"{'better, but' if better else 'no better,'} {shown} under the {goal} % goal: a cap"
    elif better:
        verdict = "better: the search, not luck, holds the rate down"
    else:
        verdict = f"no better within the intervals, but {shown} reaches the {goal} % goal: more games narrow them"
    return f"cap {game}: {base} {rate(base_row):.1f} %, {strong} {rate(strong_row):.1f} % ({verdict})"


def rate(row: dict) -> float:
    return 100 * row["won"] / row["games"] if row["games"] else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(ENGINES), action="append", help="one game (repeatable); default all")
    parser.add_argument("--games", type=int, help="games per opponent; default per game (GAMES)")
    parser.add_argument("--pair-games", type=int, help="games per strength pair; default per game (PAIR_GAMES)")
    parser.add_argument("--strength", choices=STRENGTHS, default="normal")
    parser.add_argument("--jobs", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--no-pairs", action="store_true", help="skip the strength pairs")
    parser.add_argument("--progress", action="store_true", help="print each game as it ends")
    parser.add_argument("--cap", action="store_true",
                        help="against --cap-rival: the strength's search and a much stronger one")
    parser.add_argument("--cap-factor", type=int, default=8)
    parser.add_argument("--cap-rival", choices=("greedy", "random"), default="greedy")
    parser.add_argument("--cap-sees-all", action="store_true",
                        help="the stronger search also sees every hidden card (a cheat: an upper bound, SeesAll)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="cpu",
                        help="what the decision p95 counts: this process's CPU time (default: one core's worth on a "
                             "machine others share) or wall time")
    args = parser.parse_args()
    print(f"ISMCTS {args.strength}, iterations only (no seconds cap); --jobs {args.jobs}, p95 of {args.clock} time",
          flush=True)
    for game in args.game or list(ENGINES):
        started = time.perf_counter()
        games = args.games or GAMES[game]
        settings = search_settings(ENGINES[game], args.strength)
        print(f"{game}: {settings['iterations']} iterations a decision, playouts of {settings['depth']} actions, "
              f"exploration {settings['exploration']}; {games} games per opponent", flush=True)
        if args.cap:
            rival = args.cap_rival
            stronger = f"{args.cap_factor}x search{' seeing every card' if args.cap_sees_all else ''} vs {rival}"
            labels = [(f"vs {rival}", 1, False), (stronger, args.cap_factor, args.cap_sees_all)]
            tasks = [(game, label, rival, args.strength, factor, sees_all, args.seed, index)
                     for label, factor, sees_all in labels for index in range(games)]
        else:
            tasks = [(game, f"vs {rival}", rival, args.strength, 1, False, args.seed, index)
                     for rival in ("random", "greedy") for index in range(games)]
            if not args.no_pairs:
                tasks += [(game, f"{strong} vs {weak}", weak, strong, 1, False, args.seed, index)
                          for strong, weak in PAIRS if not merged(game, strong, weak)
                          for index in range(args.pair_games or PAIR_GAMES[game])]
        results = run(tasks, args.jobs, args.progress)
        print(f"{game} ({time.perf_counter() - started:.0f} s):", flush=True)
        for label in dict.fromkeys(task[1] for task in tasks):
            print(rate_line(label, results[label]))
        if args.cap:
            print(times_line([results[labels[0][0]]], args.clock)[0])
            print(cap_line(game, [(label, results[label]) for label, *_ in labels], GOALS[args.cap_rival]),
                  flush=True)
            continue
        line, p95 = times_line([results["vs random"], results["vs greedy"]], args.clock)
        print(line)
        print(f"bots {game}: vs random {rate(results['vs random']):.1f} %, "
              f"vs greedy {rate(results['vs greedy']):.1f} %, decision p95 {p95:.0f} ms", flush=True)
        for strong, weak in () if args.no_pairs else PAIRS:
            if iterations := merged(game, strong, weak):
                print(f"bots {game}: {strong} vs {weak} merged (the same search, {iterations} iterations)", flush=True)
                continue
            row = results[f"{strong} vs {weak}"]
            low, high = wilson(row["won"], row["games"])
            print(f"bots {game}: {strong} vs {weak} {rate(row):.1f} % ({100 * low:.1f}-{100 * high:.1f} %, "
                  f"{row['games']} games)", flush=True)
        if unfinished := sum(len(row["unfinished"]) for row in results.values()):
            print(f"bots {game}: {unfinished} game(s) had no outcome and are not counted (NO OUTCOME above)",
                  flush=True)


if __name__ == "__main__":
    main()
