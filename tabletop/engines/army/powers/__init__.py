"""The twenty commander powers (class = Role x Path), one module per row of the table.

* ``guardian``  -- Tactician, Battlemage, Oathbound, Shapeshifter, Adept
* ``healer``    -- Chirurgeon, Necromancer, Cleric, Animist, Mender
* ``aggressor`` -- Master of Arms, Evoker, Dervish, Scout, Mindblade
* ``savant``    -- Rogue, Illusionist, Chaplain, Shaman, Etherealist

``POWERS`` maps a power key (``"master_of_arms"``) to its object (see ``base.Power``
for the hooks). ``power_of(state, seat)`` is the power in force for a commander: a
Tactician's is the benefit they chose. "Commander effects that Add to a unit's
Strength do not trigger the Savant power" -- every power bonus is a commander bonus.
Each power's docstring quotes the rulebook and states its rulings
(docs/rulings.md).
"""

from __future__ import annotations

from ..common import benefit, event, move, name, owner
from .base import NO_POWER, POWERS, Power, register, uses


def power_of(state: dict, seat: int) -> Power:
    return POWERS.get(benefit(state, seat) or "", NO_POWER)


def protected_fate(state: dict, card_id: str, fate: str, cause: str) -> str:
    """The owner's power may soften a fate ("killed" -> "disabled" -> "exhausted")."""
    seat = owner(state, card_id)
    return power_of(state, seat).protect(state, seat, card_id, fate, cause)


def enemy_disable(state: dict, card_id: str, why: str) -> None:
    """An enemy effect Disables a card (the Oathbound's unit is only Exhausted)."""
    fate = protected_fate(state, card_id, "disabled", "enemy")
    move(state, card_id, fate)
    seat = owner(state, card_id)
    if fate == "disabled":
        event(state, f"{why}: {name(state, seat)}'s {state['cards'][card_id]['name']} is Disabled.")
    else:
        event(state, f"{why}: {name(state, seat)}'s {state['cards'][card_id]['name']} is oathbound "
                     f"and only Exhausted.")


from . import aggressor, guardian, healer, savant  # noqa: E402  (registers the powers)

__all__ = ["POWERS", "Power", "power_of", "protected_fate", "enemy_disable", "register", "uses",
           "guardian", "healer", "aggressor", "savant"]
