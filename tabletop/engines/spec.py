"""The engine contract in code: what every engine must have, what it may add, and its spec.

``kernel.py``'s docstring says what each function means; this module says which functions there are, as
``typing.Protocol`` classes a checker (and ``isinstance``) can hold an engine to:

* ``Engine``: what every engine module has (``setup``, ``apply``, ``view``... and its ``SPEC``);
* ``RulesHooks``: what the rules decide after a redeal (``settle``) and what its lines may name
  (``card_names``, ``shown_by``: the secret checks of ``simulate.py``);
* ``ComputerHooks``: what the computer players use (``redeal``, ``heuristic``, ``playout``, ``observed``,
  ``search``: ``tabletop/bots``);
* ``GMHooks``: the GM's overrides (``override_menu``, ``gm_overrides``).

Every optional hook is declared once, in one ``EngineSpec`` per engine, built at import in the engine's
package (``SPEC = EngineSpec(...)`` in its ``__init__.py``) and checked by the registry
(``tabletop/engines/__init__.py``: ``register``, ``engine_spec``); what an engine leaves out takes the
default written here. OpenSpiel's ``GameType`` passed to ``register_game`` and boardgame.io's
``ProcessGameConfig`` are the models. So a caller reads ``engine.SPEC.heuristic`` (or
``engine_spec("gridaris").search``) and never asks a module whether it has a hook: an engine's shape is
stated where the engine is written, not guessed where it is used.

Two hooks have no stand-in that would be honest, and are ``None`` when left out: ``redeal`` (the
engine cannot deal a what-if anew, and the computer plays only a seat from which nothing is hidden)
and ``card_names`` (its lines name no card, so there is nothing for the line check to read);
``observed`` is ``None`` when every move is seen by every seat (the search keeps one tree).

Plain Python and the standard library only, like every engine.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, UnionType
from typing import Any, Protocol, runtime_checkable

from .kernel import Action, Rng, State
from .kernel import settle as settle_as_is


def estimate_even(state: State, seat: Any) -> float:
    """The default ``heuristic``: no estimate, an even chance (a cut-off playout is worth 0.5)."""
    return 0.5


def uniform_playout(state: State, actions: list[Action], rng: Rng) -> Action:
    """The default ``playout``: any one of the legal ``actions``, uniformly at random."""
    return rng.choice(actions)


def no_overrides(state: State) -> list[dict]:
    """The default ``override_menu`` and ``gm_overrides``: the GM has no override in this game."""
    return []


def shows_nothing(action: Action) -> tuple[str, ...]:
    """The default ``shown_by``: an action shows no hidden card to the table while it is taken."""
    return ()


@runtime_checkable
class Engine(Protocol):
    """What every engine module has (kernel.py's docstring says what each one means)."""

    NAME: str
    TITLE: str
    SPEC: EngineSpec

    def setup(self, config: dict, rng: Rng) -> State: ...

    def to_act(self, state: State) -> list: ...

    def legal_actions(self, state: State) -> list[Action]: ...

    def apply(self, state: State, action: Action, rng: Rng) -> State: ...

    def view(self, state: State, seat: Any) -> dict: ...

    def outcome(self, state: State) -> dict | None: ...

    def invariants(self, state: State) -> list[str]: ...

    def illegal_examples(self, state: State) -> list[Action]: ...

    def hidden_from(self, state: State, seat: Any) -> list[str]: ...

    def random_config(self, rng: Rng) -> dict: ...


@runtime_checkable
class RulesHooks(Protocol):
    """What the rules decide without a move, and what a line may name (kernel.py, sight.py)."""

    settle: Callable[[State, Rng], State]
    card_names: Callable[[State], dict[str, str]] | None
    shown_by: Callable[[Action], Iterable[str]]


@runtime_checkable
class ComputerHooks(Protocol):
    """What the computer players read (tabletop/bots/common.py says how each is used)."""

    redeal: Callable[[State, Any, Rng], State] | None
    heuristic: Callable[[State, Any], float]
    playout: Callable[[State, list[Action], Rng], Action]
    observed: Callable[[Action, Any], Action] | None
    search: Mapping[str, Any]


@runtime_checkable
class GMHooks(Protocol):
    """The GM's overrides: the menu the GM view shows, and examples that make sense now (simulate.py)."""

    override_menu: Callable[[State], list[dict]]
    gm_overrides: Callable[[State], list[Action]]


HOOKS = (RulesHooks, ComputerHooks, GMHooks)
CONTRACT = ("NAME", "TITLE", "SPEC", "setup", "to_act", "legal_actions", "apply", "view", "outcome", "invariants",
            "illegal_examples", "hidden_from", "random_config")


@dataclass(frozen=True)
class EngineSpec:
    """One engine's optional hooks, each with its default (module doc); built once, in the engine's package."""

    name: str
    title: str
    settle: Callable[[State, Rng], State] = settle_as_is
    card_names: Callable[[State], dict[str, str]] | None = None
    shown_by: Callable[[Action], Iterable[str]] = shows_nothing
    redeal: Callable[[State, Any, Rng], State] | None = None
    heuristic: Callable[[State, Any], float] = estimate_even
    playout: Callable[[State, list[Action], Rng], Action] = uniform_playout
    observed: Callable[[Action, Any], Action] | None = None
    search: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    override_menu: Callable[[State], list[dict]] = no_overrides
    gm_overrides: Callable[[State], list[Action]] = no_overrides

    def __post_init__(self) -> None:
        object.__setattr__(self, "search", MappingProxyType(dict(self.search)))

    @property
    def can_redeal(self) -> bool:
        """Whether the engine can deal anew what a seat cannot see (a what-if dealt anew, the search)."""
        return self.redeal is not None


def _function_calls() -> dict[str, tuple[int, str]]:
    """How each function of the contract is called, read from ``Engine``: (the number of arguments it is passed,
    the call as the contract writes it)."""
    calls = {}
    for name in CONTRACT:
        if callable(getattr(Engine, name, None)):
            parameters = tuple(inspect.signature(getattr(Engine, name)).parameters)[1:]  # ``self`` aside
            calls[name] = (len(parameters), f"{name}({', '.join(parameters)})")
    return calls


def _hook_calls() -> dict[str, tuple[int, str, bool]]:
    """How each hook of ``EngineSpec`` is called, read from its annotation: (the number of arguments it is passed,
    the annotation, whether ``None`` may stand in)."""
    calls = {}
    for name, hint in typing.get_type_hints(EngineSpec).items():
        optional = typing.get_origin(hint) in (UnionType, typing.Union)
        called = next(arg for arg in typing.get_args(hint) if arg is not type(None)) if optional else hint
        if typing.get_origin(called) is Callable:
            written = EngineSpec.__annotations__[name].removesuffix(" | None")
            calls[name] = (len(typing.get_args(called)[0]), written, optional)
    return calls


FUNCTION_CALLS = _function_calls()
HOOK_CALLS = _hook_calls()


def _call_problem(what: str, function: Any, arguments: int, called_as: str) -> str | None:
    """Why ``function`` cannot be called with ``arguments`` positional arguments, or None if it can."""
    if not callable(function):
        return f"{what} is not a function."
    try:
        inspect.signature(function).bind(*range(arguments))
    except TypeError:
        return f"{what} cannot be called as {called_as}."
    except ValueError:  # no signature to read (a built-in): taken on trust
        pass
    return None


def contract_problems(engine: Any) -> list[str]:
    """What ``engine`` lacks of the contract, as sentences (empty when it has it all): the registry's check.

    Every name of ``CONTRACT`` is there; every function and every hook of its ``SPEC`` is a function that takes
    the arguments the contract passes it (a hook may be ``None`` where its annotation says so); the spec is an
    ``EngineSpec`` named as the engine is."""
    missing = sorted(name for name in CONTRACT if not hasattr(engine, name))
    if missing:
        return [f"The engine {engine!r} lacks {', '.join(missing)} of the contract (engines/spec.py)."]
    name, spec = engine.NAME, engine.SPEC
    problems = [
        _call_problem(f"{name}'s {function}", getattr(engine, function), arguments, called_as)
        for function, (arguments, called_as) in FUNCTION_CALLS.items()
    ]
    if not isinstance(spec, EngineSpec):
        problems.append(f"{name}'s SPEC is not an EngineSpec.")
    else:
        if spec.name != name:
            problems.append(f"{name}'s SPEC is named {spec.name!r}, not {name!r}.")
        problems += [
            _call_problem(f"{name}'s SPEC.{hook}", getattr(spec, hook), arguments, called_as)
            for hook, (arguments, called_as, optional) in HOOK_CALLS.items()
            if not (optional and getattr(spec, hook) is None)
        ]
    return [problem for problem in problems if problem]
