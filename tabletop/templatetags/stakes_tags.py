"""The GM's seat control says what happens to a staked member's fee before the seat changes hands (ruling S9)."""

from django import template

from ..services.stakes import stake_hand_over_warning

register = template.Library()


@register.simple_tag
def seat_stake_warning(stakes, control) -> str:
    """The sentence for ``control``'s seat (``presenters.seat_controls``) at a table with unpaid ``stakes``
    (``stake_summary``), or "" when the seat stakes nothing."""
    if not stakes or stakes["stake"].is_paid_out:
        return ""
    for row in stakes["rows"]:
        if row["seat"].index == control["seat"]:
            return stake_hand_over_warning(
                name=row["seat"].name, entry_fee=stakes["stake"].entry_fee, to_computer=not control["bot"]
            )
    return ""
