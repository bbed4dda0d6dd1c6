"""The Reinforcement Phase: who chooses the order, covering, wipe-outs, skips and the end."""

import pytest

from tabletop.engines import gridaris
from tabletop.engines.gridaris.testing import card, owners, place, state_with
from tabletop.engines.kernel import IllegalAction, SeededRng

ANN, BEN, CLEO = 0, 1, 2
SEATS = {"A": ANN, "B": BEN, "C": CLEO}


def layout(rows, stars=None, edges="5555"):
    """Cards and board from a picture: "AAB." -> Ann, Ann, Ben, empty; stars maps a cell to its stars."""
    cards, board = [], {}
    for r, line in enumerate(rows):
        for c, owner in enumerate(line):
            if owner == ".":
                continue
            card_id = f"b{r}{c}"
            cards.append(card(card_id, edges, stars=(stars or {}).get(f"{r},{c}", 1), name=f"Guard {r}{c}"))
            board[f"{r},{c}"] = (card_id, SEATS[owner])
    return cards, board


def order(state, seat, go):
    return gridaris.apply(state, {"type": "order", "seat": seat, "go": go}, SeededRng(0))


def reinforcement_start(rows, stars=None, players=("Ann", "Ben"), first=ANN, hands=None):
    """Board full but for 3,3; Ann fills it with a 5555 card (ties: no capture)."""
    cards, board = layout(rows, stars)
    cards += [card("last", "5555"), card("ra", "5555"), card("rb", "5555"), card("rc", "5555")]
    hands = hands or {ANN: ["last", "ra"], BEN: ["rb"], CLEO: ["rc"]}
    state = state_with(cards=cards, players=players, board=board, turn=ANN,
                       hands={seat: hand for seat, hand in hands.items() if seat < len(players)})
    state["first"] = first
    return place(state, ANN, "last", "3,3")


def test_the_fewest_battlefields_choose_and_can_go_first():
    state = reinforcement_start(["AAAA", "AAAA", "ABBB", "BBB."])
    assert state["phase"] == "choose_order"
    assert gridaris.to_act(state) == [BEN]
    assert gridaris.legal_actions(state) == [{"type": "order", "seat": BEN, "go": "first"},
                                             {"type": "order", "seat": BEN, "go": "last"}]
    assert [c["label"] for c in gridaris.view(state, BEN)["choices"]] == [
        "Go first in the Reinforcement Phase", "Go last in the Reinforcement Phase"]
    assert gridaris.view(state, ANN)["choices"] == []
    first = order(state, BEN, "first")
    assert (first["phase"], first["order"], gridaris.to_act(first)) == ("reinforcement", [BEN, ANN], [BEN])


def test_choosing_last_lets_the_others_start_clockwise():
    state = reinforcement_start(["AAAA", "AAAA", "ABBB", "BBB."])
    last = order(state, "1", "last")
    assert (last["order"], gridaris.to_act(last)) == ([ANN, BEN], [ANN])


@pytest.mark.parametrize("ann_stars, ben_stars, chooser", [(1, 2, ANN), (2, 1, BEN)])
def test_tied_battlefields_go_to_the_lower_star_total(ann_stars, ben_stars, chooser):
    rows = ["AAAA", "BBBB", "AAAB", "BBB."]
    stars = {f"{r},{c}": (ann_stars if rows[r][c] == "A" else ben_stars) for r in range(4) for c in range(4)}
    state = reinforcement_start(rows, stars)
    assert gridaris.to_act(state) == [chooser]


@pytest.mark.parametrize("first, chooser", [(ANN, ANN), (BEN, BEN)])
def test_a_complete_tie_goes_to_the_first_in_turn_order_from_the_first_player(first, chooser):
    state = reinforcement_start(["AAAA", "BBBB", "AAAB", "BBB."], first=first)
    # Ann's last card is a 1-star like the rest: 8 battlefields and 8 stars each
    assert gridaris.to_act(state) == [chooser]


def test_reinforcing_covers_only_your_own_battlefields_and_fights_as_usual():
    cards, board = layout(["AAAA", "AAAA", "ABBB", "BBBB"])
    cards += [card("hero", "9999", stars=3, tier="gold", name="Hero"), card("ra", "5555")]
    state = state_with(cards=cards, board=board, hands={ANN: ["ra"], BEN: ["hero"]}, turn=BEN,
                       phase="reinforcement")
    with pytest.raises(IllegalAction, match="you may only cover a battlefield you control; A1 belongs to Ann"):
        place(state, BEN, "hero", "0,0")
    assert {action["cell"] for action in gridaris.legal_actions(state)} == {
        key for key, owner in owners(state).items() if owner == BEN}
    after = place(state, BEN, "hero", "2,1")
    assert after["board"]["2,1"]["stack"] == ["b21", "hero"]
    assert owners(after)["1,1"] == BEN and owners(after)["2,0"] == BEN
    assert after["events"][-1] == "Ben reinforces B3 with Hero, covering Guard 21, and captures Guard 11 and Guard 20."
    cell = next(c for row in gridaris.view(after, None)["grid"] for c in row if c["key"] == "2,1")
    assert (cell["covered"], cell["card"]["id"]) == (1, "hero")
    assert gridaris.view(after, None)["players"][BEN]["stars"] == 3 + 8   # the covered Guard no longer counts


def test_reinforcing_recomputes_the_class_modifier_for_the_new_card():
    cards, board = layout(["AAAA", "AAAA", "ABBB", "BBBB"])
    cards += [card("wiz", "1111", card_class="Wizards"), card("ra", "5555")]
    board["2,1"] = ("b21", BEN, 3)
    state = state_with(cards=cards, board=board, scenarios=["class_project", "show_whole"],
                       hands={ANN: ["ra"], BEN: ["wiz"]}, turn=BEN, phase="reinforcement")
    assert state["board"]["2,1"]["modifier"] == 3
    after = place(state, BEN, "wiz", "2,1")
    assert after["board"]["2,1"]["modifier"] == 0       # no other Wizards in play; the old +3 is gone


def test_reinforcement_is_mandatory():
    cards, board = layout(["AAAA", "AAAA", "ABBB", "BBBB"])
    cards += [card("ra", "5555"), card("rb", "5555")]
    state = state_with(cards=cards, board=board, hands={ANN: ["ra"], BEN: ["rb"]}, phase="reinforcement")
    actions = gridaris.legal_actions(state)
    assert actions and all(action["type"] == "place" for action in actions)
    with pytest.raises(IllegalAction, match="Unknown action type 'pass'"):
        gridaris.apply(state, {"type": "pass", "seat": ANN}, SeededRng(0))


def test_the_game_ends_after_every_reinforcement_turn():
    state = order(reinforcement_start(["AAAA", "AAAA", "ABBB", "BBB."]), BEN, "first")
    state = place(state, BEN, "rb", "2,1")
    assert gridaris.outcome(state) is None
    state = place(state, ANN, "ra", "0,0")
    result = gridaris.outcome(state)
    assert state["phase"] == "over" and gridaris.to_act(state) == []
    assert result["winners"] == [ANN] and set(result["scores"]) == {"0", "1"}
    with pytest.raises(IllegalAction, match="The game is over."):
        place(state, ANN, "ra", "0,0")


def test_a_player_without_battlefields_when_the_phase_begins_is_out_and_does_not_choose():
    state = reinforcement_start(["AAAA", "AAAA", "ABBB", "BBB."], players=("Ann", "Ben", "Cleo"))
    assert state["out"] == [False, False, True]
    assert gridaris.to_act(state) == [BEN]
    assert "Cleo has been wiped off the board and is out of the game." in state["events"]
    state = order(state, BEN, "first")
    assert state["order"] == [BEN, CLEO, ANN]
    state = place(state, BEN, "rb", "2,1")
    assert gridaris.to_act(state) == [ANN]   # Cleo is skipped


def test_a_player_wiped_out_before_their_turn_is_out_of_the_game():
    cards, board = layout(["AAAA", "AAAA", "AAAA", "BBBC"])
    cards += [card("crusher", "9999", name="Crusher"), card("rb", "5555"), card("rc", "5555")]
    state = state_with(cards=cards, board=board, players=("Ann", "Ben", "Cleo"), phase="reinforcement",
                       hands={ANN: ["crusher"], BEN: ["rb"], CLEO: ["rc"]})
    state = place(state, ANN, "crusher", "2,3")   # takes Cleo's only battlefield, below it
    assert owners(state)["3,3"] == ANN
    state = place(state, BEN, "rb", "3,0")
    assert state["phase"] == "over" and state["out"] == [False, False, True]
    assert CLEO not in gridaris.outcome(state)["winners"]
    assert "Cleo has been wiped off the board and is out of the game." in state["events"]


def test_a_player_with_no_cards_left_skips_the_reinforcement():
    cards, board = layout(["AAAA", "AAAA", "ABBB", "BBBB"])
    cards += [card("ra", "5555")]
    state = state_with(cards=cards, board=board, hands={ANN: ["ra"], BEN: []}, turn=ANN, phase="reinforcement")
    assert state["order"] == [ANN, BEN]
    state = place(state, ANN, "ra", "0,0")
    assert state["phase"] == "over"
    assert state["events"][-2] == "Ben has no cards left and skips the Reinforcement Phase."


def test_a_player_with_no_cards_is_skipped_in_placement():
    cards = [card("x", "5555")]
    state = state_with(cards=cards, players=("Ann", "Ben", "Cleo"), hands={ANN: ["x"], BEN: []})
    after = place(state, ANN, "x", "0,0")
    assert gridaris.to_act(after) == [CLEO]
    assert "Ben has no cards left and is skipped." in after["events"]


def test_a_player_wiped_out_after_their_own_reinforcement_stays_in_with_nothing():
    cards, board = layout(["BBBB", "BBBB", "ABBB", "BBBB"])
    cards += [card("ra", "5555"), card("crusher", "9999")]
    state = state_with(cards=cards, board=board, hands={ANN: ["ra"], BEN: ["crusher"]}, phase="reinforcement")
    state = place(state, ANN, "ra", "2,0")
    state = place(state, BEN, "crusher", "1,0")
    result = gridaris.outcome(state)
    assert state["out"] == [False, False] and owners(state)["2,0"] == BEN
    assert result["winners"] == [BEN] and result["scores"]["0"] == 0


def test_rags_to_riches_also_binds_the_reinforcement_card():
    cards, board = layout(["AAAA", "AAAA", "ABBB", "BBBB"])
    cards += [card("cheap", "1111", stars=1), card("dear", "9999", stars=3, tier="gold")]
    state = state_with(cards=cards, board=board, scenarios=["rags_to_riches", "show_whole"],
                       hands={ANN: ["dear", "cheap"]}, phase="reinforcement")
    with pytest.raises(IllegalAction, match="Rags to Riches"):
        place(state, ANN, "dear", "2,0")
    assert {action["card"] for action in gridaris.legal_actions(state)} == {"cheap"}
