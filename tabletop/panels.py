"""The tables section of the campaign home page."""

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
