"""Pure rules engines, one per game, behind the contract in ``kernel.py`` (its functions) and ``spec.py``
(its protocols, and the one ``EngineSpec`` each engine declares its optional hooks in).

The registry: ``ENGINES`` (name -> engine module), built once at import by ``register``, which refuses with a
``TypeError`` naming what is wrong an engine that lacks part of the contract, whose function or hook is no
function or takes other arguments than the contract passes it, or whose spec is not its own.
``engine_spec(name)`` is the spec a caller reads (``engine_spec("gridaris").redeal``); with an engine at
hand, ``engine.SPEC`` is the same.

Nothing here imports Django or the rest of the project.
"""

from types import ModuleType

from . import army, dungeon, gotm, gridaris, mercenarium
from .spec import EngineSpec, contract_problems


def register(*engines: ModuleType) -> dict[str, ModuleType]:
    """The registry of ``engines`` by name, each checked against the contract (spec.py) once, at import."""
    problems = [problem for engine in engines for problem in contract_problems(engine)]
    if problems:
        raise TypeError(" ".join(problems))
    return {engine.NAME: engine for engine in engines}


ENGINES: dict[str, ModuleType] = register(army, gridaris, gotm, mercenarium, dungeon)


def get_engine(name: str) -> ModuleType:
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"No game called {name!r}; known games: {', '.join(sorted(ENGINES))}.") from None


def engine_spec(name: str) -> EngineSpec:
    """The spec of the game called ``name``: its optional hooks, each the engine's own or the default."""
    return get_engine(name).SPEC
