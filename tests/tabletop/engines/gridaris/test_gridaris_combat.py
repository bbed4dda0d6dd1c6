"""Combat in Gridaris: the rulebook's turn examples, then every combat scenario."""

import pytest

from tabletop.engines import gridaris
from tabletop.engines.gridaris.combat import duel
from tabletop.engines.gridaris.testing import card, owners, place, state_with
from tabletop.engines.kernel import IllegalAction

ANN, BEN, SARAH = 0, 1, 2


# ------------------------------------------------------------------ the rulebook's turn examples

def test_rulebook_ben_captures_corporate_shell_and_pawberus_is_safe_from_the_card_below():
    cards = [card("shell", "3324", name="Corporate Shell"), card("below", "8555"),
             card("paw", "5526", name="Pawberus")]
    state = state_with(cards=cards, players=("Ann", "Ben", "Sarah"), turn=BEN,
                       hands={BEN: ["paw"]}, board={"0,0": ("shell", ANN), "1,1": ("below", ANN)})
    after = place(state, BEN, "paw", "0,1")
    # Pawberus's left 6 beats Corporate Shell's right 3; its bottom 2 loses to the top 8 below.
    assert owners(after) == {"0,0": BEN, "0,1": BEN, "1,1": ANN}
    assert after["last"] == {"cell": "0,1", "captured": ["0,0"]}
    assert after["events"][-1] == "Ben plays Pawberus on B1 and captures Corporate Shell."


def test_rulebook_sarah_double_capture():
    cards = [card("left", "5455"), card("below", "4555"), card("gouds", "6556", name="Gouds the Struggler")]
    state = state_with(cards=cards, players=("Ann", "Ben", "Sarah"), turn=SARAH,
                       hands={SARAH: ["gouds"]}, board={"1,0": ("left", BEN), "2,1": ("below", BEN)})
    after = place(state, SARAH, "gouds", "1,1")
    assert owners(after) == {"1,0": SARAH, "1,1": SARAH, "2,1": SARAH}
    assert sorted(after["last"]["captured"]) == ["1,0", "2,1"]


@pytest.mark.parametrize("mine, theirs, captured", [
    ("6", "5", True),    # higher captures
    ("5", "5", False),   # a tie does nothing
    ("4", "5", False),   # lower does nothing
    ("A", "9", True),    # an Ace beats any number
    ("9", "A", False),
    ("A", "A", False),   # Ace against Ace is a tie
])
def test_standard_edge_comparison(mine, theirs, captured):
    cards = [card("enemy", f"55{theirs}5"), card("mine", f"{mine}555")]
    state = state_with(cards=cards, hands={ANN: ["mine"]}, board={"0,0": ("enemy", BEN)})
    after = place(state, ANN, "mine", "1,0")
    assert after["board"]["0,0"]["owner"] == (ANN if captured else BEN)


def test_the_card_just_played_is_never_captured_and_own_cards_never_fight():
    cards = [card("strong", "999A"), card("own", "1111"), card("weak", "1111")]
    state = state_with(cards=cards, hands={ANN: ["weak"]},
                       board={"0,1": ("strong", BEN), "1,0": ("own", ANN)})
    after = place(state, ANN, "weak", "0,0")
    assert owners(after) == {"0,0": ANN, "0,1": BEN, "1,0": ANN}
    assert after["last"]["captured"] == []


def test_turn_passes_clockwise_after_a_placement():
    state = state_with(cards=[card("x", "5555")], players=("Ann", "Ben", "Sarah"), turn=SARAH,
                       hands={SARAH: ["x"]})
    after = place(state, SARAH, "x", "0,0")
    assert gridaris.to_act(after) == [ANN]


# ------------------------------------------------------------------ Inverse and Ace in the Hole

@pytest.mark.parametrize("scenarios, mine, theirs, result", [
    (["inverse", "show_whole"], "3", "5", 1),
    (["inverse", "show_whole"], "5", "3", -1),
    (["inverse", "show_whole"], "A", "1", 1),            # Aces still win under Inverse
    (["inverse", "show_whole"], "1", "A", -1),
    (["ace_in_the_hole", "show_whole"], "A", "1", -1),   # an Ace is 0
    (["ace_in_the_hole", "show_whole"], "1", "A", 1),
    (["ace_in_the_hole", "show_whole"], "A", "A", 0),
    (["inverse", "ace_in_the_hole"], "A", "1", 1),       # together: Aces are automatic winners again
    (["inverse", "ace_in_the_hole"], "9", "A", -1),
    (["inverse", "ace_in_the_hole"], "2", "7", 1),
])
def test_inverse_and_ace_in_the_hole(scenarios, mine, theirs, result):
    active = set(scenarios)
    assert duel(mine, 0, theirs, 0, active) == result
    cards = [card("enemy", f"55{theirs}5"), card("mine", f"{mine}555")]
    state = state_with(cards=cards, scenarios=scenarios, hands={ANN: ["mine"]}, board={"0,0": ("enemy", BEN)})
    after = place(state, ANN, "mine", "1,0")
    assert after["board"]["0,0"]["owner"] == (ANN if result > 0 else BEN)


def test_ace_in_the_hole_aces_take_modifiers_like_a_zero():
    assert duel("A", 2, "1", 0, {"ace_in_the_hole"}) == 1
    assert duel("A", 0, "1", -2, {"ace_in_the_hole"}) == 1
    assert duel("A", -1, "1", -2, {"ace_in_the_hole"}) == 0


# ------------------------------------------------------------------ Class Project and Class War

def test_class_project_adds_one_per_same_class_card_in_play_and_the_token_stays():
    cards = [card("w1", "1111", card_class="Wizards"), card("w2", "1111", card_class="Wizards"),
             card("enemy", "5A55"), card("mine", "5555", card_class="Wizards")]
    state = state_with(cards=cards, scenarios=["class_project", "show_whole"], hands={ANN: ["mine"]},
                       board={"3,0": ("w1", BEN), "3,3": ("w2", ANN), "0,0": ("enemy", BEN)})
    after = place(state, ANN, "mine", "1,0")   # two Wizards in play: every edge 5 + 2 = 7 beats the 5 above
    assert after["board"]["1,0"]["modifier"] == 2
    assert after["board"]["0,0"]["owner"] == ANN
    assert after["events"][-1].startswith("Ann plays MINE on A2 (+2) and captures")


def test_class_modifier_also_counts_when_the_card_defends():
    cards = [card("guard", "5555", card_class="Wizards"), card("attacker", "5556")]
    state = state_with(cards=cards, scenarios=["class_project", "show_whole"], hands={BEN: ["attacker"]},
                       turn=BEN, board={"0,0": ("guard", ANN, 2)})
    after = place(state, BEN, "attacker", "0,1")   # left 6 against the guard's right 5 + 2
    assert after["board"]["0,0"]["owner"] == ANN
    assert after["board"]["0,1"]["modifier"] == 0


def test_class_modifier_is_at_most_five():
    wizards = [card(f"w{n}", "1111", card_class="Wizards") for n in range(7)]
    board = {f"{n // 4},{n % 4}": (f"w{n}", ANN) for n in range(6)}
    state = state_with(cards=wizards, scenarios=["class_war", "show_whole"], hands={ANN: ["w6"]}, board=board)
    assert place(state, ANN, "w6", "3,3")["board"]["3,3"]["modifier"] == -5


def test_class_war_subtracts():
    cards = [card("m1", "1111", card_class="Monsters"), card("enemy", "5545"),
             card("mine", "5555", card_class="Monsters")]
    state = state_with(cards=cards, scenarios=["class_war", "show_whole"], hands={ANN: ["mine"]},
                       board={"3,3": ("m1", BEN), "0,0": ("enemy", BEN)})
    after = place(state, ANN, "mine", "1,0")   # 5 - 1 = 4 only ties the 4 above
    assert after["board"]["1,0"]["modifier"] == -1
    assert after["board"]["0,0"]["owner"] == BEN


def test_class_project_and_class_war_cancel_out():
    cards = [card("m1", "1111", card_class="Monsters"), card("mine", "5555", card_class="Monsters")]
    state = state_with(cards=cards, scenarios=["class_war", "class_project"], hands={ANN: ["mine"]},
                       board={"3,3": ("m1", BEN)})
    assert state["active"] == []
    after = place(state, ANN, "mine", "0,0")
    assert after["board"]["0,0"]["modifier"] == 0
    shown = gridaris.view(after, ANN)["scenarios"]
    assert [(s["key"], s["active"]) for s in shown] == [("class_project", False), ("class_war", False)]


@pytest.mark.parametrize("scenario, mine_mod, theirs_mod, captured", [
    ("class_project", 1, 0, True),     # infinity + 1 beats infinity
    ("class_project", 1, 1, False),    # equal modifiers tie
    ("class_war", 0, -1, True),        # an Ace without a negative beats one with
    ("class_war", -1, 0, False),
    ("class_war", -2, -1, False),
])
def test_ace_against_ace_is_decided_by_modifiers(scenario, mine_mod, theirs_mod, captured):
    assert duel("A", mine_mod, "A", theirs_mod, {scenario}) == (1 if captured else -1 if mine_mod < theirs_mod else 0)
    cards = [card("enemy", "55A5"), card("mine", "A555", card_class="Wizards")]
    wizards = [card(f"w{n}", "1111", card_class="Wizards") for n in range(abs(mine_mod))]
    board = {"0,0": ("enemy", BEN, theirs_mod), **{f"3,{n}": (f"w{n}", BEN) for n in range(abs(mine_mod))}}
    state = state_with(cards=cards + wizards, scenarios=[scenario, "show_whole"], hands={ANN: ["mine"]},
                       board=board)
    after = place(state, ANN, "mine", "1,0")
    assert after["board"]["1,0"]["modifier"] == mine_mod
    assert after["board"]["0,0"]["owner"] == (ANN if captured else BEN)


def test_aces_beat_numbers_whatever_the_modifiers():
    assert duel("A", -5, "9", 5, {"class_war"}) == 1
    assert duel("9", 5, "A", -5, {"class_project"}) == -1


def test_inverse_ace_against_ace_still_goes_to_the_higher_modifier():
    assert duel("A", 1, "A", 0, {"inverse", "class_project"}) == 1
    assert duel("A", 0, "A", 1, {"inverse", "class_project"}) == -1


# ------------------------------------------------------------------ Rags to Riches

def test_rags_to_riches_refuses_a_higher_rank_while_a_lower_one_is_in_hand():
    cards = [card("cheap", "5555", stars=1), card("also", "5555", stars=1), card("dear", "9999", stars=2)]
    state = state_with(cards=cards, scenarios=["rags_to_riches", "show_whole"],
                       hands={ANN: ["dear", "cheap", "also"]})
    with pytest.raises(IllegalAction, match=r"Rags to Riches: play one of your lowest-ranked cards \(1 star\) first\."):
        place(state, ANN, "dear", "0,0")
    assert {action["card"] for action in gridaris.legal_actions(state)} == {"cheap", "also"}
    assert place(state, ANN, "also", "0,0")["board"]["0,0"]["stack"] == ["also"]


# ------------------------------------------------------------------ Carbon Copy and Cascade

@pytest.mark.parametrize("mine, theirs, captured", [("5", "5", True), ("A", "A", True), ("9", "A", False),
                                                     ("4", "5", False)])
def test_carbon_copy_ties_capture(mine, theirs, captured):
    cards = [card("enemy", f"55{theirs}5"), card("mine", f"{mine}555")]
    state = state_with(cards=cards, scenarios=["carbon_copy", "show_whole"], hands={ANN: ["mine"]},
                       board={"0,0": ("enemy", BEN)})
    assert place(state, ANN, "mine", "1,0")["board"]["0,0"]["owner"] == (ANN if captured else BEN)


def _cascade_state(scenarios, y_right="7"):
    # Ann plays X on 1,0 and captures Ben's Y on 1,1; Y then fights Ben's Z on 1,2 (left 4).
    # Z in turn beats Ben's V on 1,3, which must stay Ben's: one step only.
    cards = [card("x", "5955"), card("y", f"5{y_right}52"), card("z", "5954"),
             card("v", "5551"), card("own", "1111")]
    return state_with(cards=cards, scenarios=scenarios, hands={ANN: ["x"]},
                      board={"1,1": ("y", BEN), "1,2": ("z", BEN), "1,3": ("v", BEN), "2,1": ("own", ANN)})


def test_cascade_captures_one_step_beyond():
    after = place(_cascade_state(["cascade", "show_whole"]), ANN, "x", "1,0")
    assert owners(after) == {"1,0": ANN, "1,1": ANN, "1,2": ANN, "1,3": BEN, "2,1": ANN}
    assert after["last"]["captured"] == ["1,1", "1,2"]
    assert "the cascade takes Z" in after["events"][-1]


def test_without_cascade_only_the_neighbour_is_captured():
    after = place(_cascade_state(["carbon_copy", "show_whole"]), ANN, "x", "1,0")
    assert owners(after)["1,1"] == ANN and owners(after)["1,2"] == BEN


def test_cascade_needs_a_win_but_with_carbon_copy_a_tie_cascades():
    alone = place(_cascade_state(["cascade", "show_whole"], y_right="4"), ANN, "x", "1,0")
    assert owners(alone)["1,2"] == BEN
    both = place(_cascade_state(["cascade", "carbon_copy"], y_right="4"), ANN, "x", "1,0")
    assert owners(both)["1,2"] == ANN and owners(both)["1,3"] == BEN


# ------------------------------------------------------------------ Head Stand

def test_head_stand_flips_the_named_classes_in_attack_and_defence():
    cards = [card("enemy", "5555", card_class="Mops"), card("mine", "1293", card_class="Mops"),
             card("plain", "1293", card_class="Wizards")]
    flipped = state_with(cards=cards, scenarios=["head_stand", "show_whole"], headstand_classes=["Mops"],
                         hands={ANN: ["mine", "plain"]}, board={"0,0": ("enemy", BEN)})
    # upside down, "mine" has top 9 (its printed bottom) and left 2 (its printed right)
    assert place(flipped, ANN, "mine", "1,0")["board"]["0,0"]["owner"] == ANN
    assert place(flipped, ANN, "plain", "1,0")["board"]["0,0"]["owner"] == BEN
    edges = gridaris.view(flipped, ANN)["hand"][0]
    assert edges["flipped"] is True and edges["edges"] == {"top": "9", "right": "3", "bottom": "1", "left": "2"}


def test_class_count_ignores_covered_cards_and_counts_every_empire():
    cards = [card("w_under", "1111", card_class="Wizards"), card("m_top", "1111", card_class="Monsters"),
             card("w_ben", "1111", card_class="Wizards"), card("mine", "5555", card_class="Wizards")]
    board = {"3,0": {"stack": ["w_under", "m_top"], "owner": ANN, "modifier": 0}, "3,3": ("w_ben", BEN)}
    state = state_with(cards=cards, scenarios=["class_project", "show_whole"], hands={ANN: ["mine"]}, board=board)
    assert place(state, ANN, "mine", "0,0")["board"]["0,0"]["modifier"] == 1
