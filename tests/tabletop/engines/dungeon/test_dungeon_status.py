"""Status effects (poison, burn, webbed) and the Monster Turn's effects step (ruling D24)."""

from tabletop.engines.dungeon import combat, flow
from tabletop.engines.dungeon.cards import starter_cards
from tabletop.engines.dungeon.catalog import card_problems
from tabletop.engines.dungeon.checks import invariants
from tabletop.engines.dungeon.testing import act, arranged, monster_at, types
from tabletop.engines.kernel import SeededRng

SPIDER = {"code": "giant-spider", "kind": "monster", "name": "Giant Spider", "text": "Poisons what it bites.",
          "stats": {"type": "melee", "champion": False, "health": 3, "melee": 2, "ranged": 0, "defence": 0,
                    "exp": 1, "mvp": 1, "copies": 4, "status": "poison", "status_amount": 1, "status_turns": 2}}
WEAVER = {"code": "web-weaver", "kind": "monster", "name": "Web Weaver", "text": "Webs what it hits.",
          "stats": {"type": "ranged", "champion": False, "health": 2, "melee": 1, "ranged": 1, "defence": 0,
                    "exp": 1, "mvp": 1, "copies": 2, "status": "webbed", "status_turns": 1}}
FIRE_ARROW = {"code": "fire-arrow", "kind": "skill", "name": "Fire Arrow", "text": "Sets the target burning.",
              "stats": {"skill": "ranged", "value": 1, "min_range": 1, "max_range": 5, "cost": 2, "copies": 4,
                        "status": "burn", "status_amount": 2, "status_turns": 1}}
CONFIG = {"players": ["Ann", "Ben", "Cid", "Dee"], "mode": "competitive",
          "cards": [*starter_cards(), SPIDER, WEAVER, FIRE_ARROW]}
MERCS = [(5, 0), (5, 2), (5, 3), (5, 4)]


def bitten(hands=None, health=None):
    """Mercenary 0, next to a Giant Spider, takes its bite (no defence card in hand)."""
    state = arranged(config=CONFIG, monsters=[("giant-spider", (4, 0))], mercs=MERCS, hands=hands or {0: []},
                     health=health)
    combat.monster_attacks(state, state["board"][0]["id"], 0, "melee")
    flow.advance(state, SeededRng(0))
    return state


def start_turn_of_0(state):
    state.update(phase="mercs", current=None, order=[0], pending=None)
    flow.advance(state, SeededRng(0))
    return state


def test_a_monster_that_wounds_inflicts_its_effect():
    state = bitten()
    merc = state["mercs"][0]
    assert merc["health"] == 18 and merc["status"] == {"poison": {"amount": 1, "turns": 2}}
    assert any("poisoned" in line for line in state["events"])


def test_a_blow_fully_blocked_inflicts_nothing():
    state = arranged(config=CONFIG, monsters=[("giant-spider", (4, 0))], mercs=MERCS, hands={0: ["advanced-block"]})
    combat.monster_attacks(state, state["board"][0]["id"], 0, "melee")
    flow.advance(state, SeededRng(0))
    state = act(state, type="defend", card=state["mercs"][0]["hand"][0])
    assert state["mercs"][0]["health"] == 20 and not state["mercs"][0]["status"]


def test_poison_resolves_at_the_start_of_the_turn_before_regeneration_and_wears_off():
    # "The first thing that a player does is deal with any effects ... and/or regeneration."
    state = bitten(health={0: 3})
    assert state["mercs"][0]["health"] == 1
    state = start_turn_of_0(state)
    merc = state["mercs"][0]
    assert merc["health"] == 1  # poisoned to 0, then regenerates 1
    assert merc["status"] == {"poison": {"amount": 1, "turns": 1}}
    state["mercs"][0]["health"] = 10
    state = start_turn_of_0(state)
    assert state["mercs"][0]["health"] == 9 and state["mercs"][0]["status"] == {}
    state = start_turn_of_0(state)
    assert state["mercs"][0]["health"] == 9
    assert invariants(state) == []


def test_a_webbed_mercenary_cannot_move_that_turn_but_may_attack():
    state = arranged(config=CONFIG, monsters=[("goblin", (4, 0))], mercs=MERCS, hands={0: ["basic-melee"]})
    state["mercs"][0]["status"] = {"webbed": {"amount": 0, "turns": 1}}
    state = start_turn_of_0(state)
    assert "move" not in types(state) and "attack" in types(state)
    state = start_turn_of_0(state)
    assert "move" in types(state)


def test_a_skill_card_that_wounds_inflicts_its_effect_on_a_surviving_monster():
    state = arranged(config=CONFIG, monsters=[("goblin", (1, 0))], mercs=MERCS, hands={0: ["fire-arrow"]})
    orc = state["board"][0]["id"]
    state = act(state, type="attack", merc=0, kind="ranged")
    state = act(state, type="add", card=state["mercs"][0]["hand"][0])
    state = act(state, type="strike", target=orc)
    assert monster_at(state, (1, 0))["status"] == {"burn": {"amount": 2, "turns": 1}}  # 1 wound of 2


def test_effects_on_monsters_resolve_first_in_the_monster_turn_and_a_kill_scores_for_nobody():
    state = arranged(config=CONFIG, monsters=[("goblin", (1, 0)), ("orc", (1, 5))], mercs=MERCS,
                     hands={i: [] for i in range(4)})
    goblin = state["board"][0]
    goblin["status"] = {"burn": {"amount": 2, "turns": 1}}
    exp = [m["exp"] for m in state["mercs"]]
    state.update(current=None, order=[])
    flow.advance(state, SeededRng(0))
    assert goblin["id"] in state["monster_discard"] and all(m["id"] != goblin["id"] for m in state["board"])
    assert [m["exp"] for m in state["mercs"]] == exp
    assert all(goblin["id"] not in m["discard"] for m in state["mercs"])
    assert invariants(state) == []


def test_a_webbed_monster_does_not_move_in_the_monster_turn():
    state = arranged(config=CONFIG, monsters=[("goblin", (1, 0))], mercs=MERCS, hands={i: [] for i in range(4)})
    state["board"][0]["status"] = {"webbed": {"amount": 0, "turns": 1}}
    state.update(current=None, order=[])
    flow.advance(state, SeededRng(0))
    assert monster_at(state, (1, 0)) is not None and not state["board"][0]["status"]


def test_a_webbing_hit_lands_on_the_mercenary():
    state = arranged(config=CONFIG, monsters=[("web-weaver", (4, 0))], mercs=MERCS, hands={0: []})
    combat.monster_attacks(state, state["board"][0]["id"], 0, "melee")
    flow.advance(state, SeededRng(0))
    assert state["mercs"][0]["status"] == {"webbed": {"amount": 0, "turns": 1}}


def test_the_end_of_an_area_removes_the_effects():
    state = bitten()
    state.update(phase="end_turn", pending=None, combat=None, board=[], current=None, order=[])
    state["monster_discard"].append("giant-spider#91")
    flow.advance(state, SeededRng(0))
    assert all(not m.get("status") for m in state["mercs"])


def test_the_catalog_takes_effects_on_monsters_and_skills_and_refuses_unknown_ones():
    assert card_problems(SPIDER) == [] and card_problems(FIRE_ARROW) == []
    sleepy = {**SPIDER, "stats": {**SPIDER["stats"], "status": "sleepy"}}
    assert any("status" in problem for problem in card_problems(sleepy))

