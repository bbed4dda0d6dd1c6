"""What the engine reads from a hymn's ``effect``, checked before a catalog is imported or a table set up.

An effect is ``{"primitive": one of PRIMITIVES, ...its numbers}``, optionally with a
``singularity`` effect (one level, no further nesting) used while the Singularity lasts.
"""

from __future__ import annotations

from ..shapes import Kind, choice, field_problems, whole
from .cards import PRIMITIVES

EFFECT_FIELDS = {
    "primitive": choice(*PRIMITIVES),
    "count": whole(0, 20),
    "hymns": whole(0, 15),
    "whose": choice("own", "enemy"),
    "min_value": whole(2, 15),
    "max_value": whole(2, 15),
    "distance": whole(1, 6),
    "die": whole(1, 15),
}
SINGULARITY = Kind("an effect object (a primitive and its numbers)",
                   lambda value: not field_problems(value, EFFECT_FIELDS, ("primitive",)))


def effect_problems(effect) -> list[str]:
    """Why the engine cannot use this hymn effect (empty when it can), each a short phrase."""
    return field_problems(effect, {**EFFECT_FIELDS, "singularity": SINGULARITY}, ("primitive",), what="effect")
