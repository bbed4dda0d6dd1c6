"""Template filters for the live table regions of every game.

``action_json`` turns a legal action (as a game view lists it, with its ``label``)
into the JSON a button posts as ``action``: the generic views then apply exactly the
action the engine offered, with its types intact.
"""

from __future__ import annotations

import hashlib
import json

from django import template
from django.utils.formats import get_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()

# On every button the GM's page has for a computer's seat: disabled, pointing at the sentence saying why.
LOCKED = ' disabled aria-describedby="computer-lock"'


@register.filter
def action_json(action: dict) -> str:
    """The action without its label, as compact JSON (autoescaped in the attribute)."""
    return json.dumps({key: value for key, value in action.items() if key != "label"}, separators=(",", ":"))


@register.simple_tag(takes_context=True)
def computer_lock(context, seat) -> str:
    """``disabled`` (and the reason's id) on the GM's button for a seat the computer plays, else nothing:
    one mark for every game's buttons (``locked_seats``: tabletop/presenters.py gm_context; ruling BOT32).
    The server refuses such a post anyway."""
    return mark_safe(LOCKED) if seat in context.get("locked_seats", ()) else ""


@register.filter
def action_key(action: dict) -> str:
    """A short stable key of an action, to give each button its own client action id."""
    return hashlib.sha1(action_json(action).encode()).hexdigest()[:10]


@register.filter
def of_type(actions: list[dict], kinds: str) -> list[dict]:
    """The actions whose ``type`` is one of the comma-separated ``kinds``."""
    wanted = set(kinds.split(","))
    return [action for action in actions if action.get("type") in wanted]


@register.filter
def not_of_type(actions: list[dict], kinds: str) -> list[dict]:
    wanted = set(kinds.split(","))
    return [action for action in actions if action.get("type") not in wanted]


@register.filter
def for_card(actions: list[dict], card_id: str) -> list[dict]:
    """The actions that play or use this card."""
    return [action for action in actions if action.get("card") == card_id]


@register.filter
def percent(probability) -> str:
    """0.6774 -> "67.7%"; exact 0 and 1 read "0%" and "100%". In the reader's language (issue 41): "67,7 %"."""
    value = float(probability) * 100
    number = f"{value:.0f}" if value in (0, 100) else f"{value:.1f}"
    # Translators: a chance in percent; the number is already written in the language's way ("67,7").
    return _("%(number)s%%") % {"number": number.replace(".", get_format("DECIMAL_SEPARATOR"))}


@register.filter
def signed(number: int) -> str:
    return f"{int(number):+d}"


@register.filter
def bars(distribution: dict) -> list[dict]:
    """``{"-1": {"p": 0.13, ...}, ...}`` as rows for a bar list, each bar scaled to the largest."""
    rows = sorted((int(key), float(entry["p"])) for key, entry in distribution.items())
    top = max((p for _, p in rows), default=0) or 1
    return [{"value": value, "p": p, "width": round(100 * p / top, 1)} for value, p in rows]
