"""Mercenaries, the deck-building dungeon game, on the kernel: any adventure of the catalog (config
``"adventure"``; The Distelblute Mansion, STARTER DATA, when the config names none).

Two to five seats: competitive or co-operative for 3 or 4 players; two players with two
mercenaries each ("pairs": the 4-player co-operative set-up, scored competitively or
co-operatively; "singles": the 4-player competitive game); a Deck Master (the last seat)
with five players (four mercenaries) or three (two players with two mercenaries each).
Every mercenary has its own deck, hand, discard pile, Health (20, no cap) and EXP (0). Attacks
are made with Skill Melee or Skill Ranged cards only (the mercenary card prints no values); a
successful defence is one Skill Defence cards made. Status effects (poison, burn, webbed) come
from the cards that inflict them and resolve at the start of the mercenary's turn and of the
Monster Turn.

Each area: the First Player (passing left after the first area), six-card hands, an area
feature, monsters spawned (ranged row, melee row, as close to the centre as possible;
champions on the ranged row with an extra draw; ambushes summon from the reserve; the
last-card rule) and mercenaries entering the Mercenary Row. Then mercenary turns (in "2 Pairs"
each player picks which mercenary leads; regeneration, one move, one attack), the monster
turn (melee move, melee attack, champions, ranged move, ranged attack; d20 ranged targeting;
mercenaries may lash out at a monster moving away) and the end of turn (a last chance to
acquire). Acquiring, ability cards and blue boxes are open to every mercenary at any time
of a turn. Choices the rules give the First Player are decisions of that mercenary's
owner; in a Deck Master game the Deck Master decides for the monsters.

Modules: ``cards`` (STARTER DATA), ``adventure`` (what the set-up deals, as data), ``board`` (squares,
moves, card data), ``start`` (set-up), ``status`` (poison, burn, webbed),
``areas`` (areas and turns), ``combat``, ``monsters`` (the Monster Turn), ``anytime``
(acquiring, ability cards, blue boxes), ``scoring``, ``flow`` (the driver), ``actions``
(legal actions, apply), ``seat_view`` (what each seat may see, outcome), ``checks`` (invariants,
illegal examples, random configs), ``testing`` (helpers for tests). Rulings: docs/rulings.md.
"""

from ..kernel import settle  # the contract's no-op: nothing here is decided again after a redeal
from ..spec import EngineSpec
from .actions import apply, legal_actions
from .bot import SEARCH, heuristic, playout, redeal
from .checks import illegal_examples, invariants, random_config
from .flow import to_act
from .seat_view import card_names, hidden_from, outcome, view
from .start import setup

NAME = "dungeon"
TITLE = "Mercenaries: the dungeon deck-builder"
SPEC = EngineSpec(name=NAME, title=TITLE, card_names=card_names, redeal=redeal, heuristic=heuristic,
                  playout=playout, search=SEARCH)
MIN_PLAYERS, MAX_PLAYERS = 2, 5

__all__ = [
    "NAME", "TITLE", "SPEC", "MIN_PLAYERS", "MAX_PLAYERS", "setup", "to_act", "legal_actions", "apply", "settle",
    "view", "outcome", "invariants", "illegal_examples", "hidden_from", "card_names", "random_config", "redeal",
    "heuristic", "playout", "SEARCH",
]
