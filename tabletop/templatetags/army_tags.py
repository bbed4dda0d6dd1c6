"""Template filters of the Army table (templates/tabletop/games/army.html and its fragments)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

SMALL_WORDS = {"of", "the", "and"}
DICE_TEXT = {"d6": _("Die (d6)"), "best2": _("Dice (2d6, best kept)"), "none": _("No dice (Equipment)")}


@register.filter
def role_title(role: str) -> str:
    """ "master_of_arms" -> "Master of Arms"; "aggressor" -> "Aggressor"."""
    words = str(role).split("_")
    return " ".join(word if word in SMALL_WORDS and n else word.capitalize() for n, word in enumerate(words))


@register.filter
def dice_text(mode: str) -> str:
    return str(DICE_TEXT.get(mode, mode))


@register.filter
def halves(count: int) -> str:
    """A count of halves as a number a person reads: 3 -> "1½"."""
    whole, half = divmod(int(count), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"
