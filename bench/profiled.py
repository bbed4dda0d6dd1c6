"""Run a Python program with every one of its threads under cProfile, counting each thread's CPU time.

    .venv/bin/python bench/profiled.py OUT -- PROGRAM [ARGS...]
    .venv/bin/python bench/profiled.py /tmp/serve.prof -- scripts/serve.py
    .venv/bin/python bench/profiled.py /tmp/uvicorn.prof -- .venv/bin/uvicorn muster.asgi:application --workers 1

``python -m cProfile`` sees the main thread only: in the server that is the event loop, while the pages
are answered on a2wsgi's ``WSGI_n`` threads (and asgiref's executors). Here ``threading.setprofile``
gives every thread started from then on a hook that, on the thread's first profile event, makes a
``cProfile.Profile(time.thread_time)`` (the thread's CPU time, not the wall clock: a thread waiting
for work costs nothing), enables it in place of the hook and keeps it with the thread's name. The main
thread gets one before PROGRAM starts. PROGRAM (a script path: scripts/serve.py, .venv/bin/uvicorn)
runs in this process with ``runpy.run_path`` as ``__main__``, ``sys.argv`` and ``sys.path[0]`` as if it
had been started itself.

SIGUSR1 starts the profile afresh: what every thread has counted so far is kept as a baseline and
subtracted at the end (bench/live.py sends it when the phases with actions begin; without it the profile
covers the whole run). A call still open at that moment (the event loop's ``run_until_complete``) is
counted whole when it returns.

On the way out (PROGRAM returns, raises SystemExit or KeyboardInterrupt, or SIGTERM arrives) every
thread's profile is merged into one pstats file OUT, and ``OUT.threads.json`` gets, for each thread
family (the name without its numbers: ``WSGI_3`` -> ``WSGI``, ``ThreadPoolExecutor-0_3`` ->
``ThreadPoolExecutor``), its threads, CPU seconds (the sum of its self times) and top functions by
cumulative time. SIGTERM raises SystemExit here: uvicorn captures SIGTERM while it serves, and once it
has shut down it restores this handler and raises the signal again, so the program still ends through
its own shutdown and the files are written (the default action would end the process on the spot).
A thread still running at the end is read as it stands: its open calls are left out.

cProfile in Python 3.12+ allows one active profiler at a time (sys.monitoring): this needs 3.11.
"""

from __future__ import annotations

import cProfile
import gc
import json
import pstats
import re
import runpy
import signal
import sys
import threading
import time
from pathlib import Path

TOP = 15  # functions by cumulative time kept for each thread family
NUMBERS = re.compile(r"[-_]\d+(?=[-_ (]|$)")


def family(thread_name: str) -> str:
    """A thread's name without its numbers: ``ThreadPoolExecutor-0_3`` -> ``ThreadPoolExecutor``."""
    return NUMBERS.sub("", thread_name) or thread_name


class Snapshot:
    """pstats' view of a stats dict (``pstats.Stats`` loads anything with ``create_stats`` and ``stats``)."""

    def __init__(self, stats: dict):
        self.stats = stats

    def create_stats(self) -> None:
        pass


def stats_of(profile: cProfile.Profile) -> dict:
    """``profile``'s statistics so far, read without disabling it (its thread may still be running).
    The garbage collector waits meanwhile: a finalizer run inside ``getstats`` could switch threads
    and let the profile's owner change what is being read."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        profile.snapshot_stats()
    finally:
        if enabled:
            gc.enable()
    return profile.stats


def subtract(stats: dict, baseline: dict) -> dict:
    """What ``stats`` counted since ``baseline`` (pstats entries: cc, nc, tt, ct, callers)."""
    if not baseline:
        return stats
    result = {}
    for func, (cc, nc, tt, ct, callers) in stats.items():
        before = baseline.get(func)
        if before is not None:
            cc, nc, tt, ct = cc - before[0], nc - before[1], tt - before[2], ct - before[3]
            callers = {
                caller: tuple(a - b for a, b in zip(figures, before[4].get(caller, (0, 0, 0, 0)), strict=True))
                for caller, figures in callers.items()
            }
            callers = {caller: figures for caller, figures in callers.items() if figures[0] > 0 or figures[2] > 0}
        if nc > 0 or tt > 0:
            result[func] = (cc, nc, tt, ct, callers)
    return result


class Profiler:
    """Every thread's profile, by thread, and the baselines SIGUSR1 took."""

    def __init__(self):
        self.profiles: list[tuple[str, cProfile.Profile]] = []
        self.baselines: dict[int, dict] = {}
        self.restarted: float | None = None
        self.started = time.time()

    def start(self) -> cProfile.Profile:
        """Profile the calling thread from now on."""
        profile = cProfile.Profile(time.thread_time)
        self.profiles.append((threading.current_thread().name, profile))
        profile.enable()  # takes the place of the hook in this thread
        return profile

    def hook(self, frame, event, arg) -> None:
        """``threading.setprofile``'s hook: a new thread's first profile event."""
        self.start()

    def restart(self, signum=None, frame=None) -> None:
        """SIGUSR1: the profile counts from here."""
        self.baselines = {id(profile): stats_of(profile) for _, profile in list(self.profiles)}
        self.restarted = time.time()

    def write(self, out: Path) -> None:
        """The merged pstats file ``out`` and ``out.threads.json``."""
        merged = pstats.Stats()
        families: dict[str, dict] = {}
        for name, profile in list(self.profiles):
            stats = subtract(stats_of(profile), self.baselines.get(id(profile), {}))
            group = families.setdefault(family(name), {"threads": 0, "cpu_seconds": 0.0, "stats": pstats.Stats()})
            group["threads"] += 1
            if stats:  # pstats refuses to load an empty profile
                group["cpu_seconds"] += sum(entry[2] for entry in stats.values())
                group["stats"].add(Snapshot(dict(stats)))
                merged.add(Snapshot(stats))
        merged.dump_stats(str(out))
        since = self.restarted or self.started
        report = {
            "since": "SIGUSR1" if self.restarted else "the start",
            "seconds": time.time() - since,
            "families": {name: describe(group) for name, group in families.items()},
        }
        Path(f"{out}.threads.json").write_text(json.dumps(report, indent=1) + "\n")


def describe(group: dict) -> dict:
    """A thread family for the JSON file: threads, CPU seconds, its top functions by cumulative time."""
    stats = group["stats"].stats
    top = sorted(stats.items(), key=lambda item: item[1][3], reverse=True)[:TOP]
    return {
        "threads": group["threads"],
        "cpu_seconds": round(group["cpu_seconds"], 6),
        "top_cumulative": [
            {"function": pstats.func_std_string(func), "ncalls": nc, "tottime": tt, "cumtime": ct}
            for func, (cc, nc, tt, ct, callers) in top
        ],
    }


def stop(signum, frame) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        raise SystemExit(__doc__.split("\n\n")[1])
    out, program = Path(argv[0]).resolve(), argv[2]
    profiler = Profiler()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGUSR1, profiler.restart)
    threading.setprofile(profiler.hook)
    sys.argv = [program, *argv[3:]]
    sys.path[0] = str(Path(program).resolve().parent)
    code: int | str | None = 0
    main_profile = profiler.start()
    try:
        runpy.run_path(program, run_name="__main__")
    except SystemExit as exit:
        code = exit.code
    except KeyboardInterrupt:
        code = 128 + signal.SIGINT
    finally:
        main_profile.disable()
        threading.setprofile(None)
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1):
            signal.signal(signum, signal.SIG_IGN)  # the files are written whole
        profiler.write(out)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
