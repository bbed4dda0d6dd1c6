"""Mercenarium rules as scenarios: summoning, the alchemy table, Lords, contracts, hymns, Limbo, the end."""

import pytest

from tabletop.engines import mercenarium as m
from tabletop.engines.kernel import IllegalAction, ScriptedRng, SeededRng
from tabletop.engines.mercenarium import board
from tabletop.engines.mercenarium.testing import act, play, remember, state_with, with_aura

# Two players: Ann (seat 0) sits south, House 6,3; Ben (seat 1) sits north, House 0,3.


def kinds(state, seat, src, dst):
    return [a["type"] for a in m.legal_actions(state) if a.get("from") == src and a.get("to") == dst]


def test_the_deal_seats_and_first_player():
    state = m.setup(m.starter_config(["Ann", "Ben", "Cid", "Dee"]), SeededRng(1))
    assert [len(h) for h in state["hands"]] == [6, 6, 6, 6]
    assert all(len(board.hand_hymns(state, s)) == 1 for s in range(4))
    assert len(state["deck"]) == 56 - 20 and len(state["hymnal"]) == 15 - 4
    assert [board.house(state, s) for s in range(4)] == ["6,3", "3,0", "0,3", "3,6"]
    assert "goes first" in state["events"][-1]


def test_tied_first_rolls_are_rolled_again():
    state = m.setup(m.starter_config(["Ann", "Ben"]), ScriptedRng([0] * (55 + 14) + [5, 5, 2, 6]))
    assert state["first"] == 1 and len([e for e in state["events"] if e.startswith("Rolls")]) == 2


def test_house_summon_takes_any_card_and_field_summon_needs_a_base():
    state = state_with(hands={0: ["C05", "S14", "G02", "B03"]})
    assert {a["to"] for a in m.legal_actions(state) if a["type"] == "summon"} == {"6,3"}
    state = act(state, 0, type="summon", card="C05", to="6,3")
    state = act(state, 1, type="draw", discard=board.hand_cards(state, 1)[0])  # Ben holds five cards
    cells = {}
    for a in m.legal_actions(state):
        if a["type"] == "summon":
            cells.setdefault(a["card"], set()).add(a["to"])
    assert cells["S14"] == {"5,3", "6,2", "6,4"}  # higher value
    assert "G02" not in cells  # lower value and another suit
    with pytest.raises(IllegalAction):
        act(state, 0, type="summon", card="G02", to="5,3")


def test_no_diagonal_summons_and_enemy_cards_are_no_base():
    state = state_with(hands={0: ["C09"]}, board={"6,3": ("C05", 0), "5,4": ("C02", 1)})
    targets = {a["to"] for a in m.legal_actions(state) if a["type"] == "summon"}
    assert targets == {"5,3", "6,2", "6,4"}


def test_capture_when_the_touching_edge_has_more_dots():
    state = state_with(board={"3,3": ("G08", 0), "2,3": ("B02", 1)})  # Gears top 5 vs Blades' top (facing south) 1
    assert kinds(state, 0, "3,3", "2,3") == ["capture"]
    state = act(state, 0, type="capture", **{"from": "3,3", "to": "2,3"})
    assert state["board"]["2,3"] == {"card": "G08", "owner": 0}
    assert state["captures"][0] == [{"card": "B02", "spent": False}]


def test_dots_are_read_in_the_owners_orientation():
    state = state_with(board={"3,3": ("B02", 0), "3,4": ("B03", 1)})
    with_aura(state, "B02", [0, 4, 0, 0])  # Ann's right edge faces east
    with_aura(state, "B03", [0, 3, 0, 0])  # Ben sits north: his right edge faces west, toward Ann's card
    assert board.dots_toward(state, "B02", 0, 1) == 4 and board.dots_toward(state, "B03", 1, 3) == 3
    assert kinds(state, 0, "3,3", "3,4") == ["capture"]


@pytest.mark.parametrize("mine, theirs, result", [
    ("C", "S", ["capture"]), ("S", "G", ["capture"]), ("G", "B", ["capture"]), ("B", "C", ["capture"]),
    ("S", "C", []), ("G", "S", []), ("B", "G", []), ("C", "B", []),
    ("C", "G", ["annihilate"]), ("G", "C", ["annihilate"]), ("S", "B", ["annihilate"]), ("B", "S", ["annihilate"]),
    ("C", "C", []), ("S", "S", []), ("G", "G", []), ("B", "B", []),
])
def test_the_alchemy_table_on_tied_auras(mine, theirs, result):
    a, b = f"{mine}05", f"{theirs}06"
    state = state_with(board={"3,3": (a, 0), "2,3": (b, 1)})
    with_aura(state, a, [2, 2, 2, 2])
    with_aura(state, b, [2, 2, 2, 2])
    assert kinds(state, 0, "3,3", "2,3") == result


def test_annihilation_discards_both_and_nobody_scores():
    state = state_with(board={"3,3": ("C05", 0), "2,3": ("G06", 1)})
    with_aura(state, "C05", [2, 2, 2, 2])
    with_aura(state, "G06", [2, 2, 2, 2])
    state = act(state, 0, type="annihilate", **{"from": "3,3", "to": "2,3"})
    assert state["board"] == {} and state["captures"] == [[], []]
    assert {"C05", "G06"} <= set(state["discard"])


def test_lords_always_resolve_by_alchemy():
    state = state_with(board={"3,3": ("B15", 0), "2,3": ("C14", 1), "3,4": ("G02", 1), "4,3": ("B02", 1),
                              "3,2": ("S02", 1)})
    assert kinds(state, 0, "3,3", "2,3") == ["capture"]  # Blades consume Claws, dots or not
    assert kinds(state, 0, "3,3", "4,3") == []  # own suit: deadlock
    assert kinds(state, 0, "3,3", "3,2") == ["annihilate"]  # Souls are opposite
    state["turn"] = 1
    assert kinds(state, 1, "3,4", "3,3") == ["capture"]  # Gears consume the Lord of Blades


def test_lords_summon_on_any_friendly_card_and_only_lords_or_their_suit_next_to_them():
    state = state_with(hands={0: ["S15", "C14", "S02", "B15"]}, board={"6,3": ("G02", 0)})
    assert {"5,3", "6,2", "6,4"} == {a["to"] for a in m.legal_actions(state) if a.get("card") == "S15"}
    state = state_with(hands={0: ["C14", "S02", "B15"]}, board={"6,3": ("C05", 0), "5,3": ("S15", 0)})
    to = {}
    for a in m.legal_actions(state):
        if a["type"] == "summon":
            to.setdefault(a["card"], set()).add(a["to"])
    assert "4,3" not in to["C14"] and {"6,2", "6,4"} <= to["C14"]
    assert "4,3" in to["S02"] and "4,3" in to["B15"]


def test_contracts_protect_a_summoned_mercenary_until_its_owners_next_turn():
    state = state_with(hands={0: ["C11"]}, captures={1: ["B02"]}, board={"0,3": ("G03", 1)})
    state = act(state, 0, type="summon", card="C11", to="6,3")
    assert not [a for a in m.legal_actions(state) if a["type"] == "buy"]
    state = act(state, 1, type="move", **{"from": "0,3", "to": "1,3"})
    state = act(state, 0, type="move", **{"from": "6,3", "to": "5,3"})
    buys = [a for a in m.legal_actions(state) if a["type"] == "buy"]
    assert buys == [{"type": "buy", "seat": 1, "cell": "5,3", "capture": 0}]
    state = play(state, buys[0])
    assert state["board"]["5,3"]["owner"] == 1 and state["captures"][1][0]["spent"]
    assert board.dots_toward(state, "C11", 1, 0) == state["cards"]["C11"]["aura"][2]  # turned to face Ben
    assert not [a for a in m.legal_actions(state) if a["type"] == "buy"]  # Ann cannot buy it straight back


def test_tens_and_lords_are_not_mercenaries():
    state = state_with(captures={0: ["B02"]}, board={"3,3": ("C10", 1), "2,2": ("S15", 1), "1,1": ("G12", 1)})
    assert {a["cell"] for a in m.legal_actions(state) if a["type"] == "buy"} == {"1,1"}


def test_spent_captures_still_count_and_five_wins():
    state = state_with(captures={0: [("B02", True), ("B03", True), "B04", "B05"]},
                       board={"3,3": ("G08", 0), "2,3": ("B06", 1)})
    with_aura(state, "B06", [0, 0, 0, 0])
    state = act(state, 0, type="capture", **{"from": "3,3", "to": "2,3"})
    assert m.outcome(state)["winners"] == [0] and "five captures" in m.outcome(state)["reason"]


def test_draw_at_five_cards_discards_first():
    state = state_with(hands={0: ["C02", "C03", "C04", "C05", "C06"]})
    draws = [a for a in m.legal_actions(state) if a["type"] == "draw"]
    assert all("discard" in a for a in draws) and len(draws) == 5
    state = act(state, 0, type="draw", discard="C02")
    assert "C02" in state["discard"] and len(state["hands"][0]) == 5


@pytest.mark.parametrize("offer, hand, extra", [
    ("two_low", ["C02", "C09"], {"cards": ["C02", "C09"]}),
    ("one_high", ["C10"], {"cards": ["C10"]}),
    ("capture", [], {"capture": 0}),
    ("hymn_card", ["H05", "C03"], {"hymn": "H05", "cards": ["C03"]}),
    ("hymn_capture", ["H05"], {"hymn": "H05", "capture": 0}),
])
def test_the_five_offerings_learn_a_hymn(offer, hand, extra):
    state = state_with(hands={0: hand}, captures={0: ["B02"]})
    state = act(state, 0, type="learn", offer=offer, **extra)
    assert len(board.hand_hymns(state, 0)) == 1 and board.hand_hymns(state, 0) != ["H05"]
    if "capture" in extra:
        assert state["captures"][0][0]["spent"]


def test_no_offering_of_two_cards_when_one_is_ten_or_more_and_none_without_the_cards():
    state = state_with(hands={0: ["C02", "C10"]})
    assert not [a for a in m.legal_actions(state) if a.get("offer") == "two_low"]
    with pytest.raises(IllegalAction):
        act(state, 0, type="learn", offer="two_low", cards=["C02", "C10"])


def test_fireyes_draws_two_and_primary_offers_three_hymns():
    state = state_with(hands={0: ["H01"]})
    state = act(state, 0, type="sing", hymn="H01")
    assert len(state["hands"][0]) == 2 and "H01" in state["hymn_discard"]
    state = state_with(hands={0: ["H07"]})
    state = act(state, 0, type="sing", hymn="H07")
    assert m.to_act(state) == [0] and len(state["pending"]["options"]) == 3
    offered = state["pending"]["options"]
    assert not set(offered) & set(m.view(state, 1)["players"][0]["face_up"])
    assert set(offered) <= set(m.hidden_from(state, 1))
    keep = [a for a in m.legal_actions(state) if a["type"] == "keep" and not a["use"]][0]
    state = play(state, keep)
    assert board.hand_hymns(state, 0) == [keep["hymn"]] and m.to_act(state) == [1]


def test_zodiac_rolls_the_twelve_sided_die_and_stays_face_up():
    state = state_with(hands={0: ["H13"], 1: []}, board={"2,3": ("C05", 1), "6,3": ("C02", 0)})
    state = act(state, 0, ScriptedRng([2]), type="sing", hymn="H13")  # II. Undertow needs a target
    assert state["pending"] == {"seat": 0, "kind": "target", "number": 2}
    assert "H13" in state["face_up"] and "H13" in state["hands"][0]
    assert m.view(state, 1)["players"][0]["face_up"][0]["name"] == "XIII. Zodiac"
    state = act(state, 0, type="resolve", cell="2,3")
    assert "C05" in state["hands"][1] and "2,3" not in state["board"]


def zodiac_rolls_primary_with_nothing_to_keep():
    """Ann holds only XIII. Zodiac, nothing is on the board or in the discard pile, and the top three hymns
    (Undertow, Turncoat, Leap) all need a card in play: Zodiac, still in her hand, rolls a 7 (VII. Primary)."""
    state = state_with(hands={0: ["H13"], 1: []})
    others = [h for h in state["hymnal"] if h not in ("H02", "H03", "H04")]
    state["hymnal"] = others + ["H02", "H03", "H04"]
    return state, act(state, 0, ScriptedRng([7] + [0] * 20), type="sing", hymn="H13")  # then the shuffle


def test_zodiac_rolling_primary_with_nothing_to_keep_leaves_the_game_playable():
    """Issue 36: Zodiac stays in the singer's hand, so Primary's offer could not be held, and none could be
    used: a pending choice with no legal action (ruling MC5: the three go back, the hymn has no effect)."""
    before, state = zodiac_rolls_primary_with_nothing_to_keep()
    assert "The Zodiac die shows 7." in state["events"]
    assert m.outcome(state) is not None or m.legal_actions(state)
    assert state["pending"] is None and m.to_act(state) == [1]
    assert sorted(state["hymnal"]) == sorted(before["hymnal"]) and "H13" in state["hands"][0]
    assert not m.invariants(state)


def test_singularity_when_the_deck_runs_out_and_fireyes_draws_five():
    state = state_with(hands={0: ["C02"], 1: ["H01"]}, deck=["C03"])
    state["deck"] = ["C03"]
    rest = [c["id"] for c in m.STARTER_CARDS if c["id"] not in ("C02", "C03")]
    rest = [c for c in rest if c not in state["hands"][1]]
    state["discard"] = rest
    state = act(state, 0, type="draw")
    assert state["singularity"] and not state["hymnal"] and not state["discard"]
    assert any(c.startswith("H") for c in state["deck"])  # hymns and cards in one deck
    before = len(state["hands"][1])
    state = act(state, 1, type="sing", hymn="H01")
    assert len(state["hands"][1]) == before - 1 + 5  # no hand limit
    assert not [a for a in m.legal_actions(state) if a["type"] == "learn"]


def test_primary_searches_the_deck_in_singularity():
    state = state_with(hands={0: ["H07"]})
    state["singularity"] = True
    target = state["deck"][0]
    state = act(state, 0, type="sing", hymn="H07")
    assert state["pending"] == {"seat": 0, "kind": "search"}
    assert target not in m.hidden_from(state, 0) and target in m.hidden_from(state, 1)
    state = act(state, 0, type="take", card=target)
    assert target in state["hands"][0] and target not in state["deck"] and m.to_act(state) == [1]


def test_universal_stalemate_when_the_singularity_deck_runs_out():
    state = state_with(hands={0: []})
    state["singularity"] = True
    state["discard"] += state["deck"][:-1]
    state["deck"] = state["deck"][-1:]
    state = act(state, 0, type="draw")
    assert m.outcome(state)["winners"] == [] and "Universal stalemate" in m.outcome(state)["reason"]


def test_two_player_limbo_without_escape_loses():
    state = state_with(hands={0: ["C02"]}, board={"5,3": ("C03", 0), "4,3": ("G14", 1)})
    with_aura(state, "C03", [0, 0, 0, 0])
    state = act(state, 0, type="move", **{"from": "5,3", "to": "6,3"})
    state["turn"] = 1
    state = act(state, 1, type="move", **{"from": "4,3", "to": "5,3"})
    state = act(state, 1 - 1, type="move", **{"from": "6,3", "to": "6,4"})
    state = act(state, 1, type="move", **{"from": "5,3", "to": "6,3"})  # onto Ann's empty House
    assert board.in_limbo(state, 0) is False  # she still has a card in play
    state = state_with(hands={0: ["C02"]}, board={"6,3": ("G14", 1)})
    assert state["limbo_start"] and board.in_limbo(state, 0)
    assert not [a for a in m.legal_actions(state) if a["type"] == "summon"]
    state = act(state, 0, type="draw")
    assert m.outcome(state)["winners"] == [1] and "Limbo" in m.outcome(state)["reason"]


def test_two_player_limbo_escape_by_buying_a_mercenary():
    state = state_with(hands={0: ["C02"]}, captures={0: ["B02"]}, board={"6,3": ("G14", 1)})
    state = act(state, 0, type="buy", cell="6,3", capture=0)
    assert m.outcome(state) is None and not board.in_limbo(state, 0)


def test_two_player_limbo_escape_with_a_hymn():
    state = state_with(hands={0: ["H02"]}, board={"6,3": ("G09", 1)})
    state = act(state, 0, type="sing", hymn="H02", cell="6,3")
    assert m.outcome(state) is None and "6,3" not in state["board"]


def test_four_player_limbo_stays_and_the_last_player_with_cards_wins():
    players = ("Ann", "Ben", "Cid", "Dee")
    state = state_with(players=players, turn=1, board={"3,0": ("G14", 0), "0,3": ("C14", 0), "3,5": ("B14", 0),
                                                        "6,3": ("S02", 0)})
    assert board.in_limbo(state, 1)
    state = act(state, 1, type="draw", **({"discard": board.hand_cards(state, 1)[0]}
                                           if len(board.hand_cards(state, 1)) >= 5 else {}))
    assert m.outcome(state) is None and state["turn"] == 2  # Ben stays in Limbo, no elimination
    state["turn"] = 0
    state = act(state, 0, type="move", **{"from": "3,5", "to": "3,6"})  # onto Dee's House
    assert m.outcome(state)["winners"] == [0] and "Limbo" in m.outcome(state)["reason"]


def test_stalemate_after_the_third_repetition():
    state = remember(state_with(board={"6,3": ("C05", 0), "0,3": ("S05", 1)}))
    shuttle = [(0, "6,3", "5,3"), (1, "0,3", "1,3"), (0, "5,3", "6,3"), (1, "1,3", "0,3")]
    for step in range(8):
        assert m.outcome(state) is None
        seat, src, dst = shuttle[step % 4]
        state = act(state, seat, type="move", **{"from": src, "to": dst})
    assert m.outcome(state)["winners"] == [] and "Stalemate" in m.outcome(state)["reason"]


def test_no_passing_and_only_the_player_to_move_acts():
    state = state_with()
    with pytest.raises(IllegalAction):
        act(state, 0, type="pass")
    with pytest.raises(IllegalAction):
        act(state, 1, type="draw")
