"""Rebuild a table from its log and prove it with the recorded digests.

A log is where the table starts and each entry in order: an action with the draws it
consumed, or an undo of the latest live action. Every entry carries the digest of the
state it produced. A table starts from its config and the draws its setup consumed; a
what-if dealt anew at its fork point (services/forks.py, ruling WI10) starts from its
``start_state`` instead, and its log carries neither config nor setup draws (version 2).
The format is documented in ``docs/replay-format.md``; version 1 logs still replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import get_engine
from .kernel import ScriptedRng, State, digest, round_trip

LOG_FORMAT = "muster-table-log"
LOG_VERSION = 2
READ_VERSIONS = (1, 2)  # version 2 adds ``start_state`` / ``start_digest``; a version 1 log is one without them


class ReplayError(Exception):
    pass


@dataclass
class Replayed:
    game: str
    state: State
    applied: int = 0
    undone: int = 0
    checked_digests: int = 0
    mismatches: list[str] = field(default_factory=list)


def setup_state(game: str, config: dict, setup_draws: list[int]) -> State:
    rng = ScriptedRng(setup_draws)
    state = get_engine(game).setup(config, rng)
    if rng.remaining:
        raise ReplayError("The setup did not use every recorded draw.")
    return state


def start_state_of(game: str, config: dict, setup_draws: list[int], start_state: State | None = None) -> State:
    """Where a table's log starts: its ``start_state`` when it has one (a what-if dealt anew), else its setup."""
    if start_state is not None:
        return round_trip(start_state)
    return setup_state(game, config, setup_draws)


def apply_recorded(game: str, state: State, action: dict, draws: list[int]) -> State:
    rng = ScriptedRng(draws)
    new_state = get_engine(game).apply(state, action, rng)
    if rng.remaining:
        raise ReplayError(f"Action {action!r} did not use every recorded draw.")
    return new_state


def live_entries(entries: list[dict]) -> list[dict]:
    """The action entries still in force once every undo has taken its action back."""
    stack: list[dict] = []
    for entry in entries:
        if "undo" in entry:
            if not stack:
                raise ReplayError(f"Entry {entry.get('seq')} undoes an action that does not exist.")
            stack.pop()
        else:
            stack.append(entry)
    return stack


def rebuild(game: str, config: dict, setup_draws: list[int], entries: list[dict],
            start_state: State | None = None) -> State:
    """The state after the live actions of ``entries`` from the table's start (no digest checks)."""
    state = start_state_of(game, config, setup_draws, start_state)
    for entry in live_entries(entries):
        state = apply_recorded(game, state, entry["action"], entry.get("draws", []))
    return state


def replay_log(log: dict[str, Any]) -> Replayed:
    """Replay a whole log, checking the digest recorded after setup and after every entry."""
    if log.get("format") != LOG_FORMAT:
        raise ReplayError(f"This is not a Muster table log (format should be {LOG_FORMAT!r}).")
    if log.get("version") not in READ_VERSIONS:
        raise ReplayError(
            f"Unsupported log version {log.get('version')!r}; this Muster reads versions "
            f"{', '.join(map(str, READ_VERSIONS))}."
        )
    game = log["game"]
    if log.get("start_state") is not None:
        state = start_state_of(game, {}, [], log["start_state"])
        result = Replayed(game=game, state=state)
        _check(result, "start", state, log.get("start_digest"))
    else:
        state = setup_state(game, log["config"], log.get("setup_draws", []))
        result = Replayed(game=game, state=state)
        _check(result, "setup", state, log.get("setup_digest"))
    history: list[State] = [state]
    for entry in log.get("entries", []):
        if "undo" in entry:
            if len(history) < 2:
                raise ReplayError(f"Entry {entry.get('seq')} undoes an action that does not exist.")
            history.pop()
            result.undone += 1
        else:
            history.append(apply_recorded(game, history[-1], entry["action"], entry.get("draws", [])))
            result.applied += 1
        _check(result, f"entry {entry.get('seq')}", history[-1], entry.get("digest"))
    result.state = history[-1]
    return result


def _check(result: Replayed, where: str, state: State, expected: str | None) -> None:
    if expected is None:
        return
    result.checked_digests += 1
    if digest(state) != expected:
        result.mismatches.append(f"{where}: digest {digest(state)[:12]} differs from the recorded {expected[:12]}")
