"""Pure rules engines, one per game, behind the contract in ``kernel.py``.

Nothing here imports Django or the rest of the project.
"""

from types import ModuleType

from . import army, dungeon, gotm, gridaris, mercenarium

ENGINES: dict[str, ModuleType] = {engine.NAME: engine for engine in (army, gridaris, gotm, mercenarium, dungeon)}


def get_engine(name: str) -> ModuleType:
    try:
        return ENGINES[name]
    except KeyError:
        raise KeyError(f"No game called {name!r}; known games: {', '.join(sorted(ENGINES))}.") from None
