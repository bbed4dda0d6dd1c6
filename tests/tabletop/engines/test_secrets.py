"""Hidden information across every engine: GM overrides and every line an action writes.

The simulate checks (``tabletop/engines/simulate.py``) look, after every action, for a
hidden card's id anywhere in a view and for a hidden card's name in a line the action
added; random play mixes in the GM overrides of engines that have them.
"""

from dataclasses import replace

import pytest

from tabletop.engines import ENGINES, army
from tabletop.engines.army.testing import ANN, BEN, act, battle, card, commander, gm, play, where
from tabletop.engines.kernel import GM, PUBLIC, SeededRng
from tabletop.engines.simulate import SimulationReport, check_fork, check_lines, leaked_names, play_one, simulate

NAMING_ENGINES = sorted(name for name, engine in ENGINES.items() if hasattr(engine, "card_names"))


def unit(card_id, strength=2, **fields):
    return card(card_id, strength, "savant", name=f"Unit {card_id.upper()}", **fields)


def test_every_engine_names_its_cards_for_the_line_checks():
    assert NAMING_ENGINES == sorted(ENGINES)


def test_calling_off_a_skirmish_never_names_the_face_down_card_to_the_other_seat_or_the_table():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = play(state, "a1")  # face down on Offense
    called_off = gm(state, "gm_move_card", card="a1", to="hand")
    assert where(called_off, "a1") == "hand" and called_off["skirmish"] is None
    for viewer in (BEN, PUBLIC):
        assert leaked_names(army, state, called_off, viewer) == []
        assert not any("Unit A1" in line for line in army.view(called_off, viewer)["events"])
    assert "The GM calls off the skirmish" in army.view(called_off, BEN)["events"][-1]
    assert "a1" in [c["id"] for c in army.view(called_off, GM)["commanders"][ANN]["hand"]]  # the GM sees it


def test_a_face_down_card_moved_to_a_face_up_pile_is_named_there():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = play(state, "a1")
    exhausted = gm(state, "gm_move_card", card="a1", to="exhausted")
    assert "Unit A1" in army.view(exhausted, BEN)["events"][-1]
    assert leaked_names(army, state, exhausted, BEN) == []


def test_a_card_moved_between_hidden_places_outside_a_skirmish_is_not_named():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = gm(state, "gm_move_card", card="a1", to="killed")
    back = gm(state, "gm_move_card", card="a1", to="hand")  # it was face up in Killed: no secret
    assert "Unit A1" in army.view(back, BEN)["events"][-1]


def test_the_line_check_catches_a_line_that_names_a_hidden_card_in_every_engine(monkeypatch):
    for name in NAMING_ENGINES:
        engine = ENGINES[name]
        state = engine.setup(engine.random_config(SeededRng(2)), SeededRng(2))
        names = engine.card_names(state)
        shown = {names[card_id] for card_id in names if card_id not in engine.hidden_from(state, 0)}
        secret = next(names[card_id] for card_id in engine.hidden_from(state, 0) if names[card_id] not in shown)
        after = dict(state)  # the same game; only its view gains a line
        honest_view = engine.view

        def leaky_view(s, seat, honest=honest_view, after=after, secret=secret):
            seen = honest(s, seat)
            return {**seen, "extra": [f"Psst: {secret} is out there."]} if s is after else seen

        with monkeypatch.context() as patched:
            patched.setattr(engine, "view", leaky_view)
            problems = check_lines(engine, state, {"type": "pass"}, after, "leak")
        assert any("names hidden" in problem for problem in problems), name


def test_random_army_battles_apply_every_gm_override_and_keep_every_secret():
    report = SimulationReport(game="army")
    for seed in range(120):
        play_one(army, seed, report, check=True)
    assert report.violations == []
    assert set(report.overrides) == {"gm_modifier", "gm_set_dice", "gm_move_card", "gm_morale", "gm_end_battle"}
    assert report.overrides["gm_move_card"] >= 20


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_random_play_keeps_every_line_clean(name):
    report = simulate(name, games=3 if name == "dungeon" else 6, seed=400)  # a dungeon game: ~2,000 actions
    assert report.violations == []


def test_the_gm_ending_the_battle_while_a_save_is_pending_leaves_the_unit_killed():
    state = battle([unit("a1", 6), unit("a2", 6)], [unit("b1", 1), unit("b2", 1), unit("b3")],
                   commanders=[commander(), commander(favors=1)])
    state = play(state, "a1")
    state = play(state, "b1", dice=[6, 1])  # 12 vs 2: Killed unless Ben pays
    assert state["step"]["kind"] == "save"
    ended = gm(state, "gm_end_battle")
    assert army.invariants(ended) == []
    assert where(ended, "b1") == "killed" and "b1" in ended["killed_log"]
    assert army.outcome(ended)["scores"][str(ANN)] == 1
    saved = gm(act(state, {"type": "save", "seat": BEN, "pay": "favor"}), "gm_end_battle")
    assert where(saved, "b1") == "disabled" and army.outcome(saved)["scores"][str(ANN)] == 0


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_simulate_deals_players_what_ifs_along_the_way_and_finds_nothing(game):
    report = simulate(game, games=2, seed=5)
    assert report.forks > 0 and report.violations == []


class PeekingRedeal:
    """An engine whose redeal for a what-if changes what one of its seats sees: the check must say so."""

    def __init__(self, engine):
        self.engine = engine
        self.SPEC = replace(engine.SPEC, redeal=self.redeal)

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def redeal(self, state, seats, rng):
        return self.engine.SPEC.redeal(state, PUBLIC, rng)  # deals every hidden card anew, the seats' own too


def test_a_what_if_that_changes_what_a_seat_sees_is_reported():
    gridaris = ENGINES["gridaris"]
    state = gridaris.setup(gridaris.random_config(SeededRng(3)), SeededRng(3))
    assert check_fork(gridaris, state, [0, 1], SeededRng(1), "here") == []
    problems = check_fork(PeekingRedeal(gridaris), state, [0, 1], SeededRng(1), "here")
    assert any("changed what seat 0 sees" in problem for problem in problems)
