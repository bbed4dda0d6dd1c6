"""Random legal play-throughs that check the kernel contract after every action.

Used by ``manage.py simulate`` and the contract tests. For every action it checks:
the state survives a JSON round trip unchanged, ``apply`` leaves its input alone,
every example of an illegal action is refused, a seat's view never holds another
seat's secrets, and the engine's own invariants hold.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

from . import get_engine
from .kernel import GM, IllegalAction, SeededRng, State, canonical_json, round_trip


@dataclass
class SimulationReport:
    game: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    violations: list[str] = field(default_factory=list)
    max_actions_per_game: int = 5000

    def summary(self) -> str:
        seconds = self.seconds or 1e-9
        return (
            f"{self.game}: {self.games} games, {self.actions} actions, "
            f"{len(self.violations)} invariant violations, "
            f"{self.games / seconds:.1f} games/s, {self.actions / seconds:.1f} actions/s"
        )


def check_state(engine, state: State, where: str) -> list[str]:
    problems = []
    if round_trip(state) != state:
        problems.append(f"{where}: the state does not survive a JSON round trip")
    problems.extend(f"{where}: {problem}" for problem in engine.invariants(state))
    for seat in [*range(len(state.get("players", []))), None]:
        leaked = set(engine.hidden_from(state, seat)) & strings_in(engine.view(state, seat))
        if leaked:
            problems.append(f"{where}: the view for seat {seat} shows hidden {sorted(leaked)[:3]}")
    return problems


def strings_in(data) -> set[str]:
    """Every string in a JSON structure, keys included: where a hidden id would show."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


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


def play_one(engine, seed: int, report: SimulationReport, check: bool = True) -> State:
    rng = SeededRng(seed)
    chooser = SeededRng(f"choices-{seed}")
    state = engine.setup(engine.random_config(chooser), rng)
    if check:
        report.violations.extend(check_state(engine, state, f"seed {seed} setup"))
    for step in range(report.max_actions_per_game):
        if engine.outcome(state) is not None:
            break
        actions = engine.legal_actions(state)
        if not actions:
            report.violations.append(f"seed {seed} step {step}: no legal action but no outcome")
            break
        action = chooser.choice(actions)
        snapshot = canonical_json(state) if check else ""
        before = state
        state = engine.apply(state, copy.deepcopy(action), rng)
        report.actions += 1
        if check:
            where = f"seed {seed} step {step} {action!r}"
            report.violations.extend(check_step(engine, before, snapshot, where))
            report.violations.extend(check_state(engine, state, where))
    else:
        report.violations.append(f"seed {seed}: no outcome after {report.max_actions_per_game} actions")
    report.games += 1
    return state


def simulate(game: str, games: int, seed: int, check: bool = True) -> SimulationReport:
    engine = get_engine(game)
    report = SimulationReport(game=game)
    started = time.perf_counter()
    for index in range(games):
        play_one(engine, seed + index, report, check=check)
    report.seconds = time.perf_counter() - started
    return report


__all__ = ["GM", "SimulationReport", "simulate", "play_one"]
