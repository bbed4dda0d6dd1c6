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

from . import aggressor, guardian, healer, savant  # registers the powers
from .base import POWERS, Power, enemy_disable, power_of, protected_fate, register, uses

__all__ = ["POWERS", "Power", "power_of", "protected_fate", "enemy_disable", "register", "uses",
           "guardian", "healer", "aggressor", "savant"]
