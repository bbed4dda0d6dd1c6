"""The dungeon engine for the computer players (issue 16): fast playouts that play exactly as before,
``redeal`` (a state the seat cannot tell from the real one) and ``heuristic`` (rulings BOT20-BOT24)."""

import hashlib

import pytest

from tabletop.engines import dungeon
from tabletop.engines.dungeon.board import thaw_state
from tabletop.engines.dungeon.testing import arranged
from tabletop.engines.kernel import GM, SeededRng, canonical_json, digest

# Random games recorded with the engine as it was before the speed work (commit c313bea): for each seed, the
# number of actions, the final state's digest and a digest of every legal action list along the way (labels
# included, in order). Any change of a rule, of an action's order or words, or of a line changes them.
BEFORE = {
    0: (3081, "4f4ac3f9af1f0fe28a14279a21d746639f8bfb59d25c14df305ed771121ff975",
        "8dbb60db626de1d56d8028bb5ee5ba46e0ac2458fd92c78f6f9aa74ea3e05aac"),  # 3 players and a Deck Master
    7: (1329, "4ed3079808c8d2dae08c67864299ad212e39027dd21d1b8336abf118106fbcf8",
        "64c170e2e09dbd85847a3af061eced30ab8e0f66cc69637a1f0b14b3543cc055"),  # 3 competitive
    8: (2183, "779179daa401e2c6230d36ed18073b7098dd1331d29542243cb4a3866fae53f9",
        "49adbf690e902f21b50bac39bb3c6d0f1df929e82b24048fdc06484de13f131d"),  # 2 players, 2 pairs
    11: (1949, "fb0ed58202a3a87fe3d4c4182e95aaccb4e0d2396dfadf4cb07d15b20de97934",
         "97d1217605fb66aef23700273b6fc6a868db97546cb1e69228439bfd843ebaec"),  # 2 players, singles
}


def random_game(seed, keep=None):
    """A seeded random game as the bench plays it: (config, actions, final state, trail digest, kept states)."""
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    config = dungeon.random_config(chooser)
    state = dungeon.setup(config, rng)
    trail, kept, steps = hashlib.sha256(), [], 0
    while dungeon.outcome(state) is None:
        actions = dungeon.legal_actions(state)
        trail.update(canonical_json([dungeon.to_act(state), actions]).encode())
        if keep and keep(steps, state):
            kept.append(state)
        state = dungeon.apply(state, chooser.choice(actions), rng)
        steps += 1
    return config, steps, state, trail.hexdigest(), kept


@pytest.mark.parametrize("seed", sorted(BEFORE))
def test_random_games_play_exactly_as_before_the_speed_work(seed):
    _, steps, state, trail, _ = random_game(seed)
    assert (steps, digest(state), trail) == BEFORE[seed]


def _containers(data, found):
    if isinstance(data, (dict, list)):
        found.add(id(data))
        for item in data.values() if isinstance(data, dict) else data:
            _containers(item, found)
    return found


def test_apply_copies_every_part_of_the_state_it_may_change_and_shares_only_the_catalog():
    _, _, _, _, kept = random_game(7, keep=lambda step, state: step % 40 == 0 or state["pending"] is not None
                                   and step % 7 == 0)
    assert len(kept) > 40
    for state in kept:
        copy = thaw_state(state)
        assert copy == state and copy["cards"] is state["cards"]
        mine, theirs = set(), set()
        for key in state.keys() - {"cards"}:
            _containers(state[key], mine)
            _containers(copy[key], theirs)
        assert mine and not (mine & theirs)


# --- redeal --------------------------------------------------------------------------------------------

CONFIGS = {
    "pairs": {"players": ["Ann", "Ben"], "variant": "pairs", "mode": "competitive"},
    "singles": {"players": ["Ann", "Ben"], "variant": "singles"},
    "competitive": {"players": ["Ann", "Ben", "Cid"], "mode": "competitive"},
    "deck master": {"players": ["Ann", "Ben", "Cid"], "deck_master": True},
}


def sampled_states(config, seed, every=97, limit=12):
    """States along a seeded random game: every ``every`` actions, and each kind of decision met."""
    rng, chooser = SeededRng(seed), SeededRng(f"c{seed}")
    state = dungeon.setup(config, rng)
    found, kinds, steps = [], set(), 0
    while dungeon.outcome(state) is None and len(found) < limit:
        kind = (state["pending"] or {}).get("type")
        if steps % every == 0 or (kind and kind not in kinds):
            found.append(state)
            kinds.add(kind)
        state = dungeon.apply(state, chooser.choice(dungeon.legal_actions(state)), rng)
        steps += 1
    return found


def hidden_parts(state, seat):
    """What ``seat`` cannot see, as data: the Monster and Area Feature decks, decks, other hands."""
    return (state["monster_deck"], state["af_deck"],
            [(m["deck"], m["hand"] if m["owner"] != seat and seat != GM else None) for m in state["mercs"]])


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_redealt_state_looks_the_same_to_the_seat_and_keeps_every_card(name):
    config = CONFIGS[name]
    changed = 0
    for number, state in enumerate(sampled_states(config, seed=len(name))):
        before = canonical_json(state)
        for seat in [*range(len(config["players"])), GM]:
            dealt = dungeon.redeal(state, seat, SeededRng(number))
            assert canonical_json(state) == before  # the input is untouched
            assert dungeon.view(dealt, seat) == dungeon.view(state, seat)
            assert dungeon.invariants(dealt) == []
            assert sorted(dungeon.hidden_from(dealt, seat)) == sorted(dungeon.hidden_from(state, seat))
            changed += hidden_parts(dealt, seat) != hidden_parts(state, seat)
    assert changed > 10  # the hidden parts are dealt anew


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_redeal_depends_only_on_what_the_seat_sees(name):
    config = CONFIGS[name]
    for number, state in enumerate(sampled_states(config, seed=3, limit=8)):
        for seat in [*range(len(config["players"])), GM]:
            other = dungeon.redeal(state, seat, SeededRng(f"other-{number}"))  # the same to seat, hidden parts apart
            assert dungeon.redeal(other, seat, SeededRng(number)) == dungeon.redeal(state, seat, SeededRng(number))


def test_the_other_players_hands_and_the_decks_are_redealt_but_the_own_hand_is_kept():
    state = sampled_states(CONFIGS["competitive"], seed=5, limit=3)[2]
    seen = set()
    for k in range(20):
        dealt = dungeon.redeal(state, 0, SeededRng(k))
        assert dealt["mercs"][0]["hand"] == state["mercs"][0]["hand"]
        assert sorted(dealt["mercs"][0]["deck"]) == sorted(state["mercs"][0]["deck"])
        for a, b in zip(dealt["mercs"][1:], state["mercs"][1:], strict=True):
            assert sorted(a["hand"] + a["deck"]) == sorted(b["hand"] + b["deck"])
            assert (len(a["hand"]), len(a["deck"])) == (len(b["hand"]), len(b["deck"]))
        assert sorted(dealt["monster_deck"]) == sorted(state["monster_deck"])
        seen.add(canonical_json([dealt["mercs"][1]["hand"], dealt["monster_deck"][:3], dealt["mercs"][0]["deck"]]))
    assert len(seen) > 15


def test_the_champion_stays_among_the_last_eleven_monster_cards():
    state = dungeon.setup(CONFIGS["competitive"], SeededRng(4))
    places = set()
    for k in range(60):
        deck = dungeon.redeal(state, 1, SeededRng(k))["monster_deck"]
        place = next(len(deck) - i for i, c in enumerate(deck) if c.startswith("orc-champion#"))
        assert 1 <= place <= 11
        places.add(place)
    assert len(places) > 6


def test_a_hand_known_to_hold_a_melee_card_is_dealt_one():
    # Dee's mercenary is offered to strike back: whoever looks on knows it holds a Skill Melee card (BOT21).
    state = arranged(monsters=[("orc", (4, 3))], mercs=[(5, 0), (5, 1), (5, 2), (5, 3)], current=3,
                     hands={3: ["basic-block", "basic-block", "basic-melee", "healing-potion", "basic-block",
                                "basic-block"]})
    merc = state["mercs"][3]
    merc["discard"] += [c for c in merc["deck"] if c.startswith("basic-melee")]  # the hand's is the only one
    merc["deck"] = [c for c in merc["deck"] if not c.startswith("basic-melee")]
    state["pending"] = {"type": "retaliate", "seat": 3, "merc": 3, "monster": state["board"][0]["id"]}
    state["combat"] = {"who": "monster", "monster": state["board"][0]["id"], "merc": 3, "kind": "melee",
                       "lash": False, "retaliation": False, "cards": [], "stage": "offered"}
    assert dungeon.invariants(state) == []
    without = 0
    for k in range(40):
        dealt = dungeon.redeal(state, 0, SeededRng(k))
        assert any(c.startswith("basic-melee") for c in dealt["mercs"][3]["hand"])
        assert dungeon.view(dealt, 0) == dungeon.view(state, 0)
        strike = dungeon.apply(dealt, {"type": "retaliate", "seat": 3}, SeededRng(k))
        assert any(a["type"] == "add" for a in dungeon.legal_actions(strike))
        plain = SeededRng(k).shuffled(sorted(state["mercs"][3]["hand"] + state["mercs"][3]["deck"]))
        without += not any(c.startswith("basic-melee") for c in plain[:6])
    assert without > 0  # a plain deal would have missed it now and then


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_random_play_goes_on_from_a_redealt_state_to_the_end(name):
    config = CONFIGS[name]
    state = sampled_states(config, seed=9, every=500, limit=2)[-1]
    state, rng, chooser = dungeon.redeal(state, 1, SeededRng(1)), SeededRng(2), SeededRng(3)
    for _ in range(5000):
        if dungeon.outcome(state) is not None:
            break
        state = dungeon.apply(state, chooser.choice(dungeon.legal_actions(state)), rng)
    assert dungeon.outcome(state) is not None
    assert dungeon.invariants(state) == []


# --- heuristic -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_heuristic_is_a_chance_throughout_and_one_or_nought_at_the_end(name):
    config = CONFIGS[name]
    rng, chooser = SeededRng(21), SeededRng("h21")
    state = dungeon.setup(config, rng)
    seats = range(len(config["players"]))
    steps = 0
    while dungeon.outcome(state) is None:
        if steps % 4 == 0:
            assert all(0.0 <= dungeon.heuristic(state, seat) <= 1.0 for seat in seats)
        state = dungeon.apply(state, chooser.choice(dungeon.legal_actions(state)), rng)
        steps += 1
    winners = dungeon.outcome(state)["winners"]
    assert [dungeon.heuristic(state, seat) for seat in seats] == [1.0 if s in winners else 0.0 for s in seats]


def test_the_heuristic_prefers_the_clearly_better_position():
    config = {"players": ["Ann", "Ben", "Cid"], "mode": "competitive"}
    even = arranged(config=config)
    ahead = arranged(config=config, exp={0: 14}, health={1: -3})
    ahead["mercs"][0]["discard"] += ["orc#95", "orc#96", "orc-arbalest#97"]  # three kills: 6 MVPs
    ahead["card_count"] += 3
    assert dungeon.invariants(ahead) == []
    assert dungeon.heuristic(even, 0) == pytest.approx(1 / 3)
    assert dungeon.heuristic(ahead, 0) > 0.9
    assert dungeon.heuristic(ahead, 1) < dungeon.heuristic(ahead, 2) < 0.1
    assert sum(dungeon.heuristic(ahead, seat) for seat in range(3)) == pytest.approx(1.0)


def test_in_a_cooperative_game_the_heuristic_grows_with_the_kills_and_the_health():
    config = {"players": ["Ann", "Ben", "Cid"], "deck_master": True}
    start = arranged(config=config)
    hurt = arranged(config=config, health={0: 2, 1: -1, 2: 3, 3: 1})
    cleared = arranged(config=config)
    cleared["mercs"][0]["discard"] += cleared["monster_deck"]
    cleared["monster_deck"] = []
    assert dungeon.invariants(cleared) == []
    heroes, deck_master = 0, 2
    assert dungeon.heuristic(hurt, heroes) < dungeon.heuristic(start, heroes) < dungeon.heuristic(cleared, heroes)
    assert dungeon.heuristic(start, deck_master) == pytest.approx(1 - dungeon.heuristic(start, heroes))
    assert dungeon.heuristic(hurt, deck_master) > 0.5


def test_in_singles_the_best_mercenary_counts_and_in_pairs_a_players_two_together():
    # Ann's Red has 9 MVPs and her Blue none; Ben's two have 5 each. Singles: Red is the best mercenary (Ann
    # wins as it stands). Pairs: Ben's 10 beat Ann's 9.
    for variant, ann_ahead in (("singles", True), ("pairs", False)):
        state = arranged(config={"players": ["Ann", "Ben"], "variant": variant, "mode": "competitive"})
        assert [merc["owner"] for merc in state["mercs"]] == [0, 1, 0, 1]
        for index, kills in ((0, ["orc-champion#95", "orc#96", "orc#97"]), (1, ["orc#98", "orc-arbalest#99",
                                                                               "goblin#89"]),
                             (3, ["orc#88", "orc#87", "goblin#86"])):
            state["mercs"][index]["discard"] += kills
        state["card_count"] += 9
        assert dungeon.invariants(state) == []
        assert (dungeon.heuristic(state, 0) > 0.5) is ann_ahead
        assert dungeon.heuristic(state, 0) + dungeon.heuristic(state, 1) == pytest.approx(1.0)


def test_health_above_twenty_only_breaks_ties():
    # The rulebook prints no maximum Health, and healing potions pile it up; 300 Health is not worth an MVP.
    config = {"players": ["Ann", "Ben", "Cid"], "mode": "competitive"}
    state = arranged(config=config, health={0: 300, 1: 20, 2: 20})
    state["mercs"][1]["discard"].append("goblin#95")
    state["card_count"] += 1
    assert dungeon.heuristic(state, 1) > dungeon.heuristic(state, 0) > dungeon.heuristic(state, 2)
    hurt = arranged(config=config, health={0: 3, 1: 20, 2: 20})
    assert dungeon.heuristic(hurt, 0) < dungeon.heuristic(hurt, 1)


# --- the search's playout policy and settings (issue 27) -------------------------------------------------------

SINGLES = {"players": ["Ann", "Ben"], "variant": "singles", "mode": "competitive"}


def chosen(state, draws=60) -> list[str]:
    """The types of the policy's choices at ``state`` over seeded draws; each one of the legal actions."""
    actions = dungeon.legal_actions(state)
    picks = [dungeon.playout(state, actions, SeededRng(k)) for k in range(draws)]
    assert all(any(pick is action for action in actions) for pick in picks)
    return [pick["type"] for pick in picks]


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_playout_policy_picks_one_of_the_actions_it_is_given(name):
    for state in sampled_states(CONFIGS[name], seed=12, every=41, limit=25):
        actions = dungeon.legal_actions(state)
        for k in range(5):
            assert any(dungeon.playout(state, actions, SeededRng(k)) is action for action in actions)
        mine = [a for a in actions if a["seat"] == actions[0]["seat"]]  # an expansion: one seat's untried moves
        assert any(dungeon.playout(state, mine, SeededRng(1)) is action for action in mine)


def test_the_playout_policy_attacks_when_it_can_and_puts_every_card_in_before_the_strike():
    state = arranged(config=SINGLES, monsters=[("orc", (4, 0))], mercs=[(5, 0), (5, 2), (5, 3), (5, 4)],
                     hands={0: ["basic-melee", "basic-melee", "basic-block"]})
    assert {"move", "attack", "end_turn"} <= {a["type"] for a in dungeon.legal_actions(state)}
    assert chosen(state).count("attack") > 50
    attacking = dungeon.apply(state, {"type": "attack", "seat": 0, "merc": 0, "kind": "melee",
                                      "target": state["board"][0]["id"]}, SeededRng(0))
    first = attacking["mercs"][0]["hand"][0]
    one_in = dungeon.apply(attacking, {"type": "add", "seat": 0, "card": first}, SeededRng(0))
    assert {"add", "strike"} <= {a["type"] for a in dungeon.legal_actions(one_in)}
    assert chosen(one_in).count("add") > 50
    all_in = dungeon.apply(one_in, {"type": "add", "seat": 0, "card": one_in["mercs"][0]["hand"][0]}, SeededRng(0))
    assert set(chosen(all_in)) <= {"strike", "ability"}


def test_the_playout_policy_defends_and_aims_a_monster_at_another_players_mercenary():
    state = arranged(config=SINGLES, monsters=[("orc", (4, 0))], mercs=[(5, 0), (4, 1), (5, 3), (5, 4)],
                     hands={0: ["basic-block", "basic-block"], 1: ["basic-block"]})
    orc = state["board"][0]["id"]
    state["pending"] = {"type": "target", "seat": 0, "monster": orc, "kind": "melee", "options": [0, 1],
                        "hold": False}
    assert {a["merc"] for a in dungeon.legal_actions(state) if a["type"] == "target"} == {0, 1}
    picks = [dungeon.playout(state, dungeon.legal_actions(state), SeededRng(k)) for k in range(60)]
    assert sum(pick.get("merc") == 1 and pick["type"] == "target" for pick in picks) > 50  # Ben's, not Ann's own
    state["pending"] = None
    state["combat"] = {"who": "monster", "monster": orc, "merc": 0, "kind": "melee", "lash": False,
                       "retaliation": False, "cards": [], "stage": "defend"}
    state["pending"] = {"type": "defend", "seat": 0, "merc": 0}
    assert {"defend", "take"} <= {a["type"] for a in dungeon.legal_actions(state)}
    assert chosen(state).count("defend") > 50


def test_the_playout_policy_moves_next_to_a_monster():
    state = arranged(config=SINGLES, monsters=[("orc", (3, 4))], mercs=[(5, 0), (5, 2), (5, 3), (5, 5)],
                     hands={0: ["basic-melee"]})
    moving = dungeon.apply(state, {"type": "move", "seat": 0, "merc": 0}, SeededRng(0))
    squares = [a["square"] for a in dungeon.legal_actions(moving) if a["type"] == "to"]
    assert [4, 4] in squares and len(squares) > 5
    picks = [dungeon.playout(moving, dungeon.legal_actions(moving), SeededRng(k)) for k in range(60)]
    assert sum(pick.get("square") == [4, 4] for pick in picks) > 50


def test_quick_is_merged_into_normal_and_strong_searches_more():
    iterations = dungeon.SEARCH["iterations"]
    assert iterations["quick"] == iterations["normal"] < iterations["strong"]  # ruling BOT39
    assert {"iterations", "depth", "exploration"} <= set(dungeon.SEARCH)
