"""Random legal play-throughs that check the kernel contract after every action.

Used by ``manage.py simulate`` and the contract tests. For every action it checks:
the state survives a JSON round trip unchanged, ``apply`` leaves its input alone,
every example of an illegal action is refused, a seat's view never holds another
seat's secrets (neither a hidden card's id anywhere nor, in a line the action added,
a hidden card's name), the engine's own invariants hold, and a game not over has someone with a legal
action (a pending choice with no answer would otherwise wait for ever: issue 36).

Every ``FORK_EVERY`` actions or so it also deals a players' what-if at that point (the engine's
``redeal`` for a random set of seats, then its ``settle``: ``what_if.deal_what_if``, as ``services/forks.py``
does, rulings WI10, WI13): each of those seats must see exactly what it saw, the new state must pass the
same checks (no view holds a hidden id) and someone must be able to act in it unless it is over.

An engine with GM overrides lists some that make sense now in its spec's ``gm_overrides(state)``
(``spec.py``); random play mixes them in (about one step in ``OVERRIDE_EVERY``), so every override
and every line it writes goes through the same checks. An engine that names cards in
its lines gives ``card_names(state)`` (every card's id and name) so those lines can be checked.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

from . import get_engine
from .kernel import GM, IllegalAction, SeededRng, State, canonical_json, round_trip
from .sight import (
    hidden_ids_shown,
    names_leaked,
    names_visible,
    shown_card_names,
    sight,
    sights,
    strings_in,
    viewers,
)
from .what_if import SightChanged, deal_what_if

OVERRIDE_EVERY = 8
FORK_EVERY = 16


@dataclass
class SimulationReport:
    game: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    violations: list[str] = field(default_factory=list)
    overrides: dict[str, int] = field(default_factory=dict)
    forks: int = 0
    max_actions_per_game: int = 5000

    def summary(self) -> str:
        seconds = self.seconds or 1e-9
        return (
            f"{self.game}: {self.games} games, {self.actions} actions, "
            f"{sum(self.overrides.values())} GM overrides, {self.forks} what-ifs dealt, "
            f"{len(self.violations)} invariant violations, "
            f"{self.games / seconds:.1f} games/s, {self.actions / seconds:.1f} actions/s"
        )


def check_state(engine, state: State, where: str, seen: dict | None = None) -> list[str]:
    """The state's own checks, and no view holds a hidden id (``seen``: the state's sights, if known)."""
    problems = []
    if round_trip(state) != state:
        problems.append(f"{where}: the state does not survive a JSON round trip")
    problems.extend(f"{where}: {problem}" for problem in engine.invariants(state))
    if engine.outcome(state) is None and not engine.legal_actions(state):
        problems.append(f"{where}: nobody can act but the game is not over")
    for seat, sees in (seen or sights(engine, state)).items():
        leaked = hidden_ids_shown(sees)
        if leaked:
            problems.append(f"{where}: the view for seat {seat} shows hidden {leaked[:3]}")
    return problems


def check_lines(engine, before: State, action: dict, after: State, where: str,
                seen_before: dict | None = None, seen_after: dict | None = None,
                names: dict | None = None, known: dict | None = None) -> list[str]:
    """No string an action added to a view names a card hidden from that viewer before and after it
    (sight.py). ``seen_*`` and ``names`` may be passed in when already known; ``names`` is completed;
    ``known`` (per viewer, the names it could see earlier in this game) is used and then added to."""
    card_names = engine.SPEC.card_names
    if card_names is None:  # its lines name no card
        return []
    seen_before = seen_before or sights(engine, before)
    seen_after = seen_after or sights(engine, after)
    if names is None:
        names = {**card_names(before), **card_names(after)}
    elif any(card_id not in names for sees in seen_after.values() for card_id in sees.hidden):
        names.update(card_names(after))  # cards made during the game (a dungeon's acquired cards)
    shown = frozenset(engine.SPEC.shown_by(action))
    problems = []
    for seat, now in seen_after.items():
        earlier = known.setdefault(seat, set()) if known is not None else set()
        leaked = names_leaked(seen_before[seat], now, names, shown, earlier)
        earlier |= names_visible(now, names)
        if leaked:
            problems.append(f"{where}: a new line for seat {seat} names hidden {leaked[:3]}")
    return problems


def leaked_names(engine, before: State, after: State, seat) -> list[str]:
    """The hidden cards' names that ``seat``'s view gained from ``before`` to ``after`` (tests)."""
    names = {**engine.card_names(before), **engine.card_names(after)}
    return names_leaked(sight(engine, before, seat), sight(engine, after, seat), names)


def check_step(engine, before: State, snapshot: str, where: str) -> list[str]:
    problems = []
    if canonical_json(before) != snapshot:
        problems.append(f"{where}: apply changed its input state")
    for bad in engine.illegal_examples(before):
        try:
            engine.apply(before, bad, SeededRng(0))
        except IllegalAction:
            continue
        problems.append(f"{where}: the illegal action {bad!r} was accepted")
    return problems


def check_fork(engine, state: State, seats: list[int], rng, where: str) -> list[str]:
    """A players' what-if dealt at ``state`` for ``seats`` as a table gets it (``what_if.deal_what_if``: the
    redeal, then the engine's ``settle``): each seat sees what it saw, nothing hidden shows, the engine's
    invariants hold and someone can act unless the game is over (issue 36)."""
    try:
        dealt = deal_what_if(engine, state, seats, rng)
    except SightChanged as refused:
        return [f"{where}: the what-if dealt for seats {seats} changed what seat {seat} sees" for seat in refused.seats]
    where = f"{where} (what-if for seats {seats})"
    return check_state(engine, dealt, where)  # its checks include "nobody can act but the game is not over"


def _fork_check(engine, state: State, forks, seed: int, step: int, report: SimulationReport) -> None:
    """Now and then (``forks``: a generator of its own, so the games played stay the same) a what-if."""
    if not engine.SPEC.can_redeal or forks.randint(1, FORK_EVERY) != 1:
        return
    players = list(range(len(state["players"])))
    seats = [seat for seat in players if forks.randint(0, 1)] or [forks.choice(players)]
    report.forks += 1
    where = f"seed {seed} step {step}"
    report.violations.extend(check_fork(engine, state, seats, SeededRng(f"fork-{seed}-{step}"), where))


def play_one(engine, seed: int, report: SimulationReport, check: bool = True) -> State:
    rng = SeededRng(seed)
    chooser = SeededRng(f"choices-{seed}")
    forks = SeededRng(f"what-ifs-{seed}")
    state = engine.setup(engine.random_config(chooser), rng)
    names = engine.SPEC.card_names(state) if check and engine.SPEC.card_names is not None else {}
    seen = sights(engine, state) if check else {}
    known = {seat: names_visible(sees, names) for seat, sees in seen.items()}
    if check:
        report.violations.extend(check_state(engine, state, f"seed {seed} setup", seen))
    for step in range(report.max_actions_per_game):
        if engine.outcome(state) is not None:
            break
        actions = engine.legal_actions(state)
        if not actions:
            report.violations.append(f"seed {seed} step {step}: no legal action but no outcome")
            break
        action = _next_action(engine, state, actions, chooser, report)
        snapshot = canonical_json(state) if check else ""
        before = state
        state = engine.apply(state, copy.deepcopy(action), rng)
        report.actions += 1
        if check:
            where = f"seed {seed} step {step} {action!r}"
            report.violations.extend(check_step(engine, before, snapshot, where))
            seen_before, seen = seen, sights(engine, state)
            report.violations.extend(check_state(engine, state, where, seen))
            report.violations.extend(check_lines(engine, before, action, state, where, seen_before, seen, names, known))
            if engine.outcome(state) is None:
                _fork_check(engine, state, forks, seed, step, report)
    else:
        report.violations.append(f"seed {seed}: no outcome after {report.max_actions_per_game} actions")
    report.games += 1
    return state


def state_at(engine, seed: int, step: int) -> State:
    """The state game ``seed`` of random play reaches after its action ``step`` (numbered from 0, as a
    violation's "seed S step N" says), or its end if that comes first: a test rebuilds what simulate found."""
    return play_one(engine, seed, SimulationReport(game=engine.NAME, max_actions_per_game=step + 1), check=False)


def _next_action(engine, state: State, actions: list[dict], chooser, report: SimulationReport) -> dict:
    """A random legal action, or now and then a random GM override of a random kind (counted)."""
    overrides = engine.SPEC.gm_overrides(state)  # none (the spec's default) in a game without GM overrides
    if overrides and chooser.randint(1, OVERRIDE_EVERY) == 1:
        kind = chooser.choice(sorted({override["type"] for override in overrides}))
        report.overrides[kind] = report.overrides.get(kind, 0) + 1
        return chooser.choice([override for override in overrides if override["type"] == kind])
    return chooser.choice(actions)


def simulate(game: str, games: int, seed: int, check: bool = True) -> SimulationReport:
    engine = get_engine(game)
    report = SimulationReport(game=game)
    started = time.perf_counter()
    for index in range(games):
        play_one(engine, seed + index, report, check=check)
    report.seconds = time.perf_counter() - started
    return report


__all__ = ["GM", "SimulationReport", "simulate", "play_one", "state_at", "check_state", "check_fork", "check_lines",
           "leaked_names", "shown_card_names", "strings_in", "viewers"]
