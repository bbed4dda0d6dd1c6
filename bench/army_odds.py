"""Time the exact skirmish odds the GM view computes on every render.

    .venv/bin/python bench/army_odds.py [--calls 2000] [--extra 2]

Cases: the worst the rules allow in practice (both units rolling the best of 2d6 plus
``--extra`` added d6s, equal bases so ties re-roll), a typical skirmish (the
rulebook's Spearmen, best of 2d6 +1, against a Soldier's d6) and an Unopposed roll.
Each is timed cold (every cache cleared before each call: the first render of a new
skirmish) and warm (caches kept: re-renders). Prints the medians and ends with one
line such as ``army odds: worst case 1.23 ms median, typical 0.04 ms median`` (cold).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop.engines.army.odds import SideDice, clear_caches, skirmish_odds, unopposed_odds  # noqa: E402


def median_ms(call, calls: int, cold: bool) -> float:
    times = []
    for _ in range(calls):
        if cold:
            clear_caches()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--extra", type=int, default=2, help="added d6s on each side in the worst case")
    args = parser.parse_args()

    worst_side = SideDice(3, modifier=1, dice="best2", extra_d6=args.extra)
    cases = {
        "worst case": lambda: skirmish_odds(worst_side, worst_side),
        "typical": lambda: skirmish_odds(SideDice(2, modifier=1, dice="best2"), SideDice(2)),
        "unopposed": lambda: unopposed_odds(SideDice(3, modifier=1, dice="best2")),
    }
    cold = {}
    print(f"{args.calls} calls per case; worst case: best2 + {args.extra} extra d6 on both sides, equal bases")
    for name, call in cases.items():
        cold[name] = median_ms(call, args.calls, cold=True)
        warm = median_ms(call, args.calls, cold=False)
        print(f"  {name:<11} cold {cold[name]:.4f} ms   warm {warm:.4f} ms   (median per call)")
    print(f"army odds: worst case {cold['worst case']:.2f} ms median, typical {cold['typical']:.3f} ms median")


if __name__ == "__main__":
    main()
