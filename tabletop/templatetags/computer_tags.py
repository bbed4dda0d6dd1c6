"""The computer at the table in templates: the bound the GM is told (issue 22, ruling BOT33)."""

from __future__ import annotations

from django import template

from ..computer.watchdog import hand_back_after

register = template.Library()


@register.simple_tag
def computer_hand_back(strength: str) -> int:
    """Whole seconds after which a computer seat of ``strength`` that has not moved is a person's again."""
    return hand_back_after(strength)
