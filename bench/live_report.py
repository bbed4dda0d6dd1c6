"""bench/live.py's report: the machine, the server, each phase's CPU, latencies and CPU per action, the
errors, the computers' ratios, a profile's summary (bench/live_profile.py) and the ``live:`` line last.
"""

from __future__ import annotations

import os
import sys

import django
from harness import percentile
from live_profile import summary
from live_server import database_version, describe

NAN = float("nan")


def latencies(stats, name: str) -> tuple[list[float], list[float]]:
    return stats.actions.get(name, []), stats.updates.get(name, [])


def cpu_per_action(shares: dict, lengths: dict, name: str, actions: int, tree: str = "server") -> float:
    """Milliseconds of CPU of ``tree`` (CpuMeter) per action applied in phase ``name``."""
    if not actions or tree not in shares.get(name, {}):
        return NAN
    return shares[name][tree] * lengths[name] / actions * 1000


def report(
    args,
    run,
    actors,
    tables,
    computers,
    shares,
    lengths,
    moves,
    niceness,
    setup_seconds,
    log_path,
    profiled: tuple[int, float] | None = None,
) -> None:
    """Everything measured, the ``live:`` line last. ``profiled``: the actions applied and the server's CPU
    seconds (CpuMeter) while the profile ran."""
    stats = run.stats
    cpu = "unknown CPU"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(
        f"machine: {os.cpu_count()} cores ({cpu}), Python {sys.version.split()[0]}, Django {django.get_version()}, "
        f"{database_version(args.embedded)}; load average {os.getloadavg()[0]:.2f} at the end"
    )
    print(
        f"server: {describe(args)}, DEBUG off; set-up {setup_seconds:.1f} s, "
        f"{run.connected} of {args.phones} phones connected in {lengths.get('connect', float('nan')):.1f} s"
    )
    cores = ("server", "computers", "worker", "postgres", "redis", "bench")
    for name in shares:
        parts = ", ".join(f"{k} {shares[name][k]:.1%}" for k in cores if k in shares[name])
        print(f"  CPU {name:<18} (share of one core): {parts}")
    for name in lengths:
        if name == "connect":
            continue
        actions, updates = latencies(stats, name)
        seconds = lengths[name]
        rate = "back to back" if name.startswith("flat-out") else f"{args.live_rate:g}/s"
        played = f", computer moves {moves[name]}" if name in moves else ""
        trees = ("server", "postgres") if not args.embedded else ("server",)
        per_action = ", ".join(
            f"{tree} {cpu_per_action(shares, lengths, name, len(actions), tree):.1f} ms"
            for tree in trees
            if actions and tree in shares.get(name, {})
        )
        per_action = f"; cpu per action: {per_action}" if per_action else ""
        print(
            f"  {name:<18} ({rate}, {seconds:.1f} s): {len(actions)} actions ({len(actions) / seconds:.1f}/s), "
            f"action p50 {percentile(actions, 50):.0f} ms p95 {percentile(actions, 95):.0f} ms "
            f"max {max(actions, default=0) * 1000:.0f} ms; update p50 {percentile(updates, 50):.0f} ms "
            f"p95 {percentile(updates, 95):.0f} ms max {max(updates, default=0) * 1000:.0f} ms ({len(updates)}){played}"
            f"{per_action}"
        )
    fetches = ", ".join(f"{status}: {n}" for status, n in sorted(stats.fetches.items()))
    print(
        f"  pushes received {stats.pushes} ({stats.rendered_pushes} carrying the render), fetches {fetches or '-'} "
        f"(p50 {percentile(stats.fetch_seconds, 50):.0f} ms p95 {percentile(stats.fetch_seconds, 95):.0f} ms), "
        f"battles finished {sum(a.finished for a in actors)}, tables opened {tables.opened}, "
        f"GM actions {sum(a.gm_actions for a in actors)}"
    )
    if stats.errors:
        print(f"  errors: {stats.errors}")
        for example in stats.error_examples:
            print(f"    {example}")
    for name in ("server", "worker"):
        path = log_path.with_name(f"{name}.log")
        errors = [line for line in path.read_text(errors="replace").splitlines() if "rror" in line]
        if errors:
            print(f"  {name} log: {len(errors)} error lines, e.g. {errors[0][:200]}")
    with_computers = ""
    if computers is not None:
        ratios = []
        for label, name, figures in (("update", "live", 1), ("tap", "live", 0), ("flat-out tap", "flat-out", 0)):
            without = percentile(latencies(stats, name)[figures], 95)
            loaded = percentile(latencies(stats, name + "+computers")[figures], 95)
            ratios.append(f"{label} p95 {loaded:.0f} ms ({loaded / without:.2f}x)")
        print(
            f"computers: {args.computers} Gridaris tables of two computers ({computers.count} decisions wanted "
            f"at all times, normal), {computers.moves()} moves, {computers.finished} games finished, "
            f"{computers.stalled} stalled; with them {', '.join(ratios)} (goal: at most 1.5x)"
        )
        where = "the worker's threads" if args.computers and not args.embedded else "the server and its pool"
        seen = "; ".join(f"{name} {values}" for name, values in niceness.items() if name != "server")
        print(f"  nice values of {where} at the end of each phase with computers: {seen} (server {niceness['server']})")
        loaded = latencies(stats, "live+computers")[1]
        with_computers = f", with {args.computers} computers update p95 {percentile(loaded, 95):.0f} ms"
    if profiled is not None:
        for line in summary(args.profile, *profiled):
            print(line)
    flat = stats.actions.get("flat-out", [])
    live = stats.updates.get("live", [])
    idle_cpu = shares.get("idle", {}).get("server", float("nan")) * 100
    print(f"flat-out action p50 {percentile(flat, 50):.0f} ms p95 {percentile(flat, 95):.0f} ms")
    print(
        f"live: tables {args.battles}, phones {args.phones}, update p50 {percentile(live, 50):.0f} ms "
        f"p95 {percentile(live, 95):.0f} ms, idle cpu {idle_cpu:.1f} %, "
        f"flat-out {len(flat) / lengths.get('flat-out', NAN):.0f} actions/s, "
        f"server cpu per action {cpu_per_action(shares, lengths, 'flat-out', len(flat)):.1f} ms, "
        f"errors {stats.error_count}"
        f"{with_computers}"
    )
