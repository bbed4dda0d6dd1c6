"""Mercenaries of Gridaris: a pure rules engine behind the kernel contract.

2-5 players place Mercenary cards on the 16 battlefields of Gridaris; a card captures
adjacent enemy cards whose facing edge it beats. When the board is full, each player
takes one Reinforcement turn, covering a battlefield they control; then Star Ranks
plus bonus shapes decide the winner. Enhanced Play adds two of twelve scenarios.

Modules:

* ``starter``  -- STARTER DATA (an invented catalog, not official) and the scenarios
* ``config``   -- config validation, ``starter_config``, ``random_config``
* ``maps``     -- board shapes, adjacency, labels, bonus-shape candidates
* ``combat``   -- edge comparison, Aces, modifiers, captures, Cascade
* ``scoring``  -- base score, bonus shapes, tie-breaks
* ``game``     -- setup, turn order, legal actions, apply
* ``seat_view`` -- what each seat may see, hidden ids, outcome
* ``checks``   -- invariants and examples of illegal actions
* ``testing``  -- helpers that build states for tests

State is plain JSON (``"v": 1``). Each module's docstring states the rules it
implements; every ruling on a gap in the rulebook is in docs/rulings.md.
"""

from ..kernel import settle  # the contract's no-op: nothing here is decided again after a redeal
from ..spec import EngineSpec
from .bot import SEARCH, heuristic, redeal  # noqa: F401  (re-exported for the computer players, issue 16)
from .checks import illegal_examples, invariants
from .config import MAX_PLAYERS, MIN_PLAYERS, random_config, starter_config
from .game import apply, legal_actions, setup, to_act
from .seat_view import card_names, hidden_from, outcome, view
from .starter import SCENARIOS, STARTER_CARDS

NAME = "gridaris"
TITLE = "Mercenaries of Gridaris"
SPEC = EngineSpec(name=NAME, title=TITLE, card_names=card_names, redeal=redeal, heuristic=heuristic, search=SEARCH)

__all__ = [
    "NAME", "TITLE", "SPEC", "MIN_PLAYERS", "MAX_PLAYERS", "SCENARIOS", "STARTER_CARDS",
    "setup", "to_act", "legal_actions", "apply", "settle", "view", "outcome", "invariants",
    "illegal_examples", "hidden_from", "card_names", "random_config", "starter_config",
]
