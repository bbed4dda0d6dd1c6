"""One contract test, run over every registered engine (OpenSpiel's random_sim_test in spirit)."""

import dataclasses
import random
from types import ModuleType

import pytest

from tabletop.engines import ENGINES, engine_spec, gridaris, register
from tabletop.engines.kernel import GM, PUBLIC, IllegalAction, SeededRng, canonical_json, digest, round_trip
from tabletop.engines.simulate import SimulationReport, play_one, simulate
from tabletop.engines.spec import CONTRACT, HOOKS, contract_problems

ENGINE_NAMES = sorted(ENGINES)


@pytest.fixture(params=ENGINE_NAMES)
def engine(request):
    return ENGINES[request.param]


def test_every_engine_declares_the_whole_contract(engine):
    """The contract's protocols (tabletop/engines/spec.py) over the engine and the spec the registry hands out."""
    assert contract_problems(engine) == []
    spec = engine_spec(engine.NAME)
    assert spec is engine.SPEC
    assert [hooks.__name__ for hooks in HOOKS if not isinstance(spec, hooks)] == []


def _gridaris_but(**changes) -> ModuleType:
    """An engine module with Gridaris's whole contract but ``changes`` (``...`` takes the name away)."""
    engine = ModuleType("broken_engine")
    for name in CONTRACT:
        setattr(engine, name, getattr(gridaris, name))
    for name, value in changes.items():
        if value is ...:
            delattr(engine, name)
        else:
            setattr(engine, name, value)
    return engine


def _spec_but(**hooks):
    return dataclasses.replace(gridaris.SPEC, **hooks)


@pytest.mark.parametrize(
    ("changes", "sentence"),
    [
        pytest.param({"view": ...}, "lacks view of the contract", id="a function missing"),
        pytest.param({"apply": ..., "SPEC": ...}, "lacks SPEC, apply of the contract", id="the spec missing too"),
        pytest.param({"apply": None}, "gridaris's apply is not a function", id="a function that is None"),
        pytest.param(
            {"legal_actions": "all"}, "gridaris's legal_actions is not a function", id="a function that is text"
        ),
        pytest.param(
            {"view": lambda state: {}}, "gridaris's view cannot be called as view(state, seat)", id="a function short"
        ),
        pytest.param({"SPEC": {"heuristic": None}}, "gridaris's SPEC is not an EngineSpec", id="a spec that is a dict"),
        pytest.param({"SPEC": _spec_but(name="gotm")}, "gridaris's SPEC is named 'gotm'", id="another engine's spec"),
        pytest.param(
            {"SPEC": _spec_but(heuristic=0.5)},
            "gridaris's SPEC.heuristic is not a function",
            id="a hook that is a number",
        ),
        pytest.param(
            {"SPEC": _spec_but(heuristic=lambda state: 0.5)},
            "gridaris's SPEC.heuristic cannot be called as Callable[[State, Any], float]",
            id="a hook short of an argument",
        ),
        pytest.param(
            {"SPEC": _spec_but(settle=None)},
            "gridaris's SPEC.settle is not a function",
            id="a hook None may not stand in",
        ),
    ],
)
def test_register_refuses_an_engine_that_lacks_part_of_the_contract_naming_what(changes, sentence):
    """The registry checks each engine once, at import (tabletop/engines/__init__.py): a function or the SPEC
    missing, a hook that is no function or takes other arguments than the contract passes, a spec not its own."""
    with pytest.raises(TypeError) as refused:
        register(gridaris, _gridaris_but(**changes))
    assert sentence in str(refused.value)


def test_register_takes_a_spec_that_leaves_the_hooks_that_may_be_none_out():
    engine = _gridaris_but(SPEC=_spec_but(redeal=None, card_names=None, observed=None))
    assert register(engine) == {"gridaris": engine}


# A dungeon game runs to about two thousand actions since an attack takes Skill cards (ruling D21), each
# checked against every invariant and every seat's view: three games (seed 11) check about 6,000 actions in
# some fifteen seconds; `make soak` plays hundreds. Mercenarium's games are long too.
GAMES = {"dungeon": 3, "mercenarium": 15}


def test_random_games_end_without_a_single_invariant_violation(engine):
    games = GAMES.get(engine.NAME, 25)
    report = simulate(engine.NAME, games=games, seed=11)
    assert report.violations == []
    assert report.games == games and report.actions > games


def test_the_same_seed_gives_the_same_game_even_when_global_random_is_disturbed(engine):
    def transcript(seed):
        report = SimulationReport(game=engine.NAME)
        random.seed(seed * 7919)  # disturb the global generator: engines must not use it
        state = play_one(engine, seed, report, check=False)
        random.random()
        return digest(state), report.actions

    assert transcript(5) == transcript(5)
    assert transcript(5) != transcript(6)


def test_setup_state_round_trips_through_json_and_views_are_json(engine):
    config = engine.random_config(SeededRng(3))
    state = engine.setup(config, SeededRng(4))
    assert round_trip(state) == state
    for seat in [*range(len(config["players"])), GM, PUBLIC]:
        view = engine.view(state, seat)
        assert round_trip(view) == view


def test_apply_refuses_a_seat_that_is_not_deciding_and_leaves_the_state_alone(engine):
    state = engine.setup(engine.random_config(SeededRng(8)), SeededRng(9))
    snapshot = canonical_json(state)
    deciding = engine.to_act(state)
    action = engine.legal_actions(state)[0]
    others = [seat for seat in range(len(state["players"])) if seat not in deciding]
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, {**action, "seat": others[0]}, SeededRng(1))
    assert str(refused.value)
    assert canonical_json(state) == snapshot


def test_an_unknown_action_type_is_refused_with_a_sentence(engine):
    state = engine.setup(engine.random_config(SeededRng(8)), SeededRng(9))
    seat = engine.to_act(state)[0]
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, {"type": "teleport", "seat": seat}, SeededRng(1))
    assert len(str(refused.value)) > 10


def test_the_secret_check_catches_a_view_that_leaks_a_hidden_card(engine, monkeypatch):
    from tabletop.engines.simulate import check_state

    state = engine.setup(engine.random_config(SeededRng(2)), SeededRng(2))
    honest_view = engine.view
    hidden = engine.hidden_from(state, 0)
    assert hidden, "a fresh game hides something from seat 0"
    monkeypatch.setattr(engine, "view", lambda s, seat: {**honest_view(s, seat), "oops": [hidden[0]]})
    assert any("shows hidden" in problem for problem in check_state(engine, state, "leak"))
