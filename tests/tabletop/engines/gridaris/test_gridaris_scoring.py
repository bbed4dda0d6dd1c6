"""Scoring in Gridaris: base stars, bonus shapes on every map, tie-breaks."""

import pytest

from tabletop.engines.gridaris import maps
from tabletop.engines.gridaris.scoring import bonuses, final_result, score_row
from tabletop.engines.gridaris.testing import card, state_with

ANN, BEN, CLEO = 0, 1, 2


def block(top, left, height, width):
    return {f"{r},{c}" for r in range(top, top + height) for c in range(left, left + width)}


def points(found):
    return sum(bonus["points"] for bonus in found)


def kinds(found):
    return sorted(bonus["kind"] for bonus in found)


def test_rulebook_two_by_four_block_scores_sixteen():
    found = bonuses("standard", block(0, 0, 2, 4))
    assert points(found) == 16
    assert kinds(found).count("row") == 2
    lines = [cell for bonus in found if bonus["kind"] == "row" for cell in bonus["cells"]]
    rectangles = [cell for bonus in found if bonus["kind"] in ("square", "rectangle") for cell in bonus["cells"]]
    # each mercenary counts at most once among lines and at most once among rectangles
    assert len(lines) == len(set(lines)) and len(rectangles) == len(set(rectangles))


@pytest.mark.parametrize("owned, expected, expected_kinds", [
    (block(0, 0, 1, 4), 5, ["row"]),
    (block(0, 2, 4, 1), 5, ["column"]),
    (block(1, 1, 2, 2), 3, ["square"]),
    (block(0, 0, 2, 3), 6, ["rectangle"]),
    (block(0, 0, 3, 2), 6, ["rectangle"]),
    ({"0,0", "1,1", "2,2", "3,3"}, 10, ["diagonal"]),
    ({"0,3", "1,2", "2,1", "3,0"}, 10, ["diagonal"]),
    # both diagonals; their centre is also a 2x2 square
    ({"0,0", "1,1", "2,2", "3,3", "0,3", "1,2", "2,1", "3,0"}, 23, ["diagonal", "diagonal", "square"]),
    (block(0, 0, 1, 3), 0, []),
    ({"0,0", "0,1", "1,0"}, 0, []),
])
def test_single_shapes(owned, expected, expected_kinds):
    found = bonuses("standard", owned)
    assert points(found) == expected
    assert kinds(found) == expected_kinds


def test_full_board_bonus():
    found = bonuses("standard", block(0, 0, 4, 4))
    # four lines (20) + the best rectangle packing of a 4x4 (12) + both diagonals (20)
    assert points(found) == 52
    assert kinds(found).count("diagonal") == 2
    assert sum(b["points"] for b in found if b["kind"] in ("row", "column")) == 20


def test_three_by_three_block():
    found = bonuses("standard", block(0, 0, 3, 3))
    assert points(found) == 6   # one 2x3; no line of 4, no diagonal of 4


def test_bonus_cells_are_listed_for_drawing():
    found = bonuses("standard", block(2, 0, 1, 4))
    assert found == [{"kind": "row", "cells": ["2,0", "2,1", "2,2", "2,3"], "points": 5}]


def test_earthquake_lines_are_any_four_in_a_row():
    assert points(bonuses("earthquake", block(0, 2, 1, 4))) == 5
    assert points(bonuses("earthquake", block(0, 0, 1, 8))) == 10       # two lines of 4 in a row of 8
    assert bonuses("earthquake", block(0, 0, 2, 2))[0]["kind"] == "square"
    assert all(kind != "column" for kind, _ in maps.bonus_shapes("earthquake"))
    assert all(kind != "diagonal" for kind, _ in maps.bonus_shapes("earthquake"))


def test_two_islands_have_no_columns_or_diagonals_across_the_sea():
    shapes = maps.bonus_shapes("two_islands")
    assert {kind for kind, _ in shapes} == {"row", "square", "rectangle"}
    assert points(bonuses("two_islands", block(0, 0, 2, 4) | block(3, 0, 2, 4))) == 32


def test_tremor_shapes_stay_on_the_map():
    shapes = maps.bonus_shapes("tremor")
    cells = set(maps.cell_keys("tremor"))
    assert all(set(shape) <= cells for _, shape in shapes)
    assert [shape for kind, shape in shapes if kind == "column"] == [("0,2", "1,2", "2,2", "3,2"),
                                                                      ("0,3", "1,3", "2,3", "3,3")]
    assert ("diagonal", ("0,0", "1,1", "2,2", "3,3")) in shapes
    assert ("square", ("1,2", "1,3", "2,2", "2,3")) in shapes, "a square across the seam of the two boards"
    assert not any(kind == "column" and "0,0" in shape for kind, shape in shapes)


def _result(board, cards, players=("Ann", "Ben")):
    return final_result(state_with(cards=cards, players=players, board=board))


def test_base_score_counts_only_uncovered_cards():
    cards = [card("big", "5555", stars=4, tier="gold"), card("small", "5555", stars=1)]
    state = state_with(cards=cards, board={"0,0": {"stack": ["big", "small"], "owner": ANN, "modifier": 0}})
    row = score_row(state, ANN)
    assert (row["base"], row["total"], row["battlefields"]) == (1, 1, 1)


def test_total_adds_bonus_to_base():
    cards = [card(f"c{n}", "5555", stars=2) for n in range(4)]
    result = _result({f"0,{n}": (f"c{n}", ANN) for n in range(4)}, cards)
    row = result["rows"][0]
    assert (row["seat"], row["base"], row["total"], row["name"]) == (ANN, 8, 13, "Ann")
    assert result["winners"] == [ANN] and result["reason"] == "Ann wins with 13 points."


def test_tie_on_points_goes_to_more_battlefields():
    cards = [card("four", "5555", stars=4, tier="gold"), card("b1", "5555", stars=2), card("b2", "5555", stars=2)]
    result = _result({"0,0": ("four", ANN), "2,2": ("b1", BEN), "3,0": ("b2", BEN)}, cards)
    assert result["winners"] == [BEN]
    assert "by controlling 2 battlefields" in result["reason"]


def test_tie_on_points_and_battlefields_goes_to_higher_ranks():
    cards = [card("three", "5555", stars=3, tier="gold"), card("one", "5555", stars=1),
             card("b1", "5555", stars=2), card("b2", "5555", stars=2)]
    result = _result({"0,0": ("three", ANN), "0,2": ("one", ANN), "2,0": ("b1", BEN), "2,2": ("b2", BEN)}, cards)
    assert result["winners"] == [ANN]
    assert [row["rank"] for row in result["rows"]] == [1, 2]
    assert "more high-ranking" in result["reason"]


def test_a_complete_tie_is_a_shared_win():
    cards = [card("a", "5555", stars=2), card("b", "5555", stars=2)]
    result = _result({"0,0": ("a", ANN), "2,2": ("b", BEN)}, cards)
    assert result["winners"] == [ANN, BEN]
    assert [row["rank"] for row in result["rows"]] == [1, 1]
    assert result["reason"].startswith("Ann and Ben share the win")


def test_a_player_out_of_the_game_cannot_win_and_ranks_last():
    cards = [card("a", "5555", stars=2)]
    state = state_with(cards=cards, players=("Ann", "Ben", "Cleo"), board={"0,0": ("a", ANN)})
    state["out"][CLEO] = True
    result = final_result(state)
    assert result["winners"] == [ANN]
    assert [(row["seat"], row["out"], row["rank"]) for row in result["rows"]] == [
        (ANN, False, 1), (BEN, False, 2), (CLEO, True, 3)]
