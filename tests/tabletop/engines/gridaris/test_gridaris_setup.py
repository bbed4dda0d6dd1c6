"""Setup, config validation, the starter catalog, maps and the setup-time scenarios."""

import json

import pytest

from tabletop.engines import gridaris
from tabletop.engines.gridaris import maps
from tabletop.engines.gridaris.starter import CLASSES, SCENARIO_KEYS
from tabletop.engines.gridaris.testing import card, owners, place, state_with
from tabletop.engines.kernel import GM, IllegalAction, ScriptedRng, SeededRng

ANN, BEN = 0, 1


def setup(players=("Ann", "Ben"), mode="standard", scenarios=None, map=None, seed=3):
    return gridaris.setup(gridaris.starter_config(list(players), mode, scenarios, map), SeededRng(seed))


# ------------------------------------------------------------------ starter data

def test_starter_catalog_shape():
    cards = gridaris.STARTER_CARDS
    silver = [c for c in cards if c["tier"] == "silver"]
    gold = [c for c in cards if c["tier"] == "gold"]
    assert (len(silver), len(gold)) == (31, 18)
    assert [c["id"] for c in silver] == [f"s{n:02d}" for n in range(1, 32)]
    assert [c["id"] for c in gold] == [f"g{n:02d}" for n in range(1, 19)]
    assert {c["class"] for c in cards} == set(CLASSES) and len(CLASSES) == 6
    assert {c["stars"] for c in silver} <= {1, 2} and {c["stars"] for c in gold} <= {3, 4}
    assert 1 <= sum("A" in c["edges"] for c in silver) <= 2
    assert sum("A" in c["edges"] for c in gold) >= 3
    numeric = [int(e) for c in silver for e in c["edges"] if e != "A"]
    assert max(numeric) < 9 and sum(numeric) / len(numeric) < sum(
        int(e) for c in gold for e in c["edges"] if e != "A") / sum(e != "A" for c in gold for e in c["edges"])
    assert len({c["name"] for c in cards}) == 49


def test_twelve_scenarios_in_a_fixed_order():
    assert SCENARIO_KEYS == ["earthquake", "tremor", "two_islands", "show_whole", "inverse", "ace_in_the_hole",
                             "class_project", "class_war", "rags_to_riches", "carbon_copy", "cascade", "head_stand"]
    assert all(s["name"] and s["text"] for s in gridaris.SCENARIOS)


# ------------------------------------------------------------------ setup

@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_setup_deals_six_silver_and_three_gold_to_everyone(count):
    state = setup(["Ann", "Ben", "Cleo", "Dev", "Esme"][:count])
    for hand in state["hands"]:
        assert [state["cards"][c]["tier"] for c in hand].count("silver") == 6
        assert [state["cards"][c]["tier"] for c in hand].count("gold") == 3
    assert len(state["decks"]["silver"]) == 31 - 6 * count and len(state["decks"]["gold"]) == 18 - 3 * count
    assert state["phase"] == "placement" and state["map"] == "standard" and state["v"] == 1
    assert gridaris.to_act(state) == [state["first"]] and 0 <= state["first"] < count
    assert gridaris.invariants(state) == []
    assert json.loads(json.dumps(state)) == state


def test_the_first_player_is_random():
    assert {setup(["A", "B", "C"], seed=seed)["first"] for seed in range(30)} == {0, 1, 2}


@pytest.mark.parametrize("change, message", [
    ({"players": ["Solo"]}, "needs 2 to 5 players, not 1"),
    ({"players": ["A", "B", "C", "D", "E", "F"]}, "needs 2 to 5 players, not 6"),
    ({"players": "Ann"}, "players must be a list of names"),
    ({"mode": "chaos"}, "mode must be 'standard' or 'enhanced'"),
    ({"scenarios": ["inverse", "cascade"]}, "Scenarios are only used in enhanced play"),
    ({"mode": "enhanced", "scenarios": ["inverse"]}, "exactly two different scenarios"),
    ({"mode": "enhanced", "scenarios": ["inverse", "inverse"]}, "exactly two different scenarios"),
    ({"mode": "enhanced", "scenarios": ["inverse", "zombies"]}, "exactly two different scenarios"),
    ({"map": "moon"}, "There is no map 'moon'"),
    ({"map": "earthquake"}, "The standard game is played on the standard map"),
    ({"mode": "enhanced", "scenarios": ["earthquake", "tremor"], "map": "two_islands"},
     "the map must be one of: earthquake, tremor"),
    ({"cards": "all of them"}, "cards must be a list of Mercenary cards"),
    ({"cards": [c for c in gridaris.STARTER_CARDS if c["tier"] == "silver"]}, "need at least 6 gold cards"),
    ({"cards": gridaris.STARTER_CARDS + [gridaris.STARTER_CARDS[0]]}, "repeated: s01"),
    ({"cards": [{**gridaris.STARTER_CARDS[0], "edges": ["5", "0", "1", "1"]}]}, "each must be 1-9 or A"),
    ({"cards": [{**gridaris.STARTER_CARDS[0], "tier": "bronze"}]}, "it must be 'silver' or 'gold'"),
    ({"cards": [{**gridaris.STARTER_CARDS[0], "stars": 0}]}, "needs a whole number from 1 to 9"),
    ({"cards": [{**gridaris.STARTER_CARDS[0], "edges": ["5"]}]}, "needs four edges"),
])
def test_bad_configs_are_refused_clearly(change, message):
    config = {**gridaris.starter_config(["Ann", "Ben"]), **change}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        gridaris.setup(config, SeededRng(0))


def test_a_small_silver_pile_is_refused():
    cards = [c for c in gridaris.STARTER_CARDS if c["tier"] == "gold"] + gridaris.STARTER_CARDS[:11]
    with pytest.raises(ValueError, match="2 players need at least 12 silver cards; the deck has 11"):
        gridaris.setup({"players": ["A", "B"], "mode": "standard", "cards": cards}, SeededRng(0))


def test_edges_given_as_numbers_are_accepted():
    cards = [{**c, "edges": [int(e) if e != "A" else "a" for e in c["edges"]]} for c in gridaris.STARTER_CARDS]
    state = gridaris.setup({"players": ["A", "B"], "cards": cards}, SeededRng(0))
    assert state["cards"]["s01"]["edges"] == ["5", "A", "1", "3"]


def test_enhanced_play_draws_two_different_scenarios_when_none_are_given():
    drawn = [tuple(setup(mode="enhanced", seed=seed)["scenarios"]) for seed in range(40)]
    assert all(len(set(pair)) == 2 and set(pair) <= set(SCENARIO_KEYS) for pair in drawn)
    assert len(set(drawn)) > 20
    assert setup(mode="enhanced", seed=7)["scenarios"] == setup(mode="enhanced", seed=7)["scenarios"]


def test_setup_draws_replay_exactly():
    rng = SeededRng(11)
    state = gridaris.setup(gridaris.starter_config(["A", "B", "C"], "enhanced"), rng)
    replayed = gridaris.setup(gridaris.starter_config(["A", "B", "C"], "enhanced"), ScriptedRng(rng.take_draws()))
    assert replayed == state


# ------------------------------------------------------------------ Head Stand

def test_head_stand_names_the_classes_of_the_top_two_silver_cards_then_reshuffles():
    silver = [card("w", "1234", card_class="Wizards"), card("m", "1234", card_class="Monsters")] + [
        card(f"s{n}", "5555", card_class="Mops") for n in range(10)]
    gold = [card(f"g{n}", "5555", stars=3, tier="gold") for n in range(6)]
    def identity(size):   # Fisher-Yates draws that swap nothing
        return list(range(size - 1, 0, -1))

    draws = identity(12) + identity(6) + identity(12) + [0]
    config = {"players": ["Ann", "Ben"], "mode": "enhanced", "scenarios": ["head_stand", "inverse"],
              "cards": silver + gold}
    rng = ScriptedRng(draws)
    state = gridaris.setup(config, rng)
    assert rng.remaining == 0
    assert state["headstand_classes"] == ["Wizards", "Monsters"]
    assert gridaris.view(state, None)["headstand_classes"] == ["Wizards", "Monsters"]
    assert "Head Stand: Wizards and Monsters play upside down." in state["events"]
    wizard = next(c for c in gridaris.view(state, GM)["players"][0]["hand"] if c["id"] == "w")
    assert wizard["flipped"] and wizard["edges"] == {"top": "3", "right": "4", "bottom": "1", "left": "2"}


def test_without_head_stand_no_card_is_flipped():
    state = setup()
    assert state["headstand_classes"] == []
    assert not any(c["flipped"] for c in gridaris.view(state, GM)["players"][0]["hand"])


# ------------------------------------------------------------------ maps

def test_earthquake_is_two_by_eight():
    state = setup(mode="enhanced", scenarios=["earthquake", "inverse"])
    shown = gridaris.view(state, None)
    assert shown["map"] == {"key": "earthquake", "name": "Earthquake 2x8", "rows": 2, "cols": 8}
    assert len(shown["grid"]) == 2 and all(len(row) == 8 and None not in row for row in shown["grid"])
    assert sorted(key for key, _, _ in maps.neighbours("earthquake", "0,7")) == ["0,6", "1,7"]
    assert shown["grid"][1][7]["label"] == "H2"


def test_tremor_is_an_s_shape():
    grid = gridaris.view(setup(mode="enhanced", scenarios=["tremor", "inverse"]), None)["grid"]
    holes = [(r, c) for r, row in enumerate(grid) for c, cell in enumerate(row) if cell is None]
    assert (len(grid), len(grid[0])) == (4, 6)
    assert holes == [(0, 4), (0, 5), (1, 4), (1, 5), (2, 0), (2, 1), (3, 0), (3, 1)]
    assert sorted(key for key, _, _ in maps.neighbours("tremor", "1,0")) == ["0,0", "1,1"]
    assert sorted(key for key, _, _ in maps.neighbours("tremor", "2,2")) == ["1,2", "2,3", "3,2"]
    assert sorted(key for key, _, _ in maps.neighbours("tremor", "2,5")) == ["2,4", "3,5"]


def _quadrants(map_key):
    """The map's battlefields as 2x2 quadrants: (quadrant row, quadrant column) -> its four cells."""
    cells = {maps.parse_key(k) for k in maps.cell_keys(map_key)}
    found = {}
    for r, c in cells:
        found.setdefault((r // 2, c // 2), set()).add((r, c))
    return found


def test_tremor_shifts_one_board_over_one_quadrant():
    """"shifting one of the boards over one quadrant ... some sort of geometric 'S' or 'Z' shape": each board
    is 2x4 (Earthquake lays the two end to end, Two Islands calls them 2x4 islands), a quadrant is 2x2, so the
    lower board slides two battlefields sideways and the map is four whole quadrants in a Z, like the tetromino."""
    quadrants = _quadrants("tremor")
    assert all(len(cells) == 4 for cells in quadrants.values()), "every quadrant is whole: a 2-battlefield shift"
    assert sorted(quadrants) == [(0, 0), (0, 1), (1, 1), (1, 2)]
    upper = {cell for cell in map(maps.parse_key, maps.cell_keys("tremor")) if cell[0] < 2}
    lower = {cell for cell in map(maps.parse_key, maps.cell_keys("tremor")) if cell[0] >= 2}
    assert {(r + 2, c + 2) for r, c in upper} == lower
    assert len(maps.cell_keys("tremor")) == 16


def test_two_islands_never_touch():
    assert len(maps.cell_keys("two_islands")) == 16
    assert all(not key.startswith("2,") for key in maps.cell_keys("two_islands"))
    assert sorted(key for key, _, _ in maps.neighbours("two_islands", "1,2")) == ["0,2", "1,1", "1,3"]
    cards = [card("weak", "5515"), card("strong", "9999")]
    state = state_with(cards=cards, scenarios=["two_islands", "show_whole"], hands={BEN: ["strong"]}, turn=BEN,
                       board={"1,0": ("weak", ANN)})
    assert owners(place(state, BEN, "strong", "3,0")) == {"1,0": ANN, "3,0": BEN}
    with pytest.raises(IllegalAction, match="There is no battlefield at A3 on this map."):
        place(state, BEN, "strong", "2,0")


def test_two_board_shapes_let_the_table_choose_the_map():
    state = setup(mode="enhanced", scenarios=["earthquake", "tremor"])
    assert state["phase"] == "choose_map" and gridaris.to_act(state) == [GM]
    assert gridaris.legal_actions(state) == [{"type": "map", "seat": GM, "map": "earthquake"},
                                             {"type": "map", "seat": GM, "map": "tremor"}]
    assert [c["label"] for c in gridaris.view(state, GM)["choices"]] == [
        "Play on the Earthquake 2x8 map", "Play on the Tremor S/Z map"]
    assert gridaris.view(state, 0)["choices"] == [] and gridaris.view(state, 0)["map"]["key"] == "standard"
    seat = state["first"]
    with pytest.raises(IllegalAction, match="The table must choose the map before anyone plays."):
        place(state, seat, state["hands"][seat][0], "0,0")
    with pytest.raises(IllegalAction, match="Only the GM enters the table's choice of map."):
        gridaris.apply(state, {"type": "map", "seat": 0, "map": "tremor"}, SeededRng(0))
    with pytest.raises(IllegalAction, match="The map must be Earthquake 2x8 or Tremor S/Z."):
        gridaris.apply(state, {"type": "map", "seat": GM, "map": "standard"}, SeededRng(0))
    chosen = gridaris.apply(state, {"type": "map", "seat": GM, "map": "tremor"}, SeededRng(0))
    assert (chosen["phase"], chosen["map"], gridaris.to_act(chosen)) == ("placement", "tremor", [seat])
    assert [(s["key"], s["active"]) for s in gridaris.view(chosen, None)["scenarios"]] == [
        ("earthquake", False), ("tremor", True)]
    with pytest.raises(IllegalAction, match="The map has already been chosen."):
        gridaris.apply(chosen, {"type": "map", "seat": GM, "map": "tremor"}, SeededRng(0))


def test_the_config_can_answer_the_map_question():
    state = setup(mode="enhanced", scenarios=["two_islands", "earthquake"], map="two_islands")
    assert (state["phase"], state["map"]) == ("placement", "two_islands")


# ------------------------------------------------------------------ Show Whole

def test_show_whole_makes_every_hand_public():
    state = setup(mode="enhanced", scenarios=["show_whole", "inverse"])
    for viewer in (None, ANN, BEN):
        shown = gridaris.view(state, viewer)
        assert [len(p["hand"]) for p in shown["players"]] == [9, 9]
    assert gridaris.hidden_from(state, ANN) == state["decks"]["silver"] + state["decks"]["gold"]
    assert not set(state["hands"][BEN]) & set(gridaris.hidden_from(state, None))


def test_without_show_whole_other_hands_stay_hidden():
    state = setup()
    shown = json.dumps(gridaris.view(state, ANN))
    assert gridaris.view(state, ANN)["players"][BEN]["hand"] is None
    assert all(f'"{card_id}"' not in shown for card_id in state["hands"][BEN])
    assert set(state["hands"][BEN]) <= set(gridaris.hidden_from(state, ANN))
    assert set(state["hands"][ANN]) | set(state["hands"][BEN]) <= set(gridaris.hidden_from(state, None))
    assert gridaris.hidden_from(state, GM) == []
