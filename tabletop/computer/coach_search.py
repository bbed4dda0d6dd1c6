"""Where the coach's search runs (issue 34): where the computer's own turns think, never in the web process.

The search once ran in a lowered thread of the web process: ten practice tables asking at once took a
phone's seat page from 9 ms to 342 ms (its threads share one GIL with every request). Now it is sent, as
plain data (``plain``, CONVENTIONS 14f), the way ``scheduling`` decides where a computer's turn goes:

* without a worker (``make run``, tasks eager): to the coach's own processes of ``pool``, ``COACH_SEARCHES``
  of them, started on first use (the first question pays a second of start-up), each lowered
  ``BELOW_TURNS`` further than the computer's turns (``COMPUTER_NICENESS``): the pages first, then the
  computer's turns, then the coach. Their own queue: a question never waits behind the turns, nor a turn
  behind a question;
* with a worker (``REDIS_URL``): the task ``COACH_SEARCH`` by name (``tabletop.tasks``), which thinks in a
  thread lowered as far; it expires unstarted after the request's bound.

The request thread waits for the answer (a future, or the task's result), at most ``limit``: the
strength's seconds cap plus ``COACH_MARGIN`` (5 s: a process's start, a queue). It spends no CPU meanwhile,
and the leases (``coach_bounds``) keep how many threads wait this way small. A search not answered by then
is given up (still queued: cancelled or revoked; running: it stops at its own cap) and ``TookTooLong``
raised, as when its process died (the next question starts new ones). The computer's refusal (``BotError``)
comes back as itself, with its sentence.
"""

from __future__ import annotations

from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from celery import current_app
from celery.exceptions import TimeoutError as TaskTimeout
from django.conf import settings

from . import coach_bounds, coach_job, pool, scheduling
from .plain import plain_arguments
from .strengths import niceness, seconds_cap

COACH_SEARCH = "tabletop.coach_search"  # a worker's search for the coach: plain data in, the moves out
BELOW_TURNS = 5  # how much nicer the coach thinks than the computer's own turns
DEFAULT_MARGIN = 5.0


class TookTooLong(Exception):
    """The search did not answer within its bound, or its process died."""


def limit(strength: str) -> float:
    """How long a request waits for a search at ``strength``: its seconds cap plus ``COACH_MARGIN``."""
    return seconds_cap(strength) + float(getattr(settings, "COACH_MARGIN", DEFAULT_MARGIN))


def lowered_by() -> int:
    """How much nicer than the server the coach thinks: below the computer's turns (0 leaves both as they are)."""
    return niceness() + BELOW_TURNS if niceness() > 0 else 0


def task():
    return current_app.tasks[COACH_SEARCH]


def search(game: str, state: dict, seat: int, seed: str, strength: str, budget: dict, *, within: float) -> list[dict]:
    """``coach_job.advice`` for these arguments, run in another process; waited for ``within`` seconds."""
    arguments = plain_arguments(game=game, state=state, seat=seat, seed=seed, strength=strength, budget=budget)
    if scheduling.in_process():
        future = pool.coach_submit(coach_job.advice, *arguments.values(), workers=coach_bounds.searches(),
                                   lowered_by=lowered_by())
        try:
            return future.result(timeout=within)
        except FutureTimeout:
            future.cancel()
            raise TookTooLong(f"no answer within {within:g} s") from None
        except BrokenProcessPool as died:
            pool.coach_shutdown()
            raise TookTooLong("the coach's process died") from died
    sent = task().apply_async(kwargs=arguments, expires=within)
    try:
        return sent.get(timeout=within)
    except TaskTimeout:
        sent.revoke()
        raise TookTooLong(f"no answer within {within:g} s") from None
