"""The same position coming round a third time: the rulebooks' own way of ending a loop.

Mercenarium ends a game in stalemate when a position comes round a third time (its rulebook's
"three repetitions"). Issue 36 borrows that rule for the two loops other rulebooks leave open
without forbidding a move (rulings AR32, M28): an Army reaction window where two cards return each
other to hand, and GOT'M's shop where two players skip, or swap a card back and forth. Forbidding the
moves themselves (the withdrawn AR30 and M26) refused what the rulebooks allow; counting positions
refuses nothing and still ends every loop.

A position is a short, stable digest of the parts of the state each game names (what the rule means
by "the same position": for the Army and GOT'M the hands, piles, modifiers, done and declined flags
and the seat to act; never a counter that only grows, which would make every position new). The
count lives in the state as a small JSON dict ``{digest: times seen}`` kept where the loop lives (the
window, the shop, the game) and dropped when it closes, so a state stays plain JSON and replays the
same. ``remember`` counts the position and returns how many times it has now been seen; ``THIRD`` is
the count that ends the loop. ``carried`` keeps the current position's count across a computer's
redeal, whose new hands make a new digest.
"""

from __future__ import annotations

import hashlib
from typing import Any

from .kernel import canonical_json

THIRD = 3


def position(parts: Any) -> str:
    """A stable 16-hex digest of ``parts`` (plain JSON data)."""
    return hashlib.sha256(canonical_json(parts).encode()).hexdigest()[:16]


def remember(seen: dict, parts: Any) -> int:
    """Count the position ``parts`` once more in ``seen``; return how many times it has been seen."""
    spot = position(parts)
    seen[spot] = seen.get(spot, 0) + 1
    return seen[spot]


def carried(seen: dict, before: Any, after: Any) -> dict:
    """The record for a redealt state: only the current position, under its new digest, with the count the
    old one had (the old record names positions with the real hidden cards in them)."""
    count = seen.get(position(before))
    return {position(after): count} if count else {}
