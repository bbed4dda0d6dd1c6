"""GOT'M for computer players: ``redeal`` (a state the seat cannot tell from the real one) and ``heuristic``."""

import pytest

from tabletop.engines import gotm, repetition
from tabletop.engines.gotm import recruit
from tabletop.engines.gotm.common import finish
from tabletop.engines.gotm.testing import ANN, BEN, act, state_with
from tabletop.engines.kernel import SeededRng, canonical_json

from tests.tabletop.engines.random_play import random_states


def sample_states(games=6, every=7):
    """States met in seeded random games (every ``every``-th one and the last), with the game's seed."""
    found = []
    for seed in range(games):
        states = list(random_states(gotm, seed, "bot-choices"))
        found += [(seed, state) for step, state in enumerate(states[:-1])
                  if step % every == 0 or state["phase"] == "equip"]
        found.append((seed, states[-1]))
    return found


STATES = sample_states()


def hidden_parts(state, seat):
    """Where the cards hidden from ``seat`` lie: piles in order, the other hand, a face-down squad."""
    foe = 1 - seat
    squad = state["squads"][foe] if state["phase"] == "squad" else []
    return canonical_json([state["camp"], state["merchant"], state["bank"], state["hands"][foe],
                           [s["card"] for s in squad]])


def test_the_samples_cover_every_phase_and_a_face_down_squad():
    phases = {state["phase"] for _, state in STATES}
    assert phases >= {"recruit", "squad", "equip", "combat", "over"}
    assert any(state["phase"] == "squad" and state["squads"][seat] and len(state["squads"][seat]) < 3
               for _, state in STATES for seat in (0, 1))


def test_a_redealt_state_looks_the_same_to_the_seat_and_keeps_the_invariants():
    for seed, state in STATES:
        before = canonical_json(state)
        for seat in (ANN, BEN):
            for k in range(2):
                dealt = gotm.redeal(state, seat, SeededRng(k))
                assert gotm.view(dealt, seat) == gotm.view(state, seat), (seed, seat, k)
                assert gotm.invariants(dealt) == [], (seed, seat, k)
        assert canonical_json(state) == before, "redeal never changes its input"


def test_the_redeal_really_deals_the_hidden_cards_anew():
    changed = 0
    for _, state in STATES:
        if state["phase"] == "over":
            continue
        for seat in (ANN, BEN):
            dealt = gotm.redeal(state, seat, SeededRng(3))
            changed += hidden_parts(dealt, seat) != hidden_parts(state, seat)
            mine = {key: dealt[key] for key in ("spent", "graveyard", "ears", "infirmary", "shop")}
            assert mine == {key: state[key] for key in mine}, "what everybody sees stays"
            assert dealt["hands"][seat] == state["hands"][seat]
    assert changed >= len(STATES), "nearly every redeal moves some hidden card"


def test_the_redeal_depends_only_on_what_the_seat_sees():
    for _, state in STATES[::2]:
        for seat in (ANN, BEN):
            once = gotm.redeal(state, seat, SeededRng(11))
            for j in (1, 2):
                other_world = gotm.redeal(state, seat, SeededRng(j))
                assert gotm.redeal(other_world, seat, SeededRng(11)) == once


def test_the_squad_placed_face_down_keeps_its_count_a_mercenary_and_the_card_from_the_infirmary():
    state = state_with(hands={ANN: ["JC", "2C", "3C"], BEN: ["QD", "4D", "5S", "6S", "AD"]},
                       infirmary={BEN: ["7H"]}, done=(True, True))
    from tabletop.engines.gotm import combat
    combat.start_squads(state)
    for card in ("7H", "4D", "QD"):
        state = gotm.apply(state, {"type": "deploy", "seat": BEN, "card": card}, SeededRng(0))
    assert state["phase"] == "squad" and len(state["squads"][BEN]) == 3
    squads = set()
    for k in range(30):
        dealt = gotm.redeal(state, ANN, SeededRng(k))
        squad = [s["card"] for s in dealt["squads"][BEN]]
        assert squad[0] == "7H", "Ann saw the wounded seven leave the infirmary"
        hand = dealt["hands"][BEN]
        assert any(card[0] in "JQK" for card in squad), "a full squad holds a mercenary: Ben's only one"
        assert sum(card[0] in "JQK" for card in squad + hand) == 1, "Ben holds one mercenary"
        assert [card[0] for card in hand].count("A") == 1, "and one artifact, never a squad card"
        assert len(hand) == 3 and gotm.invariants(dealt) == []
        squads.add(tuple(squad))
    assert len(squads) > 3


def test_random_play_goes_on_from_a_redealt_state_to_the_end():
    for index, (_, state) in enumerate(STATES[::5]):
        if state["phase"] == "over":
            continue
        rng, chooser = SeededRng(f"on-{index}"), SeededRng(f"on-choices-{index}")
        state = gotm.redeal(state, index % 2, SeededRng(index))
        for _ in range(3000):
            if gotm.outcome(state) is not None:
                break
            state = gotm.apply(state, chooser.choice(gotm.legal_actions(state)), rng)
        assert gotm.outcome(state) is not None and gotm.invariants(state) == []


def test_the_heuristic_is_a_chance_and_the_result_at_the_end():
    for _, state in STATES:
        values = [gotm.heuristic(state, seat) for seat in (ANN, BEN)]
        assert all(0.0 <= v <= 1.0 for v in values)
        result = gotm.outcome(state)
        if result is not None:
            winners = result["winners"]
            expected = [(1.0 / len(winners) if seat in winners else 0.0) for seat in (ANN, BEN)]
            assert values == expected


def test_the_heuristic_gives_a_tie_one_half_and_a_loss_zero():
    state = state_with(hands={ANN: ["10C"], BEN: ["10D"]})
    finish(state, "Test.")
    assert [gotm.heuristic(state, seat) for seat in (ANN, BEN)] == [0.5, 0.5]
    state = state_with(hands={ANN: ["10C"], BEN: ["9D"]})
    finish(state, "Test.")
    assert [gotm.heuristic(state, seat) for seat in (ANN, BEN)] == [1.0, 0.0]


def test_the_heuristic_prefers_the_richer_hand_and_the_stronger_squad():
    rich = state_with(hands={ANN: ["JC", "10C", "9C", "8H"], BEN: ["JD", "2D", "3D"]})
    assert gotm.heuristic(rich, ANN) > 0.75 and gotm.heuristic(rich, BEN) < 0.25
    assert gotm.heuristic(rich, ANN) == pytest.approx(1 - gotm.heuristic(rich, BEN))
    even = {ANN: ["QS", "8S"], BEN: ["QH", "8H"]}
    strong = state_with(squads={ANN: ["KC", "9C", "10C"], BEN: ["JD", "2D", "3D"]}, hands=even)
    weak = state_with(squads={ANN: ["JC", "2C", "3C"], BEN: ["KD", "9D", "10D"]}, hands=even)
    assert gotm.heuristic(strong, ANN) > 0.5 > gotm.heuristic(weak, ANN)
    wounded = state_with(squads={ANN: ["KC", "9C", "10C"], BEN: [{"card": "KD", "wounded": True}, "9D", "10D"]},
                         hands=even)
    healthy = state_with(squads={ANN: ["KC", "9C", "10C"], BEN: ["KD", "9D", "10D"]}, hands=even)
    assert gotm.heuristic(wounded, ANN) > gotm.heuristic(healthy, ANN), "a wounded enemy leader is worth less"


def test_the_heuristic_tires_of_swapping():
    state = state_with(hands={ANN: ["JC", "2C"], BEN: ["QD", "5S"]}, shop=["JH", "JS", "JD"], done=(False, True))
    state["events"] = ["Round 1: the shop opens with the Ogre Warrior (J♥). Ann shops first."]
    values = [gotm.heuristic(state, ANN)]
    for give, card in [("JC", "JH"), ("JH", "JS"), ("JS", "JD")]:
        state = gotm.apply(state, {"type": "swap", "seat": ANN, "give": give, "card": card}, SeededRng(0))
        values.append(gotm.heuristic(state, ANN))
    # (with Ben done, Ann may not skip, M25; a skip while he shops costs the same as a swap)
    assert values == sorted(values, reverse=True) and len(set(values)) == 4
    assert gotm.heuristic(state, BEN) > 0.5


def test_a_redealt_shop_keeps_the_count_of_its_current_position_only():
    # The record of positions (ruling M28) names the real hidden cards: a redeal keeps the current one's count
    # under its new digest, so a search still sees the shop close on the third time round.
    state = state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["QC"])
    state = act(act(state, "skip", ANN), "skip", BEN)
    dealt = gotm.redeal(state, ANN, SeededRng(0))
    assert dealt["hands"][BEN] != state["hands"][BEN]
    assert dealt["seen"] == {repetition.position(recruit.position_parts(dealt)): 2}
