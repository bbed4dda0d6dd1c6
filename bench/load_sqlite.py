"""Live battles under load on SQLite, served as ``make run`` serves them: many phones writing at once.

    .venv/bin/python bench/load_sqlite.py [--battles 20] [--pollers 60] [--seconds 30]
        [--actors 12] [--action-rate 0]

The SQLite sibling of bench/load.py (read its docstring: the same battles, phones, actors and
report). The server is started by scripts/serve.py itself, as ``make run`` does: uvicorn, one
process answering HTTP on 10 threads (no REDIS_URL), DEBUG off, WhiteNoise, venue mode, on 127.0.0.1 only,
over a throwaway SQLite file (IMMEDIATE write transactions, WAL, busy timeout: muster/settings.py).
The bench process opens the battles through the ORM on the same file, then ``--actors`` phones
post actions, by default as fast as the server answers (``--action-rate 0``: every actor always
has a post in flight, so that many devices write at once), while ``--pollers`` phones poll at 1 Hz.

Prints p50/p95 latency and errors (goal: 0) per request type, ending with a line such as
``load: 20 battles, 60 pollers at 1 Hz, 30 s: poll p50 ... action p50 ... p95 ..., 0 errors``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402
from harness import venue_environment  # noqa: E402


def serve_command(args, port: int, log_path: Path) -> list[str]:
    """scripts/serve.py, as make run starts it (its output goes to ``log_path``)."""
    return [sys.executable, str(ROOT / "scripts" / "serve.py")]


def server_environment(temp_dir: str, port: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        venue_environment(temp_dir, port, Path(temp_dir) / "load.sqlite3"),
        LOG_LEVEL="WARNING",
        SECURE_SSL_REDIRECT="0",
        PYTHONPATH=str(ROOT),
    )
    env.setdefault("SECRET_KEY", "bench-only-secret-not-for-production")
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=20)
    parser.add_argument("--pollers", type=int, default=60, help="phones polling at 1 Hz (default 3 per battle)")
    parser.add_argument("--seconds", type=float, default=30, help="the measured window")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of load before measuring")
    parser.add_argument("--action-rate", type=float, default=0, help="actions per second in all (0: flat out)")
    parser.add_argument("--max-actions", type=int, default=100000)
    parser.add_argument("--actors", type=int, default=12, help="phones posting actions, each on its own battles")
    parser.add_argument("--warm-actions", type=int, default=4, help="actions played in each battle before the run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.server = "scripts/serve.py: uvicorn, one process, HTTP on 10 threads (WEB_THREADS)"
    if args.battles < 1 or args.pollers < 0 or args.actors < 1:
        raise SystemExit("need at least one battle and one actor")
    with tempfile.TemporaryDirectory(prefix="muster-load-sqlite-") as temp_dir:
        port = load.free_port()
        env = server_environment(temp_dir, port)
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "SECRET_KEY", "SECURE_SSL_REDIRECT", "LOG_LEVEL")})
        os.environ.update(DEBUG="0", DJANGO_SETTINGS_MODULE="muster.settings", ALLOWED_HOSTS="127.0.0.1")
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        load.run(args, port, env, Path(temp_dir), server_command=serve_command)


if __name__ == "__main__":
    main()
