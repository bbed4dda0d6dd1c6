"""GOT'M recovery and the final score (rulebook § Recovery, § End of the game)."""

from tabletop.engines import gotm
from tabletop.engines.gotm import cards
from tabletop.engines.gotm.testing import ANN, BEN, act, state_with
from tabletop.engines.kernel import ScriptedRng


def finishing_blow():
    return state_with(
        squads={
            ANN: ["KC", {"card": "9H", "dead": True, "artifact": "AH"},
                  {"card": "8C", "wounded": True, "artifact": "AC"}],
            BEN: [{"card": "QD", "dead": True, "artifact": "AD"}, "2S"],
        },
        hands={ANN: ["5C"], BEN: ["JS"]}, infirmary={ANN: ["4S"], BEN: ["3D"]},
        bank=["2D", "3H"], spent=["10S"],
    )


def test_the_winner_cleans_the_battlefield_and_the_bank_pays_for_losses():
    state = act(finishing_blow(), "attack", ANN, attacker=0, target=1, cleave=None, rng=ScriptedRng([]))
    assert state["graveyard"][-1] == "9H", "the winner buries their dead"
    assert state["ears"] == [["QD", "2S"], []], "and cuts off the loser's ears"
    assert state["infirmary"] == [["8C"], []], "wounded survivors go to the infirmary"
    assert set(state["hands"][ANN]) == {"KC", "5C", "AC", "AH", "AD", "4S", "3H"}, (
        "healthy survivor, artifacts worn, dropped and looted, last round's wounded healed, one bank card")
    assert set(state["hands"][BEN]) == {"JS", "3D", "2D", "10S"}, "the loser is dealt first: two cards for two lost"
    assert state["bank"] == [] and state["spent"] == []
    assert "The bank is empty: the 1 spent resources are shuffled into a new bank." in state["events"]
    assert state["round"] == 2 and state["phase"] == "recruit" and state["turn"] == BEN, "the loser shops first"
    assert gotm.invariants(state) == []


def test_the_bank_is_rebuilt_from_shuffled_spent_resources():
    state = state_with(squads={ANN: ["KC"], BEN: ["2S"]}, hands={BEN: ["JS"]}, bank=[], spent=["4D", "2D", "3D"])
    state = act(state, "attack", ANN, attacker=0, target=0, cleave=None, rng=ScriptedRng([0, 0]))
    assert state["hands"][BEN] == cards.sorted_cards(["JS", "3D"])
    assert state["bank"] == ["4D", "2D"]


def test_a_card_fought_from_the_infirmary_that_survives_wounded_stays_there():
    state = state_with(squads={ANN: ["KC", {"card": "JH", "wounded": True, "infirmary": True}], BEN: ["2S"]},
                       hands={BEN: ["JS"]})
    state = act(state, "attack", ANN, attacker=0, target=0, cleave=None, rng=ScriptedRng([]))
    assert state["infirmary"][ANN] == ["JH"] and "KC" in state["hands"][ANN]


def test_the_loser_shops_and_attacks_first_next_round():
    state = act(finishing_blow(), "attack", ANN, attacker=0, target=1, cleave=None)
    state = act(act(state, "done", BEN), "done", ANN)
    for seat, squad in ((ANN, ["KC", "5C", "4S"]), (BEN, ["JS", "2D", "3D"])):
        for card in squad:
            state = act(state, "deploy", seat, card=card)
    if state["phase"] == "equip":
        state = act(state, "ready", ANN)
    assert state["phase"] == "combat" and state["turn"] == BEN


def test_scoring_hand_at_value_infirmary_at_half_ears_by_rank():
    state = state_with(hands={ANN: ["JC", "5H", "AC"], BEN: ["2D"]}, infirmary={ANN: ["KD", "7C"]},
                       ears={ANN: ["2S", "JD", "QD", "KS"], BEN: ["9C"]})
    state = act(state, "done", ANN)
    result = gotm.outcome(state)
    row = result["rows"][ANN]
    assert (row["hand"], row["infirmary"], row["ears"], row["total"]) == (26, 9, 10, 45)
    assert result["scores"] == {"0": 45, "1": 3} and result["winners"] == [ANN]
    assert "Ben has no mercenary left" in result["reason"] and gotm.to_act(state) == []


def test_a_tie_is_shared():
    tie = state_with(hands={ANN: ["JC", "9D"], BEN: ["AD", "AS"]})
    tie = act(tie, "done", ANN)
    assert gotm.outcome(tie)["winners"] == [ANN, BEN] and "a tie" in gotm.outcome(tie)["reason"]
