"""The tables section of the campaign home page, and its part of a player's page's live key."""

import hashlib

from . import selectors
from .forms import TABLE_FORMS
from .models import Table


def tables_panel(membership):
    if membership.is_gm:
        tables = selectors.campaign_tables(membership.campaign)
        return "tabletop/_gm_tables_panel.html", {
            "tables": tables,
            "games": [(g, Table.Game(g).label) for g in TABLE_FORMS],
        }
    return "tabletop/_player_tables_panel.html", {"seats": selectors.seats_of(membership)}


def tables_key(membership) -> str:
    """What the player's tables panel shows that a push announces (campaign/live.py): which tables the
    member sits at and how each stands. One query."""
    seats = selectors.seats_of(membership).values_list("table_id", "table__status")
    listed = ",".join(f"{table_id}:{status}" for table_id, status in seats)
    return "t" + hashlib.blake2s(listed.encode(), digest_size=6).hexdigest()
