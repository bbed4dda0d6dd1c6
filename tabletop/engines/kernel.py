"""The table-game kernel: the one contract every engine follows.

This docstring says what each function means; ``spec.py`` states the contract in code: the protocols an
engine is held to (``Engine``, ``RulesHooks``, ``ComputerHooks``, ``GMHooks``) and the ``EngineSpec`` each
engine builds once as its ``SPEC``, with a default for every optional hook below. Callers read the spec
(``engine.SPEC.redeal``, ``engine_spec(name)``), never the module, for an optional hook.

An engine is a module (or package) exposing:

    NAME: str                         registry key, e.g. "gridaris"
    TITLE: str                        human name
    setup(config, rng) -> state       config and state are plain JSON data
    to_act(state) -> list[Seat]       who must decide now ([] when the game is over)
    legal_actions(state) -> list[dict]  every action the deciding seats may take now
    apply(state, action, rng) -> state  new state; raises IllegalAction; never mutates input
    settle(state, rng) -> state       what the rules decide without a move, decided again on a state
                                      that changed without one (a what-if's redeal: what_if.py): GOT'M's
                                      end when the player to shop must hire and can pay for nothing (M4),
                                      an Army commander who is Unable passing the turn; the same code
                                      ``apply`` runs after a move; never mutates input. ``settle`` below
                                      is the default for an engine whose rules decide nothing so
    view(state, seat) -> dict         what ``seat`` may see (GM, PUBLIC or a seat index)
    outcome(state) -> dict | None     None while in progress
    invariants(state) -> list[str]    game-specific invariant violations (empty when fine)
    illegal_examples(state) -> list[dict]  actions that must be refused right now
    hidden_from(state, seat) -> list[str]  ids that must not appear in that seat's view
    random_config(rng) -> config      a legal random config (simulate, contract tests)
    SPEC: EngineSpec                  its optional hooks (spec.py), the rest of this list

and, for the computer players (``tabletop/bots``, issue 16; in the engine's ``bot.py``):

    redeal(state, seat, rng) -> state   a new state ``seat`` cannot tell from this one: every card
                                      hidden from ``seat`` dealt anew at random from the pool of
                                      exactly those cards (built in sorted-id order, then
                                      ``rng.shuffled``), every count and all ``seat`` sees kept, so
                                      it depends only on ``view(state, seat)`` and ``rng``
    heuristic(state, seat) -> float   a cheap estimate in [0, 1] of ``seat``'s chance to win (1 won,
                                      0 lost once ``outcome`` is set): the greedy player's score and
                                      the value of a search's cut-off playout
    observed(action, viewer) -> action  optional: the action as seat ``viewer`` sees it (a card played
                                      face down: only that one was played), for a search that must not
                                      let a reply answer what it could not see (tabletop/bots/ismcts.py)

Without ``redeal`` the computer plays only a seat from which nothing is hidden; without
``heuristic`` a cut-off playout is worth 0.5.

Seats are integers (0-based); the GM is the string ``"gm"``; ``PUBLIC`` (None) is the
projector's view. An action is a flat JSON dict with a ``"type"`` and a ``"seat"``.

Randomness is always passed in (``rng``). All chance goes through ``rng.randint``,
so a game's chance is a plain list of integers: ``SeededRng`` draws them from a
seed, ``ScriptedRng`` replays them (tests, physical dice, replays), and both record
what an action consumed so the log can store it.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any

from .words import Translate, english, gettext_noop, say

GM = "gm"
PUBLIC = None

State = dict[str, Any]
Action = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules refuse, with the sentence the player reads: ``message`` is its English template
    (marked with ``words.gettext_noop``), ``params`` its named values. ``str(error)`` is the English sentence;
    a page says it in the reader's language with ``error.say(gettext)`` (the engines import no Django)."""

    def __init__(self, message: str, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def __str__(self) -> str:
        return self.say(english)

    def say(self, translate: Translate) -> str:
        """The sentence in ``translate``'s language (Django's ``gettext`` at a view)."""
        return say(self.message, self.params, translate)


class PickRefused(IllegalAction):
    """Cards picked on a phone (templates/tabletop/games/_cardpick.html) that make no legal move: the
    sentence says why, and ``offer`` tells the page which cards to keep picked and, when the engine has
    one, the move to confirm instead (``confirm``, e.g. a GOT'M payment with its loss agreed)."""

    def __init__(self, message: str, picked: list[str], confirm: dict | None = None, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.offer = {"picked": list(picked), "confirm": confirm}


class RngExhausted(IllegalAction):
    """A scripted source ran out of values (e.g. the GM has not typed the dice yet)."""


class Rng(ABC):
    """Base for sources of chance. Subclasses implement ``_next(lo, hi)``."""

    def __init__(self) -> None:
        self.draws: list[int] = []

    @abstractmethod
    def _next(self, lo: int, hi: int) -> int:
        """The next value in [lo, hi]."""

    def randint(self, lo: int, hi: int) -> int:
        """An integer in [lo, hi], both ends included, recorded in ``draws``."""
        value = self._next(lo, hi)
        self.draws.append(value)
        return value

    def shuffled(self, items: Iterable[Any]) -> list[Any]:
        """A shuffled copy (Fisher-Yates, one draw per position)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.randint(0, i)
            result[i], result[j] = result[j], result[i]
        return result

    def choice(self, items: list[Any]) -> Any:
        if not items:
            raise ValueError("choice from an empty list")
        return items[self.randint(0, len(items) - 1)]

    def take_draws(self) -> list[int]:
        """The draws recorded since the last call, and forget them."""
        taken, self.draws = self.draws, []
        return taken


class SeededRng(Rng):
    """App dice and shuffles from a seed; a private generator, never the global one."""

    def __init__(self, seed: int | str) -> None:
        super().__init__()
        self._random = random.Random(seed)

    def _next(self, lo: int, hi: int) -> int:
        return self._random.randint(lo, hi)


class ScriptedRng(Rng):
    """Chance fixed in advance: recorded draws, typed dice, a test's deck order."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self._values = list(values)
        self._position = 0

    def _next(self, lo: int, hi: int) -> int:
        if self._position >= len(self._values):
            raise RngExhausted(gettext_noop("This needs a roll or a shuffle that has not been entered yet."))
        value = self._values[self._position]
        if not isinstance(value, int) or not lo <= value <= hi:
            raise IllegalAction(gettext_noop("%(value)r is not a possible result here: it must be from %(lo)s to "
                                             "%(hi)s."), value=value, lo=lo, hi=hi)
        self._position += 1
        return value

    @property
    def remaining(self) -> int:
        return len(self._values) - self._position


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(state: State) -> str:
    """sha256 of the canonical JSON of a state: proof that a replay rebuilt it exactly."""
    return hashlib.sha256(canonical_json(state).encode()).hexdigest()


def round_trip(state: State) -> State:
    return json.loads(canonical_json(state))


def thaw(state: State, shared: tuple[str, ...] = ()) -> State:
    """A private deep copy for an engine to change, so the caller's state stays untouched.

    Top-level keys named in ``shared`` (read-only parts such as a card catalog) are
    shared with the input instead of copied: engines must never change them.
    """
    return {key: value if key in shared else _copy_json(value) for key, value in state.items()}


def _copy_json(value: Any) -> Any:
    """Deep copy of plain JSON data; several times faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {key: _copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_json(item) for item in value]
    return value


def viewer_set(seats: Any) -> frozenset:
    """The viewers a ``redeal`` keeps the view of: one seat (an index, ``GM`` or ``PUBLIC``) or several.

    ``redeal(state, seats, rng)`` deals anew what none of them can see: for one seat, a state that
    seat cannot tell from this one (the computer players); for the seats people play at a what-if,
    the cards nobody at the table could see (services/forks.py, ruling WI10). ``PUBLIC`` (or no
    seat) sees no hand: with it alone every hidden card is dealt anew.
    """
    if isinstance(seats, (list, tuple, set, frozenset)):
        return frozenset(seats)
    return frozenset([seats])


_BRACKETED_PLURAL = re.compile(r"\b(\d+) ([A-Za-z]+)\(s\)")


def counted(text: str) -> str:
    """``text`` with "N noun(s)" made to agree ("1 card", "3 cards"), for a view to show.

    Lines an engine wrote into a state keep their words: they are inside every stored log's digests
    (ruling PH9). A view, which no digest covers, reads them this way instead.
    """
    return _BRACKETED_PLURAL.sub(lambda m: f"{m[1]} {m[2]}" + ("" if m[1] == "1" else "s"), text)


def settle(state: State, rng: Rng) -> State:
    """The contract's ``settle`` for an engine whose rules decide nothing without a move that a new deal
    could change: the state as it is (an engine re-exports it, so every engine has the step)."""
    return state


def require(condition: bool, message: str, /, **params: Any) -> None:
    """Refuse with ``message`` (a template marked with ``gettext_noop``) and its ``params`` unless ``condition``."""
    if not condition:
        raise IllegalAction(message, **params)


def seat_name(state: State, seat: Any) -> str:
    if seat == GM:
        return "the GM"
    players = state.get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat}"
