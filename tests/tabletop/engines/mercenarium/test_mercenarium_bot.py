"""Mercenarium for computer players: ``redeal`` (a state the seat cannot tell from the real one) and
``heuristic``."""

from tabletop.engines import mercenarium
from tabletop.engines.kernel import SeededRng, canonical_json, thaw
from tabletop.engines.mercenarium import board, game
from tabletop.engines.mercenarium.testing import state_with

from tests.tabletop.engines.random_play import random_states

ANN, BEN, CID = 0, 1, 2


def sample_states(games=4, every=17):
    """States met in seeded random games of 2 to 4 players (every ``every``-th one and the last)."""
    found = []
    for seed in range(games):
        states = list(random_states(mercenarium, seed, "bot-choices"))
        found += [state for step, state in enumerate(states[:-1]) if step % every == 0 or state["pending"]]
        found.append(states[-1])
    return found


STATES = sample_states()


def hidden_parts(state, seat):
    """Where the cards hidden from ``seat`` lie: deck and hymnal in order, the other hands."""
    hands = [hand for index, hand in enumerate(state["hands"]) if index != seat]
    return canonical_json([state["deck"], state["hymnal"], hands, state["pending"]])


def hymns_in(state, hand):
    return sum(1 for card in hand if card in state["hymns"])


def seats(state):
    return range(len(state["players"]))


def assert_redeal_keeps_sight(state, seat, k):
    dealt = mercenarium.redeal(state, seat, SeededRng(k))
    assert mercenarium.view(dealt, seat) == mercenarium.view(state, seat), (seat, k)
    assert mercenarium.invariants(dealt) == [], (seat, k)
    return dealt


def test_the_samples_cover_two_three_and_four_players_face_up_hymns_and_a_choice():
    assert {len(state["players"]) for state in STATES} == {2, 3, 4}
    assert any(state["face_up"] for state in STATES)
    assert any(state["pending"] for state in STATES)


def test_a_redealt_state_looks_the_same_to_the_seat_and_keeps_the_invariants():
    for state in STATES:
        before = canonical_json(state)
        for seat in seats(state):
            assert_redeal_keeps_sight(state, seat, seat + 1)
        assert canonical_json(state) == before, "redeal never changes its input"


def test_the_redeal_really_deals_the_hidden_cards_anew():
    changed = total = 0
    for state in STATES:
        for seat in seats(state):
            dealt = mercenarium.redeal(state, seat, SeededRng(5))
            total += 1
            changed += hidden_parts(dealt, seat) != hidden_parts(state, seat)
            assert dealt["hands"][seat] == state["hands"][seat]
            assert [dealt[key] for key in ("board", "captures", "discard", "hymn_discard", "face_up")] == \
                [state[key] for key in ("board", "captures", "discard", "hymn_discard", "face_up")]
            for index in seats(state):
                assert len(dealt["hands"][index]) == len(state["hands"][index])
    assert changed == total


def test_the_redeal_depends_only_on_what_the_seat_sees():
    for state in STATES[::3]:
        for seat in seats(state):
            once = mercenarium.redeal(state, seat, SeededRng(11))
            for j in (1, 2):
                other_world = mercenarium.redeal(state, seat, SeededRng(j))
                assert mercenarium.redeal(other_world, seat, SeededRng(11)) == once


def test_a_hand_of_six_holds_the_hymn_and_the_hidden_hymns_go_one_to_a_hand():
    state = state_with(players=("Ann", "Ben", "Cid"),
                       hands={ANN: ["C02"], BEN: ["C03", "C04", "C05", "C06", "C07", "H01"],
                              CID: ["S02", "S03", "S04", "S05", "S06"]})
    assert mercenarium.invariants(state) == []
    holders = set()
    for k in range(40):
        dealt = assert_redeal_keeps_sight(state, ANN, k)
        ben, cid = dealt["hands"][BEN], dealt["hands"][CID]
        assert hymns_in(dealt, ben) == 1, "six cards are five and a hymn"
        assert hymns_in(dealt, cid) <= 1 and not any(card in dealt["hymns"] for card in dealt["deck"])
        holders.add(hymns_in(dealt, cid))
    assert holders == {0}, "Ann knows every other hymn is in the hymnal: Cid holds five cards and none"
    state = state_with(players=("Ann", "Ben", "Cid"),
                       hands={ANN: ["C02"], BEN: ["C03", "C04", "C05", "H01"], CID: ["S02", "S03", "S04"]})
    holders = set()
    for k in range(40):
        dealt = assert_redeal_keeps_sight(state, ANN, k)
        holders.add((hymns_in(dealt, dealt["hands"][BEN]), hymns_in(dealt, dealt["hands"][CID])))
    assert holders == {(1, 0), (0, 1)}, "one hymn is hidden in the hands of Ben and Cid: either may hold it"


def test_a_face_up_hymn_stays_in_its_hand_and_is_that_hands_hymn():
    state = state_with(hands={ANN: ["C02"], BEN: ["C03", "C04", "H13"]})
    state["face_up"] = ["H13"]
    for k in range(20):
        dealt = assert_redeal_keeps_sight(state, ANN, k)
        assert dealt["hands"][BEN][0] == "H13" and hymns_in(dealt, dealt["hands"][BEN]) == 1
        assert dealt["face_up"] == ["H13"]


def test_hymns_another_seat_is_choosing_among_are_dealt_anew_and_the_chooser_keeps_them():
    state = state_with(hands={ANN: ["C02"], BEN: ["C03", "H07"]}, turn=BEN, board={"0,3": ("C09", BEN)})
    state = game.apply(state, {"type": "sing", "seat": BEN, "hymn": "H07"}, SeededRng(0))
    assert state["pending"]["kind"] == "primary" and len(state["pending"]["options"]) == 3
    offers = set()
    for k in range(20):
        dealt = assert_redeal_keeps_sight(state, ANN, k)
        offers.add(tuple(dealt["pending"]["options"]))
        assert all(h in dealt["hymns"] for h in dealt["pending"]["options"])
        mine = assert_redeal_keeps_sight(state, BEN, k)
        assert mine["pending"] == state["pending"] and mine["hands"][BEN] == state["hands"][BEN]
    assert len(offers) > 5


def test_in_singularity_the_searcher_keeps_the_decks_cards_and_the_others_pool_deck_and_hands():
    state = state_with(hands={ANN: ["C02", "H07"], BEN: ["C03", "C04", "C05"]}, board={"6,3": ("C09", ANN)})
    state["discard"] += state["deck"]
    state["deck"] = []
    game._enter_singularity(state, SeededRng(0))
    assert state["singularity"] and any(card in state["hymns"] for card in state["deck"])
    state = game.apply(state, {"type": "sing", "seat": ANN, "hymn": "H07"}, SeededRng(0))
    assert state["pending"] == {"seat": ANN, "kind": "search"}
    bens = set()
    for k in range(20):
        dealt = assert_redeal_keeps_sight(state, ANN, k)
        assert sorted(dealt["deck"]) == sorted(state["deck"]), "Ann is looking through the deck"
        assert sorted(dealt["hands"][BEN]) == sorted(state["hands"][BEN]), "so Ben's hand is what is left"
        theirs = assert_redeal_keeps_sight(state, BEN, k)
        bens.add(hymns_in(theirs, theirs["hands"][ANN]))
    assert bens == {0, 1}, "in Singularity a hand may hold a hymn or not, as the deck deals it"


def test_the_record_of_positions_keeps_the_current_one_under_its_new_key():
    state = STATES[20]
    count = state["seen"][game.position(state)]
    dealt = mercenarium.redeal(state, ANN, SeededRng(1))
    assert dealt["seen"] == {game.position(dealt): count}


def test_random_play_goes_on_from_a_redealt_state_to_the_end():
    for index, state in enumerate(STATES[::9]):
        if mercenarium.outcome(state) is not None:
            continue
        rng, chooser = SeededRng(f"on-{index}"), SeededRng(f"on-choices-{index}")
        state = mercenarium.redeal(state, index % len(state["players"]), SeededRng(index))
        for _ in range(3000):
            if mercenarium.outcome(state) is not None:
                break
            state = mercenarium.apply(state, chooser.choice(mercenarium.legal_actions(state)), rng)
        assert mercenarium.outcome(state) is not None and mercenarium.invariants(state) == []


def test_the_heuristic_is_a_chance_and_the_result_at_the_end():
    finished = 0
    for state in STATES:
        values = [mercenarium.heuristic(state, seat) for seat in seats(state)]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert abs(sum(values) - 1.0) < 1e-9
        result = mercenarium.outcome(state)
        if result is not None:
            finished += 1
            winners = result["winners"]
            assert values == [(1.0 / len(winners) if seat in winners else 0.0) for seat in seats(state)]
    assert finished == 4


def test_the_heuristic_gives_a_draw_an_equal_share():
    state = state_with(players=("Ann", "Ben", "Cid"))
    state["result"] = {"winners": [], "reason": "Stalemate."}
    assert [mercenarium.heuristic(state, seat) for seat in (ANN, BEN, CID)] == [1 / 3] * 3


def test_the_heuristic_prefers_captures_a_threat_and_freedom_to_limbo():
    ahead = state_with(board={"3,3": ("C09", ANN), "4,3": ("G05", BEN)}, captures={ANN: ["S02", "S03", "S04"],
                                                                                   BEN: ["B02"]})
    assert mercenarium.heuristic(ahead, ANN) > 0.75 > 0.25 > mercenarium.heuristic(ahead, BEN)
    even = state_with(board={"3,3": ("C09", ANN), "3,5": ("G05", BEN)})
    threat = state_with(board={"3,3": ("C09", ANN), "4,3": ("G05", BEN)})
    assert any(a["type"] == "capture" for a in mercenarium.legal_actions(threat))
    assert mercenarium.heuristic(threat, ANN) > mercenarium.heuristic(even, ANN) > 0.5 - 1e-9
    limbo = state_with(board={"6,3": ("C09", BEN), "0,3": ("G05", BEN)}, turn=ANN)
    assert board.in_limbo(limbo, ANN) and mercenarium.heuristic(limbo, ANN) < 0.15


def test_the_heuristic_fears_a_buy_of_a_mercenary_out_of_contract():
    board = {"6,3": ("C13", ANN), "0,3": ("G05", BEN)}
    exposed = state_with(board=board, captures={BEN: ["S02"]}, turn=BEN)
    assert any(a["type"] == "buy" for a in mercenarium.legal_actions(exposed))
    covered = state_with(board=board, captures={BEN: ["S02"]}, turn=BEN)
    covered["contracts"] = {"C13": ANN}
    assert not any(a["type"] == "buy" for a in mercenarium.legal_actions(covered))
    assert mercenarium.heuristic(covered, ANN) > mercenarium.heuristic(exposed, ANN) + 0.05


def test_the_playout_policy_plays_a_legal_action_of_every_sampled_state():
    rng = SeededRng("policy")
    for state in STATES:
        actions = mercenarium.legal_actions(state)
        if actions:
            assert mercenarium.playout(state, actions, rng) in actions


def test_the_playout_policy_takes_the_richest_capture_before_a_buy_and_a_buy_before_quiet_moves():
    board = {"3,3": ("C09", ANN), "4,3": ("G05", BEN), "3,2": ("G06", BEN), "0,3": ("C13", BEN)}
    state = state_with(board=board, captures={ANN: ["S02"]})
    actions = mercenarium.legal_actions(state)
    captures = [a for a in actions if a["type"] == "capture"]
    assert len(captures) == 2 and any(a["type"] == "buy" for a in actions)
    richest = max(captures, key=lambda a: sum(state["cards"][state["board"][a["to"]]["card"]]["aura"]))
    assert all(mercenarium.playout(state, actions, SeededRng(seed)) == richest for seed in range(20))
    quiet = [a for a in actions if a["type"] != "capture"]
    assert {mercenarium.playout(state, quiet, SeededRng(seed))["type"] for seed in range(20)} == {"buy"}
    calm = [a for a in quiet if a["type"] != "buy"]
    assert len({canonical_json(mercenarium.playout(state, calm, SeededRng(seed))) for seed in range(20)}) > 3


def test_the_searchs_strengths_think_more_in_turn():
    iterations = mercenarium.SEARCH["iterations"]
    assert iterations["quick"] < iterations["normal"] < iterations["strong"]


def test_the_private_copy_is_a_thaw_that_shares_only_the_catalogs():
    for state in STATES:
        copy = board.private_copy(state)
        assert copy == thaw(state, board.SHARED) and copy["cards"] is state["cards"]
        before = canonical_json(state)
        copy["board"].setdefault("3,3", {"card": "x", "owner": 0})["owner"] = 9
        copy["hands"][0].append("x")
        copy["captures"][0].append({"card": "x", "spent": False})
        copy["seen"]["x"] = 1
        assert canonical_json(state) == before
