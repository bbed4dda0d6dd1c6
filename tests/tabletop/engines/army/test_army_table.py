"""Army battles at the table: GM overrides, physical dice, secrets, replay, determinism, random battles."""

import random

import pytest

from tabletop.engines import army
from tabletop.engines.army.starter import STARTER_BY_CODE, STARTER_UNITS, side_units
from tabletop.engines.army.testing import ANN, BEN, act, battle, card, commander, gm, play, where
from tabletop.engines.kernel import GM, PUBLIC, IllegalAction, SeededRng, digest
from tabletop.engines.replay import LOG_FORMAT, LOG_VERSION, replay_log
from tabletop.engines.simulate import SimulationReport, play_one, simulate, strings_in


def unit(card_id, strength=2, **fields):
    return card(card_id, strength, "savant", **fields)


# ------------------------------------------------------------------ GM overrides

def test_gm_modifier_in_the_skirmish_and_for_the_next_one():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = gm(state, "gm_modifier", side="defense", amount=3)  # no skirmish yet: waits for the next
    state = play(state, "a1")
    state = gm(state, "gm_modifier", side="offense", amount=-1)
    state = play(state, "b1", dice=[4, 1])
    assert [m["source"] for m in state["last"]["defense"]["modifiers"]] == ["GM"]
    assert state["last"]["offense"]["total"] == 5 and state["last"]["defense"]["total"] == 6


def test_gm_set_dice_replaces_the_next_rolls():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = gm(state, "gm_set_dice", values=[6, 1])
    state = play(state, "a1")
    state = play(state, "b1")  # no scripted dice: the set dice are used, not rng
    assert state["last"]["offense"]["dice"] == [6] and state["last"]["defense"]["dice"] == [1]
    with pytest.raises(IllegalAction, match="7 is not a die roll"):
        gm(state, "gm_set_dice", values=[7])


def test_gm_move_card_anywhere_and_back_from_killed():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = gm(state, "gm_move_card", card="b1", to="killed")
    assert where(state, "b1") == "killed" and army.invariants(state) == []
    state = gm(state, "gm_move_card", card="b1", to="hand")
    assert where(state, "b1") == "hand" and army.invariants(state) == [] and "b1" in state["revived"]
    with pytest.raises(IllegalAction, match="no card"):
        gm(state, "gm_move_card", card="zzz", to="hand")
    with pytest.raises(IllegalAction, match="already there"):
        gm(state, "gm_move_card", card="b1", to="hand")


def test_gm_moving_the_last_playable_card_makes_the_commander_unable():
    state = battle([unit("a1"), unit("a2")], [unit("b1")])
    state = gm(state, "gm_move_card", card="a1", to="disabled")
    assert army.to_act(state) == [ANN]
    state = gm(state, "gm_move_card", card="a2", to="exhausted")
    assert army.to_act(state) == [BEN] and state["step"]["kind"] == "offense"


def test_gm_moving_a_card_out_of_the_skirmish_calls_it_off():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = play(state, "a1")
    state = gm(state, "gm_move_card", card="a1", to="disabled")
    assert state["skirmish"] is None and army.to_act(state) == [BEN]
    assert army.invariants(state) == []


def test_gm_morale_adds_removes_and_routs_at_zero():
    state = battle([unit("a1")], [unit("b1")])
    state = gm(state, "gm_morale", target=ANN, amount=2)
    assert state["commanders"][ANN]["morale"] == 7
    state = gm(state, "gm_morale", target=BEN, amount=-5)
    assert state["phase"] == "over" and army.outcome(state)["winners"] == [ANN]


def test_gm_ends_the_battle_with_or_without_naming_a_winner():
    state = battle([unit("a1")], [unit("b1")])
    assert army.outcome(gm(state, "gm_end_battle", winner=BEN))["winners"] == [BEN]
    assert army.outcome(gm(state, "gm_end_battle", winner=None))["winners"] == []
    ruled = army.outcome(gm(state, "gm_end_battle"))
    assert ruled["winners"] == [] and ruled["how"] == "gm"  # tied kills and Morale: both lose


def test_overrides_come_only_from_the_gm_and_are_not_legal_actions_but_described():
    state = battle([unit("a1")], [unit("b1")])
    with pytest.raises(IllegalAction, match="Only the GM"):
        act(state, {"type": "gm_morale", "seat": ANN, "target": BEN, "amount": -1})
    assert not any(a["type"].startswith("gm_") for a in army.legal_actions(state))
    described = {entry["type"] for entry in army.view(state, GM)["overrides"]}
    assert described == {"gm_modifier", "gm_set_dice", "gm_move_card", "gm_morale", "gm_end_battle"}
    assert "overrides" not in army.view(state, ANN)


def test_overrides_are_accepted_during_any_step_even_a_dice_step():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")], dice="physical")
    state = play(state, "a1")
    state = play(state, "b1")
    assert state["step"]["kind"] == "dice"
    state = gm(state, "gm_modifier", side="offense", amount=1)
    state = gm(state, "gm_set_dice", values=[3, 3])  # the waiting dice step takes them at once
    assert state["last"]["offense"]["total"] == 6 and state["last"]["defense"]["total"] == 5


# ------------------------------------------------------------------ physical dice

def physical_skirmish():
    state = battle([card("spear", 3, "aggressor", traits=["reach"]), unit("a2")], [unit("b1"), unit("b2")],
                   dice="physical")
    state = play(state, "spear")
    return play(state, "b1")


def test_physical_dice_pause_for_the_gm_with_labels():
    state = physical_skirmish()
    assert army.to_act(state) == [GM] and state["step"]["kind"] == "dice"
    assert [d["label"] for d in army.view(state, GM)["dice_needed"]] == [
        "Spear (Offense) d6 #1", "Spear (Offense) d6 #2", "B1 (Defense) d6"]
    assert all(a["type"] == "roll" and len(a["values"]) == 3 for a in army.legal_actions(state))
    state = act(state, {"type": "roll", "seat": GM, "values": [2, 5, 3]})
    assert state["last"]["offense"]["total"] == 3 + 5 + 1 and state["last"]["defense"]["total"] == 5


@pytest.mark.parametrize("values, message", [
    ([2, 5, 7], "Dice show 1 to 6; 7 is not a die roll."),
    ([0, 5, 3], "Dice show 1 to 6; 0 is not a die roll."),
    ([2, 5], "This roll needs 3 dice"),
    ([2, 5, 3, 1], "you entered 4"),
    ("456", "as a list"),
])
def test_physical_dice_refuse_impossible_values_with_a_clear_message(values, message):
    state = physical_skirmish()
    with pytest.raises(IllegalAction, match=message.replace("(", "\\(")):
        act(state, {"type": "roll", "seat": GM, "values": values})
    with pytest.raises(IllegalAction, match="not .*decision"):
        act(state, {"type": "roll", "seat": ANN, "values": [1, 1, 1]})


def test_app_dice_never_ask_for_a_roll():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = play(state, "a1")
    with pytest.raises(IllegalAction, match="not the GM's decision|No dice|not .*decision"):
        act(state, {"type": "roll", "seat": GM, "values": [1]})


# ------------------------------------------------------------------ secrets

def test_face_down_cards_and_hands_are_hidden_from_the_other_seat_and_the_table():
    state = battle([unit("a1"), unit("a2")], [unit("b1"), unit("b2")])
    state = play(state, "a1")
    assert "a1" in army.hidden_from(state, BEN) and "a1" in army.hidden_from(state, PUBLIC)
    assert "a1" not in army.hidden_from(state, ANN) and army.hidden_from(state, GM) == []
    assert army.view(state, BEN)["skirmish"]["offense"] == {"face_down": True, "seat": ANN}
    assert army.view(state, ANN)["skirmish"]["offense"]["id"] == "a1"
    assert army.view(state, GM)["skirmish"]["offense"]["id"] == "a1"
    for seat in (ANN, BEN, PUBLIC):
        assert not set(army.hidden_from(state, seat)) & strings_in(army.view(state, seat))
    assert army.view(state, BEN)["commanders"][ANN]["hand"] is None
    assert [c["id"] for c in army.view(state, BEN)["hand"]] == ["b1", "b2"]
    state = play(state, "b1", dice=[4, 1])
    assert "a1" not in army.hidden_from(state, BEN)


def test_every_view_in_random_battles_keeps_the_secrets():
    for seed in range(5):
        report = SimulationReport(game="army")
        play_one(army, seed, report, check=True)
        assert report.violations == []


# ------------------------------------------------------------------ starter catalog and config

def test_the_starter_catalog_covers_every_path_and_role_and_the_rulebook_units():
    assert len(STARTER_UNITS) >= 30
    assert {u["path"] for u in STARTER_UNITS} == {"steel", "magic", "faith", "nature", "mind"}
    assert {u["role"] for u in STARTER_UNITS} == {"aggressor", "guardian", "healer", "savant", "equipment", "ritual"}
    assert STARTER_BY_CODE["spearmen"]["role"] == "aggressor" and STARTER_BY_CODE["spearmen"]["traits"] == ["reach"]
    assert STARTER_BY_CODE["soldier"]["abilities"] == [{"kind": "discard_bonus", "amount": 1, "target": "either"}]
    assert any(u["role"] == "equipment" and u["strength"] == 0 for u in STARTER_UNITS)
    assert sum(u["role"] == "healer" for u in STARTER_UNITS) >= 3
    assert any("undead" in u["traits"] for u in STARTER_UNITS) and any("elemental" in u["traits"]
                                                                        for u in STARTER_UNITS)
    assert STARTER_BY_CODE["alchemy_lab"]["granted_by"] == "chirurgeon"
    assert STARTER_BY_CODE["mediating_chaplain"]["granted_by"] == "chaplain"
    assert all("upkeep" in u and "price" in u and "code" in u for u in STARTER_UNITS)
    cards = side_units(["spearmen", "soldier", "soldier"], "ann")
    assert [c["id"] for c in cards] == ["ann-1", "ann-2", "ann-3"]
    army.setup(army.starter_config(units=(list(STARTER_BY_CODE), ["soldier"])), SeededRng(1))


def test_random_configs_vary_the_powers_the_dice_and_the_bases():
    configs = [army.random_config(SeededRng(seed)) for seed in range(300)]
    classes = {(c["role"], c["path"]) for config in configs for c in config["commanders"]}
    assert len(classes) == 20
    assert {config["dice"] for config in configs} == {"app", "physical"}
    assert any(config.get("base_morale") for config in configs)
    assert {len(side) for config in configs for side in config["units"]} == set(range(3, 9))
    assert {c["kind"] for config in configs for c in config["commanders"]} == {"pc", "npc"}


# ------------------------------------------------------------------ determinism, replay, random battles

def test_the_same_seed_gives_the_same_battle_even_when_global_random_is_disturbed():
    def transcript(seed):
        random.seed(seed * 31)
        report = SimulationReport(game="army")
        state = play_one(army, seed, report, check=False)
        random.random()
        return digest(state), report.actions

    assert transcript(12) == transcript(12)
    assert transcript(12) != transcript(13)


def test_a_hand_built_log_replays_to_the_same_digest():
    rng = SeededRng(77)
    config = army.starter_config(commanders=[commander("healer", "mind", name="Mender"),
                                             commander("savant", "magic", name="Illusionist")],
                                 units=(["spearmen", "soldier", "priestess", "zealots"],
                                        ["soldier", "wolf_pack", "treant", "druid"]))
    state = army.setup(config, rng)
    log = {"format": LOG_FORMAT, "version": LOG_VERSION, "game": "army", "config": config,
           "setup_draws": rng.take_draws(), "setup_digest": digest(state), "entries": []}
    chooser = SeededRng("choices")
    seq = 0
    while army.outcome(state) is None and seq < 400:
        action = chooser.choice(army.legal_actions(state))
        state = army.apply(state, action, rng)
        seq += 1
        log["entries"].append({"seq": seq, "action": action, "draws": rng.take_draws(), "digest": digest(state)})
    assert army.outcome(state) is not None
    replayed = replay_log(log)
    assert replayed.mismatches == [] and replayed.checked_digests == seq + 1
    assert digest(replayed.state) == digest(state)


@pytest.mark.soak
def test_two_thousand_random_battles_without_a_single_violation():
    report = simulate("army", games=2000, seed=20261121)
    assert report.violations == []
    assert report.games == 2000 and report.actions > 20000


# ------------------------------------------------------------------ what the GM sees

def test_the_gm_view_lets_the_gm_adjudicate_live():
    state = battle([card("spear", 3, "aggressor", traits=["reach"]), unit("a2")], [unit("b1"), unit("b2")],
                   defender=BEN, base_morale=2)
    state = play(state, "spear")
    state = act(state, {"type": "gm_modifier", "seat": GM, "side": "defense", "amount": 1})
    state = play(state, "b1", dice=[6, 6, 1])
    state = play(state, "b2")  # Ben (the defender) attacks next
    view = army.view(state, GM)
    assert view["turn_text"] == "Ann's commander plays a unit on Defense or passes" and view["to_act"] == [ANN]
    assert {c["label"] for c in view["choices"]} >= {"Pass: the attacking unit is Unopposed"}
    assert [c["id"] for c in view["commanders"][ANN]["hand"]] == ["a2"]  # the GM sees every hand
    assert view["commanders"][BEN]["base_morale"] == 2 and view["commanders"][BEN]["morale"] == 7
    assert view["commanders"][BEN]["killed"][0]["name"] == "B1"
    assert view["commanders"][ANN]["exhausted"][0]["name"] == "Spear"
    assert view["skirmish"]["offense"]["id"] == "b2" and view["skirmish"]["offense"]["face_down"]
    last = view["last"]
    assert [m["source"] for m in last["offense"]["modifiers"]] == ["Reach"]
    assert [m["source"] for m in last["defense"]["modifiers"]] == ["GM"]
    assert last["offense"]["total"] == 10 and last["defense"]["total"] == 4 and last["margin"] == 6
    assert any("Skirmish 2" in line for line in view["events"])
    assert army.view(state, ANN)["choices"] and army.view(state, BEN)["choices"] == []


def test_the_gm_sees_exact_odds_before_the_dice_and_for_an_unopposed_unit():
    state = battle([unit("a1"), unit("a2"), card("s", 2, "aggressor", abilities=[{"kind": "discard_bonus"}])],
                   [unit("b1"), unit("b2")])
    state = play(state, "a1")
    state = play(state, "b1")  # Ann holds a discard power: the window before the dice is open
    odds = army.view(state, GM)["odds"]
    assert odds["offense_wins"]["exact"] == odds["defense_wins"]["exact"] == "1/2"
    assert "odds" not in army.view(state, ANN)
    unopposed = battle([unit("a1", 4), card("s", 2, "aggressor", abilities=[{"kind": "discard_bonus"}])],
                       [unit("b1")])
    unopposed = play(unopposed, "a1")
    unopposed = act(unopposed, {"type": "pass", "seat": BEN})
    damage = army.view(unopposed, GM)["odds"]["unopposed"]
    assert damage == {"1": {"p": 0.5, "exact": "1/2"}, "2": {"p": 0.5, "exact": "1/2"}}
