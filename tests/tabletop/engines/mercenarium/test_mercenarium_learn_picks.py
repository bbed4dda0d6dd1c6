"""Learning a hymn by tapping cards (issue 15, ruling MC4): the engine reads the picked cards of the hand and the
picked capture into the offering they make, and refuses any other set of picks with a sentence, changing nothing."""

import copy

import pytest

from tabletop.engines import mercenarium as m
from tabletop.engines.kernel import SeededRng
from tabletop.engines.mercenarium import board, game, hymns
from tabletop.engines.mercenarium.testing import act, state_with


@pytest.mark.parametrize("hand, captures, picks, made", [
    (["C02", "C09"], [], ["C09", "C02"], {"offer": "two_low", "cards": ["C02", "C09"]}),
    (["C02", "C10"], [], ["C10"], {"offer": "one_high", "cards": ["C10"]}),
    (["C02"], ["B02", "B03"], ["B03"], {"offer": "capture", "capture": 0}),
    (["H05", "C03"], [], ["C03"], {"offer": "hymn_card", "hymn": "H05", "cards": ["C03"]}),
    (["H05", "C03"], [], ["H05", "C03"], {"offer": "hymn_card", "hymn": "H05", "cards": ["C03"]}),
    (["H05", "C03"], ["B02"], ["B02"], {"offer": "hymn_capture", "hymn": "H05", "capture": 0}),
])
def test_picked_cards_say_which_offering_they_make(hand, captures, picks, made):
    state = state_with(hands={0: hand}, captures={0: captures})
    assert hymns.read_learn(state, 0, picks) == {"type": "learn", "seat": 0, **made}
    assert {"type": "learn", "seat": 0, **made} in m.legal_actions(state)
    after = act(state, 0, type="learn", picks=picks)
    listed = act(state, 0, type="learn", **made)
    assert after == listed  # the same move as the listed offering, so old logs replay unchanged
    assert len(board.hand_hymns(after, 0)) == 1
    for card in made.get("cards", []) + ([made["hymn"]] if "hymn" in made else []):
        assert card not in after["hands"][0] and (card in after["discard"] or card in after["hymn_discard"])
    if "capture" in made:
        assert after["captures"][0][0]["spent"]


@pytest.mark.parametrize("hand, captures, picks, says", [
    (["C02", "C09"], [], [], "Tap the cards"),
    (["C02", "C09"], [], ["C02"], "worth 2: a card of 2 to 9 is offered with a second one"),
    (["C02", "C10"], [], ["C02", "C10"], "is worth 10: a card of 10 or more is an offering by itself"),
    (["C02", "C03", "C04"], [], ["C02", "C03", "C04"], "3 cards are too many"),
    (["C02", "C03"], [], ["C02", "C02"], "picked twice"),
    (["C02"], ["B02"], ["C02", "B02"], "pick the capture or cards, not both"),
    (["C02"], ["B02", "B03"], ["B02", "B03"], "spends one capture"),
    (["C02"], [("B02", True)], ["B02"], "already spent"),
    (["C02"], [], ["D07"], "not in your hand or among your captures"),
    (["H05", "C03", "C04"], [], ["C03", "C04"], "exactly one card of your hand or one capture (2 picked"),
    (["H05", "C03"], [], ["H05"], "(0 picked besides it)"),
    (["H05", "H06", "C03"], [], ["C03"], "more than one hymn"),
])
def test_an_illegal_pick_is_refused_with_a_sentence_and_changes_nothing(hand, captures, picks, says):
    state = state_with(hands={0: hand}, captures={0: captures})
    before = copy.deepcopy(state)
    with pytest.raises(hymns.LearnRefused) as refused:
        act(state, 0, type="learn", picks=picks)
    assert says in str(refused.value)
    assert refused.value.offer == {"picked": picks, "confirm": None}
    assert state == before


def test_a_card_of_the_other_hand_or_in_play_gets_the_same_sentence_without_its_name():
    state = state_with(hands={0: ["C02"], 1: ["G07"]}, board={"5,3": ("C05", 0)})
    sentences = set()
    for card in ("G07", "C05", "S13", "X99"):
        with pytest.raises(hymns.LearnRefused) as refused:
            act(state, 0, type="learn", picks=[card])
        sentences.add(str(refused.value))
    assert len(sentences) == 1 and not any(board.name(state, c) in next(iter(sentences)) for c in ("G07", "C05"))


def test_no_learning_by_picks_in_the_singularity_or_off_turn():
    state = state_with(hands={0: ["C10"], 1: ["D10"]})
    with pytest.raises(Exception, match="not your turn"):
        game.apply(state, {"seat": 1, "type": "learn", "picks": ["D10"]}, SeededRng(0))
    state["singularity"] = True
    with pytest.raises(hymns.LearnRefused, match="Singularity"):
        act(state, 0, type="learn", picks=["C10"])
