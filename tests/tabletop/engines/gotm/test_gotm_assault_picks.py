"""A Coordinated Assault composed by tapping cards (issue 15, ruling M24): the engine reads the picks."""

import copy

import pytest

from tabletop.engines import gotm
from tabletop.engines.gotm import seat_view
from tabletop.engines.gotm.assault import AssaultChoice
from tabletop.engines.gotm.recruit import PickRefused
from tabletop.engines.gotm.testing import ANN, BEN, act, squad_cards, state_with
from tabletop.engines.kernel import IllegalAction


def test_one_target_picked_means_both_elites_focus_on_it():
    state = state_with(squads={ANN: ["6C", "7C"], BEN: ["KD", "JD"]})
    picked = act(state, "assault", ANN, picks=["7C", "JD", "6C"])
    listed = act(state, "assault", ANN, attackers=[0, 1], targets=[1, 1])
    assert squad_cards(picked, BEN) == ["KD", "JD+"], "6+1 and 7+1 make 15 against 11"
    assert picked == listed, "the picks make exactly the listed assault"


def test_two_targets_both_pairings_legal_are_offered_and_nothing_changes():
    state = state_with(squads={ANN: ["7C", "8C"], BEN: ["7D", "5S"]})
    before = copy.deepcopy(state)
    with pytest.raises(AssaultChoice, match="which elite attacks which card") as refused:
        act(state, "assault", ANN, picks=["7C", "8C", "7D", "5S"])
    assert state == before
    offer = refused.value.offer
    assert sorted(offer["picked"]) == ["5S", "7C", "7D", "8C"]
    assert [c["targets"] for c in offer["choices"]] == [[0, 1], [1, 0]]
    assert [c["label"] for c in offer["choices"]] == ["Coordinated Assault: 7♣ on 7♦, 8♣ on 5♠",
                                                      "Coordinated Assault: 7♣ on 5♠, 8♣ on 7♦"]
    chosen = {key: value for key, value in offer["choices"][1].items() if key != "label"}
    after = gotm.apply(state, chosen, None)
    assert sorted(after["ears"][ANN]) == ["5S", "7D"], "both died: the round is won"


@pytest.mark.parametrize(("squads", "picks", "sentence"), [
    ({ANN: ["6C", "7C"], BEN: ["10D", "2D"]}, ["6C", "7C", "2D"], "one target must be a tank: the 10"),
    ({ANN: ["6C", "7C"], BEN: ["10D", "2D"]}, ["6C", "7C", "10D", "2D"], "Neither elite can kill"),
    ({ANN: ["6C", "7C"], BEN: ["10D", "2D"]}, ["6C", "10D"], "Tap two of your ready elites"),
    ({ANN: ["6C", "7H"], BEN: ["4D", "2D"]}, ["6C", "7H", "4D"], "not of one race"),
    ({ANN: ["6C", "JC"], BEN: ["4D", "2D"]}, ["6C", "JC", "4D"], "is not an elite"),
    ({ANN: ["6C", {"card": "7C", "pulled": True}], BEN: ["4D"]}, ["6C", "7C", "4D"], "pulled back"),
    ({ANN: ["6C", "7C"], BEN: ["4D", {"card": "2D", "dead": True}]}, ["6C", "7C", "2D"], "already dead"),
    ({ANN: ["6C", "7C"], BEN: ["4D", "2D", "3D"]}, ["6C", "7C", "4D", "2D", "3D"], "one card or two"),
    ({ANN: ["6C", "7C"], BEN: ["4D", "2D"]}, ["6C", "7C"], "Tap the enemy card"),
    ({ANN: ["6C", "7C"], BEN: ["4D", "2D"]}, ["6C", "7C", "6C", "4D"], "picked twice"),
])
def test_illegal_picks_get_a_sentence_keep_the_picks_and_change_nothing(squads, picks, sentence):
    state = state_with(squads=squads)
    before = copy.deepcopy(state)
    with pytest.raises(PickRefused, match=sentence) as refused:
        act(state, "assault", ANN, picks=picks)
    assert refused.value.offer["picked"] == picks
    assert state == before


def test_a_card_off_the_battlefield_is_never_named():
    state = state_with(squads={ANN: ["6C", "7C"], BEN: ["4D", "2D"]}, hands={BEN: ["JH"]})
    for hidden in ("JH", "9S", "nonsense"):
        with pytest.raises(PickRefused) as refused:
            act(state, "assault", ANN, picks=["6C", "7C", hidden])
        text = str(refused.value)
        assert "not on the battlefield" in text and "J♥" not in text and "9♠" not in text and hidden not in text


def test_picks_only_on_the_attackers_turn_in_combat():
    state = state_with(squads={ANN: ["6C", "7C"], BEN: ["8D", "9D"]})
    with pytest.raises(IllegalAction, match="turn"):
        act(state, "assault", BEN, picks=["8D", "9D", "6C"])
    shopping = state_with(hands={ANN: ["6C", "7C", "JC"]})
    with pytest.raises(IllegalAction, match="cannot assault now"):
        act(shopping, "assault", ANN, picks=["6C", "7C"])


def test_the_seat_view_offers_the_elites_and_the_enemys_living_cards_to_tap():
    state = state_with(squads={ANN: ["6C", "2C", "7C"], BEN: ["4D", {"card": "2D", "dead": True}, "3D"]})
    mine = seat_view.view(state, ANN)["assault_pick"]
    assert [c["id"] for c in mine["mine"]] == ["6C", "7C"] and [c["id"] for c in mine["theirs"]] == ["4D", "3D"]
    assert seat_view.view(state, BEN)["assault_pick"] is None
    assert seat_view.view(state, "gm")["assault_pick"]["seat"] == ANN
