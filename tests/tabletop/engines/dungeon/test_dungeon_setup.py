"""Dungeon set-up: game types, starting decks, the monster deck and reserve, spawning and entering."""

from collections import Counter

import pytest

from tabletop.engines.dungeon import actions, areas, board, cards, start
from tabletop.engines.dungeon.adventure import STARTER_ADVENTURE
from tabletop.engines.dungeon.testing import fresh
from tabletop.engines.kernel import IllegalAction, SeededRng


def monster_deck(table_mode, count, seed=3):
    catalog = {c["code"]: c for c in cards.starter_cards()}
    return start.monster_decks(catalog, STARTER_ADVENTURE, table_mode, count, {}, SeededRng(seed))


@pytest.mark.parametrize("key", sorted(cards.MONSTER_COUNTS))
def test_the_monster_deck_follows_the_table_with_ambushes_in_each_half_and_the_champion_low(key):
    deck, reserve = monster_deck(*key)
    counts = cards.MONSTER_COUNTS[key]
    monsters = sum(counts.values())
    assert Counter(board.code(c) for c in deck if not c.startswith(("ambush", "orc-champion"))) == Counter(counts)
    top_size = (monsters + 1) // 2 + len(cards.AMBUSH_TOP)
    top, bottom = deck[:top_size], deck[top_size:]
    assert Counter(board.code(c) for c in top if c.startswith("ambush")) == Counter(cards.AMBUSH_TOP)
    assert Counter(board.code(c) for c in bottom if c.startswith("ambush")) == Counter(cards.AMBUSH_BOTTOM)
    assert any(board.code(c) == "orc-champion" for c in deck[-10:])
    names = [board.code(c) for c in reserve]
    assert names == sorted(names, key=lambda c: dict((m[0], m[1]) for m in cards.MONSTERS)[c])
    copies = {m[0]: m[10] for m in cards.MONSTERS}
    assert Counter(names) == Counter({c: copies[c] - n for c, n in counts.items()})


def test_every_mercenary_starts_with_20_health_0_exp_and_the_12_card_deck():
    state = fresh()
    assert len(state["mercs"]) == 4
    for merc in state["mercs"]:
        assert merc["health"] == 20 and merc["exp"] == 0
        owned = [board.code(c) for c in merc["deck"] + merc["hand"]]
        assert Counter(owned) == Counter(dict(cards.STARTING_DECK))
        assert len(merc["hand"]) == 6
    assert len(state["af_deck"]) + 1 == 10
    assert len(state["stacks"]["basic-melee"]) == 16 and len(state["stacks"]["healing-potion"]) == 20


@pytest.mark.parametrize("config, owners, dm, table", [
    ({"players": ["A", "B"], "variant": "pairs", "mode": "competitive"}, [0, 1, 0, 1], None, ("cooperative", 4)),
    ({"players": ["A", "B"], "variant": "singles"}, [0, 1, 0, 1], None, ("competitive", 4)),
    ({"players": ["A", "B", "C"], "mode": "competitive"}, [0, 1, 2], None, ("competitive", 3)),
    ({"players": ["A", "B", "C"], "mode": "cooperative"}, [0, 1, 2], None, ("cooperative", 3)),
    ({"players": ["A", "B", "C", "D"], "mode": "cooperative"}, [0, 1, 2, 3], None, ("cooperative", 4)),
    ({"players": ["A", "B", "C", "D", "E"], "deck_master": True}, [0, 1, 2, 3], 4, ("cooperative", 4)),
    ({"players": ["A", "B", "C"], "deck_master": True}, [0, 1, 0, 1], 2, ("cooperative", 4)),
])
def test_game_types_seat_the_right_mercenaries(config, owners, dm, table):
    state = fresh(config)
    assert [m["owner"] for m in state["mercs"]] == owners
    assert state["dm"] == dm
    assert (state["table_mode"], state["count"]) == table


def test_five_players_need_a_deck_master():
    with pytest.raises(IllegalAction):
        start.setup({"players": list("ABCDE")}, SeededRng(0))


def spawn_area(state) -> None:
    """Start a new area and spawn it whole, every placement tie going to the first option."""
    areas.new_area(state, SeededRng(0), first_area=True)
    areas.step_feature(state)
    state["pending"] = None
    while state["phase"] == "spawn":
        areas.step_spawn(state)
        if state["pending"]:
            areas.place_monster(state, state["pending"]["monster"], state["pending"]["options"][0])
            state["pending"] = None


@pytest.mark.parametrize("table, drawn", [(("competitive", 3), 3), (("competitive", 4), 4),
                                          (("cooperative", 3), 4), (("cooperative", 4), 5)])
def test_spawning_draws_three_four_or_five_monsters_by_game_type(table, drawn):
    state = fresh()
    state.update(table_mode=table[0], count=table[1], board=[], af_deck=["empty-area#01"])
    state["monster_deck"] = [f"goblin#{n}" for n in range(50, 60)]
    spawn_area(state)
    assert len(state["board"]) == drawn


def test_the_last_card_is_drawn_too_and_a_champion_draws_one_more():
    state = fresh()
    state.update(table_mode="competitive", count=3, board=[], af_deck=["empty-area#01"])
    state["monster_deck"] = ["orc-champion#50", "goblin#50", "goblin#51", "goblin#52", "orc#50"]
    spawn_area(state)
    # 3 + 1 for the champion = 4 drawn, then one card is left: it is drawn as well
    assert len(state["board"]) == 5 and state["monster_deck"] == []
    champion = next(m for m in state["board"] if m["id"] == "orc-champion#50")
    assert champion["pos"][0] == board.RANGED_ROW


def test_an_ambush_summons_from_the_reserve_and_is_discarded():
    state = fresh()
    state.update(board=[], af_deck=["empty-area#01"], table_mode="competitive", count=3)
    state["monster_deck"] = ["ambush-goblin#50", "orc#50", "orc#51", "orc#52", "orc#53", "orc#54"]
    reserve_goblins = [c for c in state["reserve"] if board.code(c) == "goblin"][:2]
    spawn_area(state)
    on_board = {m["id"] for m in state["board"]}
    assert set(reserve_goblins) <= on_board and "ambush-goblin#50" in state["monster_discard"]


def test_placement_goes_to_the_centre_and_the_first_player_breaks_the_tie():
    state = fresh()
    state["board"] = []
    assert areas.placement_options(state, "goblin#01") == [(1, 2), (1, 3)]
    assert areas.placement_options(state, "goblin-archer#01") == [(0, 2), (0, 3)]
    state["board"] = [{"id": f"goblin#{c}", "pos": [1, c], "wounds": 0, "acted": False} for c in range(6)]
    assert areas.placement_options(state, "orc#01") == [(2, 2), (2, 3)]
    assert areas.placement_options(state, "orc-champion#01")[0][0] == board.RANGED_ROW


def test_a_deck_master_places_anywhere_on_the_row():
    state = fresh({"players": list("ABCDE"), "deck_master": True})
    state["board"] = []
    assert len(areas.placement_options(state, "goblin#01")) == 6
    assert state["pending"] is None or state["pending"]["seat"] in (4, 0, 1, 2, 3)


def test_mercenaries_enter_the_mercenary_row_in_turn_order_from_the_first_player():
    state = fresh()
    while state["pending"] and state["pending"]["type"] == "place_monster":
        state = actions.apply(state, {**actions.legal_actions(state)[0]}, SeededRng(0))
    entered = []
    while state["pending"] and state["pending"]["type"] == "enter":
        entered.append(state["pending"]["merc"])
        action = actions.legal_actions(state)[0]
        state = actions.apply(state, action, SeededRng(0))
    assert entered == [0, 1, 2, 3]
    assert all(m["pos"][0] == board.MERC_ROW for m in state["mercs"])
