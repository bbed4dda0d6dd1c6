"""The armies section of the campaign home page."""

from .reports import commander_summaries


def armies_panel(membership):
    return "armies/_panel.html", {"commanders": commander_summaries(membership), "is_gm": membership.is_gm}
