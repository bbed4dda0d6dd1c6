"""Seeded random play-throughs for engine tests: every state of a game, in order."""

from collections.abc import Iterator

from tabletop.engines.kernel import SeededRng


def random_states(engine, seed: int, choices: str = "choices") -> Iterator[dict]:
    """Every state of a seeded random game of ``engine`` (its ``random_config``), the final one included.
    Chance comes from ``SeededRng(seed)``, the players' choices from ``SeededRng(f"{choices}-{seed}")``."""
    rng, chooser = SeededRng(seed), SeededRng(f"{choices}-{seed}")
    state = engine.setup(engine.random_config(chooser), rng)
    yield state
    while engine.outcome(state) is None:
        state = engine.apply(state, chooser.choice(engine.legal_actions(state)), rng)
        yield state
