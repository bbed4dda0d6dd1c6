"""The declared action shapes (tabletop/engines/shapes.py): every legal action fits; nothing else gets in."""

import copy

import pytest

from tabletop.engines import ENGINES
from tabletop.engines.kernel import IllegalAction, SeededRng
from tabletop.engines.shapes import MalformedJson, check_action, load_json


def play(engine, seed: int, steps: int):
    """Yield the states of a seeded random game (a few steps)."""
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    state = engine.setup(engine.random_config(chooser), rng)
    for _ in range(steps):
        yield state
        actions = engine.legal_actions(state)
        if engine.outcome(state) is not None or not actions:
            return
        state = engine.apply(state, copy.deepcopy(chooser.choice(actions)), rng)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_legal_action_fits_its_declared_shape(name):
    engine = ENGINES[name]
    for seed in range(3):
        for state in play(engine, seed, 60):
            for action in engine.legal_actions(state):
                check_action(action, engine.apply.shapes, name)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_an_unknown_field_a_wrong_type_or_a_listed_type_is_refused_before_the_rules(name):
    engine = ENGINES[name]
    state = engine.setup(engine.random_config(SeededRng(1)), SeededRng(2))
    legal = engine.legal_actions(state)[0]
    fielded = next((a for a in engine.legal_actions(state) if set(a) - {"type", "seat", "label"}), legal)
    field = next(iter(set(fielded) - {"type", "seat", "label"}), None)
    bad = [{**legal, "note": "x" * 100_000}, {**legal, "type": [legal["type"]]}, {**legal, "type": {"a": 1}},
           ["not", "a", "dict"], {**legal, "type": "teleport"}]
    if field:
        bad.append({**fielded, field: [[[]]]})
    for action in bad:
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, action, SeededRng(0))
        assert len(str(refused.value)) < 400  # a sentence, never the value echoed back


def test_the_army_power_with_a_list_is_refused_with_a_sentence_naming_the_field():
    army = ENGINES["army"]
    state = army.setup(army.random_config(SeededRng(1)), SeededRng(2))
    with pytest.raises(IllegalAction, match="'power'.*text.*not a list"):
        army.apply(state, {"type": "power", "power": [], "seat": 0}, SeededRng(0))


def test_load_json_refuses_deep_nesting_with_a_sentence():
    with pytest.raises(MalformedJson, match="nested too deeply"):
        load_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(MalformedJson, match="nested too deeply"):
        load_json('{"a": [[[[1]]]]}', max_depth=4)
    assert load_json('{"a": [[[1]]]}', max_depth=4) == {"a": [[[1]]]}
