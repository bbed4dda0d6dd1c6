"""GOT'M dealing and recruitment, scenario by scenario (rulebook § Dealing, § Recruitment)."""

import pytest

from tabletop.engines import gotm
from tabletop.engines.gotm import cards, recruit
from tabletop.engines.gotm.testing import ANN, BEN, act, state_with
from tabletop.engines.kernel import IllegalAction, SeededRng

SCRIPTED = {
    "mercenaries": list(cards.MERCENARIES),
    "resources": list(cards.RESOURCES),
    "artifacts": list(cards.ARTIFACTS),
}


def test_dealing_from_sorted_piles_starts_with_the_dealers_opponent():
    state = gotm.setup({"players": ["Ann", "Ben"], "dealer": BEN, "decks": SCRIPTED}, SeededRng(0))
    resources = list(cards.RESOURCES)
    assert "JC" in state["hands"][ANN] and "QC" in state["hands"][BEN]
    assert sorted(state["hands"][ANN]) == sorted(["JC"] + resources[0:20:2])
    assert sorted(state["hands"][BEN]) == sorted(["QC"] + resources[1:20:2])
    assert state["bank"] == resources[20:]
    assert state["shop"] == {"mercenaries": ["KC", "JH", "QH"], "artifact": "AC"}
    assert state["camp"] == list(cards.MERCENARIES[5:]) and state["merchant"] == ["AH", "AD", "AS"]
    assert gotm.to_act(state) == [ANN], "the non-dealer shops first in round one"


@pytest.mark.parametrize("series_game, dealer", [(0, 0), (1, 1), (2, 0), (3, 1)])
def test_the_dealer_alternates_between_games_of_a_series(series_game, dealer):
    state = gotm.setup({"players": ["Ann", "Ben"], "series_game": series_game}, SeededRng(1))
    assert state["dealer"] == dealer and state["turn"] == 1 - dealer


def test_a_scripted_deck_must_hold_every_card_once():
    with pytest.raises(IllegalAction, match="scripted mercenaries pile"):
        gotm.setup({"players": ["A", "B"], "decks": {**SCRIPTED, "mercenaries": ["JC"] * 12}}, SeededRng(0))


def test_hire_with_resources_of_the_race_and_the_excess_is_lost():
    state = state_with(hands={ANN: ["10C", "5C", "9H", "JD"], BEN: ["QD"]}, shop=["JC"])
    after = act(state, "hire", ANN, card="JC", pay=["10C", "5C"])
    assert "JC" in after["hands"][ANN] and "10C" not in after["hands"][ANN]
    assert after["spent"] == ["5C", "10C"] and after["shop"]["mercenaries"] == [None, None, None]
    assert "(4 lost)" in after["events"][-1]
    assert after["turn"] == BEN


def test_hire_refuses_another_race_too_little_or_a_card_that_could_be_left_out():
    state = state_with(hands={ANN: ["10C", "5C", "2C", "9H", "JD"]}, shop=["JC"], infirmary={ANN: ["3C"]})
    refusals = {
        ("10C", "9H"): "9♥ cannot pay for the Gnoll Brute (J♣): it is paid with Gnoll (♣) resources",
        ("10C",): "10♣ makes 10; the Gnoll Brute (J♣) costs 11.",
        ("10C", "5C", "2C"): "2♣ or 5♣ could be left out: the rest already pays 11 for the Gnoll Brute (J♣), "
                             "and a payment holds no card it does not need.",
        ("10C", "3C"): "3♣ is your infirmary: pay with cards of your hand.",
        ("10C", "4C"): "4♣ is not in your hand: pay with cards of your hand.",
        ("10C", "10C"): "A card was picked twice",
        (): "Tap the resources you pay with first: the Gnoll Brute (J♣) costs 11 in Gnoll (♣) resources.",
    }
    for pay, sentence in refusals.items():
        with pytest.raises(IllegalAction) as refused:
            act(state, "hire", ANN, card="JC", pay=list(pay))
        assert str(refused.value).startswith(sentence)
    payments = [a["pay"] for a in gotm.legal_actions(state) if a["type"] == "hire"]
    assert sorted(payments) == [["2C", "10C"], ["5C", "10C"]]


def test_swap_mercenaries_only_for_lower_or_equal_value():
    state = state_with(hands={ANN: ["QD"]}, shop=["JC", "QS", "KH"])
    swaps = {a["card"] for a in gotm.legal_actions(state) if a["type"] == "swap"}
    assert swaps == {"JC", "QS"}
    after = act(state, "swap", ANN, give="QD", card="QS")
    assert after["hands"][ANN] == ["QS"] and after["shop"]["mercenaries"] == ["JC", "QD", "KH"]
    with pytest.raises(IllegalAction, match="lower or equal value"):
        act(state, "swap", ANN, give="QD", card="KH")


def test_purchase_and_swap_the_artifact():
    state = state_with(hands={ANN: ["6S", "4S", "JD", "AC"]}, artifact="AS")
    bought = act(state, "buy_artifact", ANN, card="AS", pay=["4S", "6S"])
    assert "AS" in bought["hands"][ANN] and bought["shop"]["artifact"] is None
    traded = act(state, "swap_artifact", ANN, give="AC", card="AS")
    assert "AS" in traded["hands"][ANN] and traded["shop"]["artifact"] == "AC"


def test_an_artifact_sale_is_credit_spent_at_once_on_a_mercenary():
    state = state_with(hands={ANN: ["AD", "3H", "2H", "JD"]}, shop=["KH"], merchant=["AS"])
    assert not [a for a in gotm.legal_actions(state) if a["type"] == "hire"], "5 hearts cannot pay 13"
    sales = [a for a in gotm.legal_actions(state) if a["type"] == "sell_hire"]
    assert sorted(a["pay"] for a in sales) == [["3H"]], "10 credit + 3 = 13; the 2 alone is short"
    with pytest.raises(IllegalAction, match=r"2♥ \+ the sale's 10 credit makes 12; the Ogre Warlord \(K♥\) costs 13"):
        act(state, "sell_hire", ANN, artifact="AD", card="KH", pay=["2H"])
    after = act(state, "sell_hire", ANN, artifact="AD", card="KH", pay=["3H"])
    assert "KH" in after["hands"][ANN] and "AD" not in after["hands"][ANN]
    assert after["merchant"] == ["AS", "AD"], "sold face down to the bottom of the merchant"
    assert "AD" not in " ".join(after["events"])


def test_a_player_with_no_mercenary_must_recruit():
    state = state_with(hands={ANN: ["10H", "2H", "AS"], BEN: ["JS"]}, shop=["JH"], artifact="AH")
    kinds = {a["type"] for a in gotm.legal_actions(state)}
    assert kinds == {"hire", "sell_hire"}
    for kind, fields in (("done", {}), ("buy_artifact", {"card": "AH", "pay": ["10H"], "lost": 0})):
        with pytest.raises(IllegalAction, match="You have no mercenary left, so you must recruit one"):
            act(state, kind, ANN, **fields)


def test_a_player_who_cannot_recruit_ends_the_game_and_it_is_scored():
    state = state_with(hands={ANN: ["10H", "2S"], BEN: ["JS", "3S"]}, shop=["JH"], done=(False, True), turn=BEN)
    after = act(state, "done", BEN)
    assert after["phase"] == "over"
    result = gotm.outcome(after)
    assert result["scores"] == {"0": 12, "1": 14} and result["winners"] == [BEN]
    assert "Ann has no mercenary left" in result["reason"]


def test_skip_keeps_shopping_open_and_done_is_final():
    state = state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["QC"])
    skipped = act(state, "skip", ANN)
    assert skipped["turn"] == BEN and skipped["done"] == [False, False]
    done = act(state, "done", ANN)
    assert done["turn"] == BEN and done["phase"] == "recruit", "Ann takes no more turns"


def test_no_turn_is_skipped_once_the_other_player_is_done():
    # A skip would hand the turn straight back: a computer seat once skipped without end (ruling M25)
    done = act(state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["QC"]), "done", ANN)
    assert {"type": "skip", "seat": BEN} not in gotm.legal_actions(done)
    assert {"type": "done", "seat": BEN} in gotm.legal_actions(done)
    with pytest.raises(IllegalAction, match="Ann is done shopping, so a skipped turn would come straight back"):
        act(done, "skip", BEN)


def test_a_giver_may_swap_back_for_the_card_they_gave():
    # GOT'M: "Any mercenary can be hired this way as long as its value is lower or equal to that of the
    # discarded mercenary"; the card given is shown in the camp (M6), a mercenary of the camp like any other
    # (ruling M27, withdrawing M26). The same for artifacts: "players can trade one of their own artifacts for it".
    state = state_with(hands={ANN: ["JC", "AH"], BEN: ["JD"]}, shop=["JS"], artifact="AS", done=(False, True))
    state = act(state, "swap", ANN, give="JC", card="JS")
    assert state["turn"] == ANN and state["shop"]["mercenaries"][0] == "JC"
    assert {"type": "swap", "seat": ANN, "give": "JS", "card": "JC"} in gotm.legal_actions(state)
    state = act(state, "swap", ANN, give="JS", card="JC")
    assert "JC" in state["hands"][ANN] and state["shop"]["mercenaries"][0] == "JS"
    state = act(state, "swap_artifact", ANN, give="AH", card="AS")
    assert state["shop"]["artifact"] == "AH"
    assert {"type": "swap_artifact", "seat": ANN, "give": "AS", "card": "AH"} in gotm.legal_actions(state)


def test_a_giver_may_hire_back_with_resources_the_card_they_gave():
    state = state_with(hands={ANN: ["QC", "10C", "2C"], BEN: ["JD"]}, shop=["JC"], done=(False, True))
    state = act(state, "swap", ANN, give="QC", card="JC")
    state = act(state, "hire", ANN, card="QC", pay=["2C", "10C"])
    assert state["hands"][ANN] == cards.sorted_cards(["QC", "JC"])


def test_the_other_player_may_take_a_card_given_away():
    state = state_with(hands={ANN: ["JC"], BEN: ["QD"]}, shop=["JS"])
    state = act(state, "swap", ANN, give="JC", card="JS")
    assert {"type": "swap", "seat": BEN, "give": "QD", "card": "JC"} in gotm.legal_actions(state)


def test_a_skip_may_answer_a_skip():
    # GOT'M: "They can skip their turn" -- without condition while both shop (M25 keeps only the skip that
    # would come straight back to the skipper once the other player is done).
    state = act(state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["QC"]), "skip", ANN)
    assert {"type": "skip", "seat": BEN} in gotm.legal_actions(state)
    state = act(state, "skip", BEN)
    assert state["turn"] == ANN and state["phase"] == "recruit"


def test_the_shop_coming_round_a_third_time_closes_as_if_both_were_done():
    # Mercenarium's stalemate "after three repetitions", the rulebooks' own kind of end (ruling M28): the same
    # hands, piles, done flags and seat to act a third time close the shop.
    state = state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["QC"])
    skips = 0
    while state["phase"] == "recruit":
        state = act(state, "skip", state["turn"])
        skips += 1
        assert skips < 10, "the shop is still open"
    assert skips == 4  # the opening position is back after two skips and four: its third time
    assert any("came round a third time" in line for line in state["events"])
    assert state["phase"] == "squad" and state["shop"] == {"mercenaries": [None] * 3, "artifact": None}


def test_swapping_back_and_forth_alone_in_the_shop_ends_it():
    state = state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["JS"], done=(False, True))
    swaps = 0
    while state["phase"] == "recruit":
        give = next(card for card in state["hands"][ANN] if cards.is_mercenary(card))
        state = act(state, "swap", ANN, give=give, card=state["shop"]["mercenaries"][0])
        swaps += 1
        assert swaps < 10, "the shop is still open"
    assert swaps == 4 and state["phase"] == "squad"


def test_the_repetition_count_starts_afresh_in_each_shop():
    state = act(state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["QC"]), "skip", ANN)
    assert len(state["seen"]) == 2
    state = act(act(state, "done", BEN), "done", ANN)
    assert state["seen"] == {}


def test_a_player_who_stalls_whenever_the_rules_let_them_still_closes_the_shop():
    # Whatever the deal, a seat that skips or swaps whenever it may (the computer's loops) ends the shop.
    for seed in range(12):
        state = gotm.setup(gotm.random_config(SeededRng(seed)), SeededRng(seed))
        moves = 0
        while state["phase"] == "recruit":
            legal = gotm.legal_actions(state)
            stalls = [a for a in legal if a["type"] in ("skip", "swap", "swap_artifact")]
            state = gotm.apply(state, (stalls or legal)[moves % len(stalls or legal)], SeededRng(moves))
            moves += 1
            assert moves < 200, f"seed {seed}: the shop is still open after {moves} moves"


def test_the_shop_closes_in_the_stated_order():
    state = state_with(hands={ANN: ["JC"], BEN: ["JD", "10S", "2S"]}, shop=["QC", "JS", "KH"], artifact="AH",
                       camp=["QD"], merchant=["AS"], turn=BEN)
    state = act(state, "hire", BEN, card="JS", pay=["2S", "10S"])
    state = act(state, "done", ANN)
    state = act(state, "done", BEN)
    assert state["camp"] == ["QD", "QC", "KH"], "returned face down in order of proximity"
    assert state["merchant"] == ["AS", "AH"]
    assert state["phase"] == "squad"


def test_infirmary_cards_cannot_be_traded_or_spent():
    state = state_with(hands={ANN: ["2C"]}, infirmary={ANN: ["KD", "10C"]}, shop=["JC"])
    assert {a["type"] for a in gotm.legal_actions(state)} == {"skip", "done"}


def test_the_other_seat_cannot_shop_out_of_turn():
    state = state_with(hands={ANN: ["JC"], BEN: ["JD"]}, shop=["QC"])
    with pytest.raises(IllegalAction, match="It is Ann's turn, not yours"):
        act(state, "skip", BEN)


def test_picked_cards_say_which_move_they_make():
    """Ruling M22: the cards tapped in the hand and the shop card tapped after them make one move."""
    state = state_with(hands={ANN: ["AD", "3H", "2H", "QD", "6S", "4S", "AC"]}, shop=["KH", "JS"], artifact="AS")
    sale = act(state, "hire", ANN, card="KH", pay=["3H", "AD"], lost=0)
    assert "KH" in sale["hands"][ANN] and sale["merchant"][-1] == "AD", "an artifact with resources is a sale"
    swap = act(state, "hire", ANN, card="JS", pay=["QD"], lost=0)
    assert swap["shop"]["mercenaries"] == ["KH", "QD", None] and "JS" in swap["hands"][ANN]
    trade = act(state, "buy_artifact", ANN, card="AS", pay=["AC"], lost=0)
    assert trade["shop"]["artifact"] == "AC" and "AS" in trade["hands"][ANN]
    bought = act(state, "buy_artifact", ANN, card="AS", pay=["6S", "4S"], lost=0)
    assert "AS" in bought["hands"][ANN]
    with pytest.raises(IllegalAction, match="lower or equal value"):
        act(state, "hire", ANN, card="KH", pay=["QD"], lost=0)
    with pytest.raises(IllegalAction, match="cannot pay for the Ogre Warlord"):
        act(state, "hire", ANN, card="KH", pay=["3H", "AD", "AC"], lost=0)


def test_a_payment_that_loses_value_is_confirmed_first():
    """Ruling M23: the loss is named (with the cheapest payment) and the same move is offered to confirm."""
    state = state_with(hands={ANN: ["10C", "5C", "2C", "JD"], BEN: ["QD"]}, shop=["JC"])
    with pytest.raises(recruit.ConfirmLoss) as asked:
        act(state, "hire", ANN, card="JC", pay=["10C", "5C"], lost=0)
    assert str(asked.value) == ("Paying 5♣ 10♣ makes 15 for the Gnoll Brute (J♣), which costs 11: "
                                "4 over the price is lost. 2♣ 10♣ would lose only 1.")
    confirm = asked.value.offer["confirm"]
    assert asked.value.offer["picked"] == ["5C", "10C"]
    assert {k: confirm[k] for k in ("type", "card", "pay", "lost")} == {
        "type": "hire", "card": "JC", "pay": ["5C", "10C"], "lost": 4}
    assert confirm["label"] == "Pay 5♣ 10♣ and lose 4"
    after = gotm.apply(state, {key: value for key, value in confirm.items() if key != "label"}, SeededRng(0))
    assert "JC" in after["hands"][ANN] and "(4 lost)" in after["events"][-1]
    with pytest.raises(recruit.ConfirmLoss):
        act(state, "hire", ANN, card="JC", pay=["10C", "5C"], lost=3)
    listed = act(state, "hire", ANN, card="JC", pay=["10C", "5C"])
    assert listed["hands"] == after["hands"], "a listed button (its label names the loss) needs no confirming"


def test_a_sale_that_loses_value_names_the_credit():
    state = state_with(hands={ANN: ["AD", "9H", "JD"], BEN: ["QD"]}, shop=["KH"])
    with pytest.raises(recruit.ConfirmLoss, match="Paying 9♥ with the sale's 10 credit makes 19 for the Ogre "
                                                  r"Warlord \(K♥\), which costs 13: 6 over the price is lost\.$"):
        act(state, "hire", ANN, card="KH", pay=["AD", "9H"], lost=0)
    assert act(state, "hire", ANN, card="KH", pay=["AD", "9H"], lost=6)["hands"][ANN] == ["KH", "JD"]
