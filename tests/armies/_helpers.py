"""Helpers shared by the army tests (CONVENTIONS 16b: helpers live here, never in another test module)."""

import re
from html import unescape

from tabletop.engines import get_engine
from tabletop.engines.army.choices import dice_needed
from tabletop.engines.kernel import GM
from tabletop.services.tables import table_play


def form_as_shown(html: str, action: str) -> dict:
    """The hidden fields of the form on ``html`` posting to ``action``: what a tap on its button sends."""
    match = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>(.*?)</form>', html, re.DOTALL)
    assert match, f"no form posts to {action}"
    fields = {}
    for tag in re.findall(r"<input[^>]*>", match.group(1)):
        name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and 'type="hidden"' in tag and name.group(1) != "csrfmiddlewaretoken":
            fields[name.group(1)] = unescape(value.group(1)) if value else ""
    return fields


def play_to_the_end(table, *, dice=lambda label: 6 if "(Offense)" in label else 1, limit=400):
    """An army table played to its end: whoever decides takes their first legal action; the GM enters
    ``dice(label)`` at a physical-dice table. The table as it finished."""
    engine = get_engine("army")
    for _ in range(limit):
        if table.is_finished:
            return table
        seat = engine.to_act(table.state)[0]
        if seat == GM:
            action = {"type": "roll", "values": [dice(need["label"]) for need in dice_needed(table.state)]}
        else:
            legal = [a for a in engine.legal_actions(table.state) if a["seat"] == seat]
            action = {k: v for k, v in legal[0].items() if k != "seat"}
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    raise AssertionError("The battle did not end.")
