"""Where the server's CPU goes: bench/live.py's summary of a bench/profiled.py profile.

The profile's self time (tottime) is split by the file of each function into categories: templates,
database, engines, Muster's own code, Django's request/response and middleware, the WSGI bridge,
the server (event loop, websockets, channel layer), JSON, the profiler's own work (the snapshot it
takes when the bench starts the profile afresh) and the rest (mostly the standard library). A built-in function (file
``~`` in pstats) has no file: its self time goes to its callers' categories, in proportion to the
time pstats records for each caller (a built-in called by a built-in: that one's callers, in turn).
Each category is printed as a share of the profile and in milliseconds per action applied while
the profile ran, beside the CPU seconds of each thread family and the top functions by cumulative
time in the threads answering HTTP (a2wsgi's ``WSGI_n``), else in the whole process.
"""

from __future__ import annotations

import json
import pstats
import sysconfig
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve().as_posix() + "/"
HTTP_THREADS = "WSGI"  # a2wsgi's thread_name_prefix (muster/asgi.py)
TOP = 15

TEMPLATES = "templates"
DATABASE = "database"
ENGINES = "engines"
MUSTER = "Muster's own code"
DJANGO = "Django request/response, middleware"
WSGI = "WSGI bridge (a2wsgi)"
SERVER = "server, event loop, websockets"
JSON = "JSON"
PROFILER = "profiler (its SIGUSR1 snapshot)"
OTHER = "other"
CATEGORIES = (TEMPLATES, DATABASE, ENGINES, MUSTER, DJANGO, WSGI, SERVER, JSON, PROFILER, OTHER)

PACKAGES = {  # top-level package or module -> category (Django itself is split in package_category)
    "template_partials": TEMPLATES,
    "jinja2": TEMPLATES,
    "markupsafe": TEMPLATES,
    "sqlite3": DATABASE,
    "psycopg": DATABASE,
    "psycopg_pool": DATABASE,
    "psycopg_binary": DATABASE,
    "psycopg_c": DATABASE,
    "json": JSON,
    "cProfile": PROFILER,
    "a2wsgi": WSGI,
    "whitenoise": DJANGO,
    "axes": DJANGO,
    "django_htmx": DJANGO,
    "csp": DJANGO,
    **dict.fromkeys(
        ("uvicorn", "websockets", "asyncio", "uvloop", "httptools", "channels", "channels_redis", "redis", "asgiref"),
        SERVER,
    ),
}


def package_category(module_path: str) -> str:
    """The category of a file of an installed package or of the standard library, by its path there."""
    top = module_path.split("/", 1)[0].removesuffix(".py")
    if "/templatetags/" in module_path or module_path.startswith("django/template/"):
        return TEMPLATES
    if module_path.startswith("django/db/"):
        return DATABASE
    if top.startswith("django"):
        return DJANGO
    return PACKAGES.get(top, OTHER)


def category(filename: str) -> str:
    """The category of a function defined in ``filename`` (a pstats key's file)."""
    path = Path(filename).as_posix()
    if "/site-packages/" in path:
        return package_category(path.split("/site-packages/", 1)[1])
    if path.startswith(STDLIB):
        return package_category(path.removeprefix(STDLIB))
    root = ROOT.as_posix() + "/"
    if not path.startswith(root):
        return OTHER  # <frozen ...>, <string>
    local = path.removeprefix(root)
    if local == "bench/profiled.py":
        return PROFILER
    if local.startswith(("tabletop/engines/", "tabletop/bots/")):
        return ENGINES
    if "/templatetags/" in local or local.startswith("templates/") or local == "tabletop/jinja.py":
        return TEMPLATES  # a compiled Jinja2 template's code is named by its template's file
    return MUSTER


def weights(func: tuple, stats: dict, memo: dict, seen: set) -> dict[str, float]:
    """The categories ``func``'s self time belongs to, as shares: its file's, or for a built-in its callers'."""
    if func[0] != "~":
        return {category(func[0]): 1.0}
    if func in memo:
        return memo[func]
    callers = stats[func][4] if func in stats else {}
    if func in seen or not callers:
        return {OTHER: 1.0}
    seen.add(func)
    total = sum(figures[2] for figures in callers.values())
    shares: dict[str, float] = defaultdict(float)
    for caller, figures in callers.items():
        part = figures[2] / total if total > 0 else 1 / len(callers)
        for name, weight in weights(caller, stats, memo, seen).items():
            shares[name] += part * weight
    seen.discard(func)
    memo[func] = dict(shares)
    return memo[func]


def by_category(stats: dict) -> tuple[dict[str, float], dict[str, float]]:
    """CPU seconds of each category, and of each file whose category is "other" (what it holds)."""
    seconds: dict[str, float] = defaultdict(float)
    other: dict[str, float] = defaultdict(float)
    memo: dict = {}
    for func, (_, _, tt, _, _) in stats.items():
        for name, weight in weights(func, stats, memo, set()).items():
            seconds[name] += tt * weight
            if name == OTHER and func[0] != "~":
                other[func[0]] += tt * weight
    return seconds, other


def short(filename: str) -> str:
    path = Path(filename).as_posix()
    for prefix in ("/site-packages/", STDLIB, ROOT.as_posix() + "/"):
        if prefix in path:
            return path.split(prefix, 1)[1]
    return path


def summary(path: str, actions: int, meter_seconds: float | None) -> list[str]:
    """The printed summary of the profile in ``path`` (and ``path.threads.json``)."""
    try:
        stats = pstats.Stats(path).stats
        threads = json.loads(Path(f"{path}.threads.json").read_text())
    except (OSError, ValueError, TypeError) as error:
        return [f"profile: none written to {path} ({error}); see the server's log"]
    seconds, other = by_category(stats)
    total = sum(seconds.values())
    window = (
        "the phases with actions (from the end of the idle phase) and the stop"
        if threads["since"] == "SIGUSR1"
        else ("the server's whole run")
    )
    meter = f"; the meter's server CPU over the same phases {meter_seconds:.1f} s" if meter_seconds is not None else ""
    lines = [
        f"profile ({path}, every thread of the server process, CPU time per thread) over {window}: "
        f"{total:.1f} s CPU{meter}; per action: the profile's CPU / the {actions} actions applied in it",
    ]
    for name in sorted(CATEGORIES, key=lambda name: -seconds.get(name, 0.0)):
        part = seconds.get(name, 0.0)
        per_action = part / actions * 1000 if actions else float("nan")
        detail = ""
        if name == OTHER and other:
            biggest = sorted(other.items(), key=lambda item: -item[1])[:3]
            detail = "  (" + ", ".join(f"{short(file)} {spent:.2f} s" for file, spent in biggest) + ")"
        lines.append(f"  {name:<36} {part / total if total else 0:6.1%} {per_action:7.2f} ms/action{detail}")
    families = sorted(threads["families"].items(), key=lambda item: -item[1]["cpu_seconds"])
    lines.append(
        "  CPU by thread: "
        + ", ".join(f"{name} ({group['threads']}) {group['cpu_seconds']:.2f} s" for name, group in families)
    )
    lines.extend(top_cumulative(stats, threads["families"]))
    return lines


def top_cumulative(stats: dict, families: dict) -> list[str]:
    """The top functions by cumulative time in the HTTP threads, else in the whole process."""
    if HTTP_THREADS in families:
        group = families[HTTP_THREADS]
        where = f"the HTTP threads ({HTTP_THREADS}, {group['threads']})"
        rows = [(f["cumtime"], f["tottime"], f["ncalls"], f["function"]) for f in group["top_cumulative"]]
    else:
        where = "all threads"
        ordered = sorted(stats.items(), key=lambda item: -item[1][3])[:TOP]
        rows = [(ct, tt, nc, pstats.func_std_string(func)) for func, (_, nc, tt, ct, _) in ordered]
    lines = [f"  top {len(rows)} by cumulative time in {where}:  cumtime s  tottime s    ncalls  function"]
    for ct, tt, nc, function in rows:
        lines.append(f"    {ct:10.2f} {tt:10.2f} {nc:9d}  {short(function)}")
    return lines
