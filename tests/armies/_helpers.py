"""Helpers shared by the army tests (CONVENTIONS 16b: helpers live here, never in another test module)."""

import re
from html import unescape


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
