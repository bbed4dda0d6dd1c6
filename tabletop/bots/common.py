"""What every computer player shares: action keys, the engine's optional bot hooks, rewards.

An engine may declare in its spec (``SPEC``, ``tabletop/engines/spec.py``: ``ComputerHooks``; the hooks
themselves in ``tabletop/engines/<game>/bot.py``, their meaning in ``kernel.py``):

* ``redeal(state, seat, rng) -> state``: the hidden part dealt anew, consistent with ``seat``'s view;
* ``heuristic(state, seat) -> float``: ``seat``'s chance to win, in [0, 1].

* ``playout(state, actions, rng) -> action``: one of ``actions`` (legal now, any seat's or the GM's)
  for a playout and for the order in which the search tries a node's moves; cheap game knowledge
  (take a capture first), since it runs at every playout step;
* ``observed(action, viewer) -> action``: ``action`` as the seat ``viewer`` sees it, its hidden part
  left out (a unit played face down: only that it was played); the search then keeps a tree per seat
  (ismcts.py), so no seat's reply answers a move it could not see;
* ``search`` (the engine's ``SEARCH``): the search's settings for the game (``search_settings``): its
  playout depth, its exploration constant and each strength's iterations, tuned on bench/bots.py.

Where an engine declares none the spec's defaults stand in: a uniform random playout, a heuristic of
0.5 until the game ends (then the outcome's value), no settings of its own; and without a ``redeal``
a state with nothing hidden from the seat is its own redeal (a game with hidden cards and no
``redeal`` raises ``BotError``).
"""

from __future__ import annotations

import random
from typing import Any

from tabletop.engines.kernel import GM, Rng


class BotError(Exception):
    """The computer cannot play this state (a game without ``redeal`` that hides cards, no legal action)."""


class SearchRng(Rng):
    """A seeded source of chance for the search: the same values for the same seed, but lean (one
    ``random()`` per draw) and keeping no record of its draws, since a decision makes millions."""

    def __init__(self, seed: int | str) -> None:
        super().__init__()
        self._float = random.Random(seed).random

    def _next(self, lo: int, hi: int) -> int:
        return lo + int(self._float() * (hi - lo + 1))

    def randint(self, lo: int, hi: int) -> int:
        return lo + int(self._float() * (hi - lo + 1))

    def shuffled(self, items) -> list:
        result, draw = list(items), self._float
        for i in range(len(result) - 1, 0, -1):
            j = int(draw() * (i + 1))
            result[i], result[j] = result[j], result[i]
        return result


def action_key(action: dict) -> tuple:
    """A hashable key of an action, equal for equal actions whatever their key order (cheaper than
    ``canonical_json`` in the search's hot loop). Flat actions of strings and numbers, the common
    case, need no freezing."""
    key = tuple(sorted(action.items()))
    try:
        hash(key)
    except TypeError:  # a list or dict value
        return tuple(sorted((name, _frozen(value)) for name, value in action.items()))
    return key


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    return value


def seat_actions(actions: list[dict], seat) -> list[dict]:
    """The actions ``seat`` may take (``legal_actions`` lists every deciding seat's at once)."""
    return [action for action in actions if action.get("seat") == seat]


def seat_count(state: dict) -> int:
    return len(state.get("players") or ()) or 2


def outcome_value(outcome: dict, seat, seats: int) -> float:
    """1 for a sole winner, 0 for a loser; a win shared by k seats is 1/k, and no winner at all
    (a draw) is 1/seats, so a two-seat draw counts a half (bench/bots.py)."""
    winners = outcome.get("winners") or []
    if not winners:
        return 1.0 / seats
    return 1.0 / len(winners) if seat in winners else 0.0


def redeal_function(engine):
    """The engine's ``redeal``, or a stand-in for a seat that sees everything (no hidden ids)."""
    redeal = engine.SPEC.redeal
    if redeal is not None:
        return redeal

    def as_is(state: dict, seat, rng) -> dict:
        if engine.hidden_from(state, seat):
            raise BotError(f"The computer cannot play {engine.NAME} yet: its engine has no redeal() and "
                           f"hides cards from seat {seat}, so the computer would see what its seat cannot.")
        return state

    return as_is


def heuristic_function(engine):
    """``(state, seat) -> float``: the engine's heuristic clamped to [0, 1], the outcome's value once
    the game is over, and before it the spec's default (0.5) when the engine has none."""
    heuristic = engine.SPEC.heuristic
    outcome = engine.outcome

    def value(state: dict, seat) -> float:
        result = outcome(state)
        if result is not None:
            return outcome_value(result, seat, seat_count(state))
        estimate = heuristic(state, seat)
        return 0.0 if estimate < 0 else 1.0 if estimate > 1 else float(estimate)

    return value


def is_player(seat) -> bool:
    """A seat a player (or the computer) decides for: not the GM."""
    return seat != GM and isinstance(seat, int)


def playout_function(engine):
    """``(state, actions, rng) -> action``: the engine's ``playout`` policy, or the spec's default, a uniform
    random choice."""
    return engine.SPEC.playout


def search_settings(engine, strength: str) -> dict:
    """``{"iterations", "depth", "exploration", "widening"}`` of a strength at ``engine``: its spec's
    ``search`` (the engine's ``SEARCH``:
    ``{"depth": 0, "exploration": 0.7, "widening": 1.0, "iterations": {"quick": 200, ...}}``, any key
    optional; no widening by default, ismcts.py) over the defaults (``DEFAULT_SEARCH``). A fixed number
    of iterations per strength and game is what the bench counts (machine-independent); the seconds cap
    (``BUDGETS``) is kept for play."""
    tuned = engine.SPEC.search
    iterations = {**DEFAULT_SEARCH["iterations"], **tuned.get("iterations", {})}
    if strength not in iterations:
        raise ValueError(f"No strength called {strength!r}; known strengths: {', '.join(iterations)}.")
    return {"iterations": iterations[strength],
            "depth": tuned.get("depth", DEFAULT_SEARCH["depth"][strength]),
            "exploration": tuned.get("exploration", DEFAULT_SEARCH["exploration"]),
            "widening": tuned.get("widening")}


# The search's settings where an engine names none (bench/bots.py before issue 27).
DEFAULT_SEARCH = {
    "iterations": {"quick": 150, "normal": 600, "strong": 3000},
    "depth": {"quick": 10, "normal": 12, "strong": 16},
    "exploration": 0.7,
}
