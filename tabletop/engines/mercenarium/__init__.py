"""Mercenarium (Anthromancer deck): a pure rules engine behind the kernel contract.

2-4 players summon, move and capture cards on a 7x7 board; aura dots on a card's
edges decide captures, the alchemy wheel decides ties; captures buy Mercenaries and
learn hymns; five captures or Limbo wins, repetition and an empty Singularity deck
draw.

Modules:

* ``cards``   -- STARTER DATA: 56 cards with aura dots, 15 hymns, effect primitives
* ``config``  -- ``starter_config``, ``random_config``
* ``board``   -- cells, sides, aura dots, threats, summons and moves, hands and piles
* ``hymns``   -- hymn effects and their targets, pending choices, keeping and learning hymns
* ``game``    -- setup, turn order, legal actions, apply, end-of-turn checks
* ``seat_view`` -- what each seat may see, hidden ids, outcome
* ``checks``  -- invariants (71 cards always in exactly one place), illegal examples
* ``testing`` -- helpers that build states for tests

Rulings: docs/rulings.md.
"""

from ..kernel import settle  # the contract's no-op: nothing here is decided again after a redeal
from ..spec import EngineSpec
from .bot import SEARCH, heuristic, playout, redeal  # noqa: F401 (the computer players, issues 16, 27)
from .cards import PRIMITIVES, STARTER_CARDS, STARTER_HYMNS
from .checks import illegal_examples, invariants
from .config import MAX_PLAYERS, MIN_PLAYERS, random_config, starter_config
from .game import apply, legal_actions, setup, to_act
from .seat_view import card_names, hidden_from, outcome, shown_by, view

NAME = "mercenarium"
TITLE = "Mercenarium"
SPEC = EngineSpec(name=NAME, title=TITLE, card_names=card_names, shown_by=shown_by, redeal=redeal,
                  heuristic=heuristic, playout=playout, search=SEARCH)

__all__ = [
    "NAME", "TITLE", "SPEC", "MIN_PLAYERS", "MAX_PLAYERS", "PRIMITIVES", "STARTER_CARDS", "STARTER_HYMNS",
    "setup", "to_act", "legal_actions", "apply", "settle", "view", "outcome", "invariants",
    "illegal_examples", "hidden_from", "card_names", "shown_by", "random_config", "starter_config",
]
