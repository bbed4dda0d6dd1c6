"""Mercenaries (GOT'M): a two-player duel with a standard 52-card deck, on the kernel.

Gnolls (clubs), Ogres (hearts), Trolls (diamonds) and Murlocs (spades) fight for the
Horde and the Alliance. Each round: recruitment (hire mercenaries with resources of
their race, swap, buy or sell artifacts), combat (squads of three face down, revealed,
artifacts equipped, turns of attack with taunting tanks, shields, AP checks, combos
and abilities) and recovery (graveyard, ears, loot, infirmary, the bank). The game
ends when a player cannot field a mercenary; hand, infirmary and ears are scored.

Modules:

* ``cards``    -- card ids ("AS", "10H", "QD"), races, ranks, values, payments
* ``game``     -- setup, who acts, legal actions, apply
* ``recruit``  -- the shop and turns of shopping
* ``combat``   -- squads, the reveal, equipment, attacks, shields, pick-ups
* ``battle``   -- values, AP, AP checks, abilities, Hardened Skin
* ``recovery`` -- cleaning the battlefield, the infirmary, the bank
* ``common``   -- events, the bank draw, the final score
* ``seat_view`` -- what each seat may see, hidden ids, outcome
* ``checks``   -- invariants, illegal examples, random configs
* ``testing``  -- helpers that build states for tests

State is plain JSON (``"v": 1``). Every ruling is in docs/rulings.md.
"""

from ..spec import EngineSpec
from .bot import SEARCH, heuristic, redeal  # noqa: F401 (the computer players, issue 16)
from .checks import illegal_examples, invariants, random_config
from .game import apply, legal_actions, settle, setup, to_act
from .seat_view import card_names, hidden_from, outcome, view

NAME = "gotm"
TITLE = "Mercenaries (GOT'M)"
SPEC = EngineSpec(name=NAME, title=TITLE, settle=settle, card_names=card_names, redeal=redeal, heuristic=heuristic,
                  search=SEARCH)
MIN_PLAYERS = MAX_PLAYERS = 2

__all__ = [
    "NAME", "TITLE", "SPEC", "MIN_PLAYERS", "MAX_PLAYERS", "setup", "to_act", "legal_actions", "apply", "settle",
    "view", "outcome", "invariants", "illegal_examples", "hidden_from", "card_names", "random_config",
]
