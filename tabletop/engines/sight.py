"""What each viewer sees, and the two ways a secret can slip into it (used by simulate.py).

* **A hidden id anywhere in a view** (``engine.hidden_from(state, seat)`` against every
  string of ``engine.view(state, seat)``).
* **A hidden card's name in a line an action added** (an event, a label, a result): a card
  is secret from a viewer when it was hidden before the action and still is after it,
  e.g. a face-down card the GM sends back to its owner's hand. Engines name cards in
  their lines, never by id, so this needs ``engine.card_names(state)`` (id -> name).
  A name that a card the viewer may see also bears (another copy, a card shown face up
  in either view) is no secret by itself; where names overlap ("Archer" inside
  "Archer Captain") the longer name is the one a line names. Cards the rules show to
  everyone while the action is taken (``engine.shown_by(action)``, a hymn sung) may be
  named even when they are out of sight again once it is done. Over a play-through, a name
  the viewer could see earlier stays known to it (``known``): a Ritual played face up and
  returned to hand may still be named as the source of its lasting bonus.

A ``Sight`` is computed once per viewer and state, so a random play-through renders each
view once per step for both checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .kernel import State


@dataclass(frozen=True)
class Sight:
    hidden: frozenset[str]  # the ids this viewer must not see
    strings: frozenset[str]  # every string of its view, keys included
    names: frozenset[str]  # every ``name`` of a dict in its view: things shown on the table


def viewers(state: State) -> list:
    """Every seat and the public projector: everyone but the GM."""
    return [*range(len(state.get("players", []))), None]


def sight(engine, state: State, seat) -> Sight:
    strings, names = _walk(engine.view(state, seat))
    return Sight(frozenset(engine.hidden_from(state, seat)), frozenset(strings), frozenset(names))


def sights(engine, state: State) -> dict:
    return {seat: sight(engine, state, seat) for seat in viewers(state)}


def hidden_ids_shown(seen: Sight) -> list[str]:
    return sorted(seen.hidden & seen.strings)


def names_leaked(then: Sight, now: Sight, names: dict[str, str], shown: frozenset[str] = frozenset(),
                 known: set[str] = frozenset()) -> list[str]:
    """Names of cards secret from this viewer (hidden in ``then`` and ``now``) in a string ``now`` gained;
    ``known``: names this viewer could already see earlier in the game."""
    secret = (then.hidden & now.hidden) - shown
    new_lines = now.strings - then.strings
    if not secret or not new_lines:
        return []
    candidates = {names[card_id] for card_id in secret if card_id in names} - known
    suspects = [line for line in new_lines if any(name in line for name in candidates)]
    if not suspects:
        return []
    seen = {name for card_id, name in names.items() if card_id not in secret} | then.names | now.names | known
    secret_names = candidates - seen
    if not secret_names:
        return []
    every_name = _pattern(secret_names | seen)  # the longest name wins where names overlap
    return sorted({match.group(0) for line in suspects for match in every_name.finditer(line)
                   if match.group(0) in secret_names})


def names_visible(seen: Sight, names: dict[str, str]) -> set[str]:
    """The names this viewer can see now: of every card not hidden from it, and shown on the table."""
    return {name for card_id, name in names.items() if card_id not in seen.hidden} | seen.names


def _pattern(names: set[str]) -> re.Pattern:
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


def strings_in(data) -> set[str]:
    """Every string in a JSON structure, keys included: where a hidden id would show."""
    return _walk(data)[0]


def shown_card_names(view) -> set[str]:
    """Every ``name`` of a dict in a view: a card shown face up is such a dict (with its id in
    hands and piles, without it in a resolution such as the Army's last skirmish)."""
    return _walk(view)[1]


def _walk(data) -> tuple[set[str], set[str]]:
    strings: set[str] = set()
    names: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings.add(item)
        elif isinstance(item, dict):
            strings.update(item)
            if isinstance(item.get("name"), str):
                names.add(item["name"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return strings, names
