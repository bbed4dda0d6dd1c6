"""Gridaris for the computer players: ``redeal`` (a state the seat cannot tell apart) and ``heuristic``."""

from collections import Counter

import pytest

from tabletop.engines import gridaris
from tabletop.engines.gridaris.testing import card, state_with
from tabletop.engines.kernel import GM, SeededRng, canonical_json

from tests.tabletop.engines.random_play import random_states

GAMES = 5


def random_game(seed: int):
    return list(random_states(gridaris, seed))


@pytest.fixture(scope="module")
def games():
    return [random_game(seed) for seed in range(GAMES)]


def tier_counts(state, seat):
    return Counter(state["cards"][card_id]["tier"] for card_id in state["hands"][seat])


def hidden_places(state, seat):
    """The hidden cards where they are: each other hand (as a set) and each pile (in order)."""
    return ([sorted(hand) for other, hand in enumerate(state["hands"]) if other != seat],
            {tier: list(pile) for tier, pile in state["decks"].items()})


def test_a_redealt_state_looks_the_same_to_the_seat_and_keeps_every_count(games):
    checked = 0
    for states in games:
        for index, state in enumerate(states[:-1]):
            for seat in range(len(state["players"])):
                snapshot = canonical_json(state)
                redealt = gridaris.redeal(state, seat, SeededRng(index))
                assert canonical_json(state) == snapshot  # the input is untouched
                assert gridaris.view(redealt, seat) == gridaris.view(state, seat)
                assert gridaris.invariants(redealt) == []
                assert redealt["hands"][seat] == state["hands"][seat]
                assert redealt["board"] == state["board"]
                for other in range(len(state["players"])):
                    assert tier_counts(redealt, other) == tier_counts(state, other)
                assert {tier: len(pile) for tier, pile in redealt["decks"].items()} == \
                       {tier: len(pile) for tier, pile in state["decks"].items()}
                checked += 1
    assert checked > 100


def test_the_redeal_really_deals_the_hidden_cards_anew(games):
    moved = same = 0
    for states in games:
        for index, state in enumerate(states[:-1:3]):
            for seat in range(len(state["players"])):
                redealt = gridaris.redeal(state, seat, SeededRng(index))
                if hidden_places(redealt, seat) == hidden_places(state, seat):
                    same += 1
                else:
                    moved += 1
    assert moved > 10 * same


def test_the_redeal_depends_only_on_what_the_seat_sees(games):
    for states in games:
        for index, state in enumerate(states[:-1:2]):
            for seat in range(len(state["players"])):
                other_world = gridaris.redeal(state, seat, SeededRng(f"other-{index}"))
                assert gridaris.redeal(other_world, seat, SeededRng(index)) == \
                       gridaris.redeal(state, seat, SeededRng(index))


def test_swapping_a_hidden_hand_card_with_a_pile_card_of_its_tier_changes_nothing_in_the_redeal():
    state = state_with(cards=[card("a", "5555", 2), card("b", "1111", 1)], hands={0: ["a"], 1: ["b"]})
    swapped = state_with(cards=[card("a", "5555", 2), card("b", "1111", 1)], hands={0: ["a"], 1: ["fs01"]})
    assert gridaris.view(swapped, 0) == gridaris.view(state, 0) and "b" in state["hands"][1]
    for seed in range(5):
        assert gridaris.redeal(swapped, 0, SeededRng(seed)) == gridaris.redeal(state, 0, SeededRng(seed))
    assert gridaris.redeal(swapped, 1, SeededRng(0)) != gridaris.redeal(state, 1, SeededRng(0))  # seat 1 sees it


def test_show_whole_keeps_every_hand_and_the_gm_gets_the_state_itself():
    state = state_with(scenarios=["show_whole", "class_war"])
    redealt = gridaris.redeal(state, 0, SeededRng(3))
    assert redealt["hands"] == state["hands"]
    assert redealt["decks"] != state["decks"]
    assert sorted(redealt["decks"]["silver"]) == sorted(state["decks"]["silver"])
    for_gm = gridaris.redeal(state, GM, SeededRng(3))
    assert for_gm == state and for_gm is not state


def test_random_play_goes_on_from_a_redealt_state_to_the_end(games):
    for seed, states in enumerate(games):
        state = states[len(states) // 3]
        seat = gridaris.to_act(state)[0]
        seat = seat if isinstance(seat, int) else 0
        state = gridaris.redeal(state, seat, SeededRng(seed))
        rng = SeededRng(f"after-{seed}")
        while gridaris.outcome(state) is None:
            state = gridaris.apply(state, rng.choice(gridaris.legal_actions(state)), rng)
            assert gridaris.invariants(state) == []
        assert gridaris.outcome(state)["winners"]


def test_the_heuristic_is_a_chance_and_exact_at_the_end(games):
    for states in games:
        for state in states[:-1]:
            for seat in range(len(state["players"])):
                assert 0.0 <= gridaris.heuristic(state, seat) <= 1.0
        final = states[-1]
        winners = gridaris.outcome(final)["winners"]
        for seat in range(len(final["players"])):
            expected = 1.0 / len(winners) if seat in winners else 0.0
            assert gridaris.heuristic(final, seat) == expected


def test_the_heuristic_prefers_the_player_who_holds_more_of_the_board():
    cards = [card("a1", "5555", 3), card("a2", "5555", 3), card("a3", "5555", 3), card("b1", "5555", 1)]
    board = {"1,1": ("a1", 0), "1,2": ("a2", 0), "2,1": ("a3", 0), "4,4": ("b1", 1)}
    state = state_with(cards=cards, board=board)
    ahead, behind = gridaris.heuristic(state, 0), gridaris.heuristic(state, 1)
    assert ahead > 0.75 and behind < 0.25 and ahead + behind == pytest.approx(1.0)
    # Taking the fourth square of the 2x2 (3 bonus points) is worth more than a lone corner.
    square = {**board, "2,2": ("fs01", 0)}
    corner = {**board, "4,1": ("fs01", 0)}
    assert gridaris.heuristic(state_with(cards=cards, board=square), 0) > \
           gridaris.heuristic(state_with(cards=cards, board=corner), 0)
