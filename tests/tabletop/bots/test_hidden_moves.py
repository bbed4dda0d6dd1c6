"""A move the other seats cannot see (a card played face down) keeps the search honest: with the engine's
``observed``, each seat's tree holds the moves as that seat sees them (tabletop/bots/ismcts.py), so a
reply in the search cannot answer a face-down card it could not see (ruling BOT41)."""

from __future__ import annotations

import types

from tabletop.bots import IsmctsPlayer
from tabletop.bots.common import action_key
from tabletop.engines import ENGINES
from tabletop.engines.kernel import thaw
from tabletop.engines.spec import EngineSpec


def _hide_and_seek(**hooks) -> types.SimpleNamespace:
    """Seat 0 hides a coin in its left or right hand, face down; seat 1 names a hand and wins if the coin is
    there and it catches it (a roll of 1-8 on a d10). Played well (each hand half the time), the hider wins
    60 % of the games; against a seeker who saw the coin, 20 %. (The roll also keeps the two seats' choices
    from falling into step, as two UCB players in a game this small would.)"""

    def to_act(state):
        return [0] if state["coin"] is None else [1] if state["guess"] is None else []

    def legal_actions(state):
        kind = {0: "hide", 1: "guess"}
        return [{"type": kind[seat], "seat": seat, "hand": hand}
                for seat in to_act(state) for hand in ("left", "right")]

    def apply(state, action, rng):
        state = thaw(state)
        state["coin" if action["type"] == "hide" else "guess"] = action["hand"]
        if action["type"] == "guess":
            state["caught"] = state["guess"] == state["coin"] and rng.randint(1, 10) <= 8
        return state

    def outcome(state):
        if state["guess"] is None:
            return None
        return {"winners": [1 if state["caught"] else 0]}

    return types.SimpleNamespace(NAME="hide", to_act=to_act, legal_actions=legal_actions, apply=apply,
                                 outcome=outcome, hidden_from=lambda state, seat: [],
                                 SPEC=EngineSpec(name="hide", title="Hide and seek",
                                                 redeal=lambda state, seat, rng: state, **hooks))


def _hidden_hand(action, viewer):
    return {"type": "hide", "seat": 0} if action["type"] == "hide" and viewer != 0 else action


def _hider_chance(engine) -> float:
    """The hider's mean estimated chance over its two hands and six searches (UCB players in a game this
    small circle around a mixed strategy without settling on it, so one search is not enough)."""
    state = {"players": ["Ann", "Ben"], "coin": None, "guess": None}
    keys = {action_key(action) for action in engine.legal_actions(state)}
    roots = [IsmctsPlayer(iterations=600, depth=0).search(engine, state, 0, keys, seed) for seed in range(6)]
    chances = [child.total / child.visits for root in roots for child in root.children.values()]
    assert len(chances) == 12
    return sum(chances) / len(chances)


def test_a_reply_in_the_search_cannot_see_a_face_down_move():
    # one tree: the seeker's node under each hand learns that hand, so hiding looks lost (20 %) either way
    assert _hider_chance(_hide_and_seek()) < 0.3
    # a tree per seat: the seeker's tree holds one "hid a coin" move, so its guess is a guess (60 % played well)
    assert _hider_chance(_hide_and_seek(observed=_hidden_hand)) > 0.4


def test_an_army_unit_played_face_down_shows_the_other_commander_only_that_it_was_played():
    observed = ENGINES["army"].observed
    play = {"type": "play", "seat": 0, "card": "a3", "role": "healer"}
    assert observed(play, 1) == {"type": "play", "seat": 0}
    assert observed(play, 0) == play
    for seen in ({"type": "pass", "seat": 0}, {"type": "ritual", "seat": 0, "card": "r1"}):
        assert observed(seen, 1) == seen
