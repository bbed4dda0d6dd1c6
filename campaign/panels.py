"""Sections that other apps add to the campaign home page.

``campaign`` imports neither ``tabletop`` nor ``armies``; they register panels here
(from their AppConfig.ready) and the home page renders whatever is registered.
A panel is a function ``(membership) -> (template_name, context) | None``.
"""

from __future__ import annotations

from collections.abc import Callable

Panel = Callable[[object], "tuple[str, dict] | None"]
_PANELS: list[Panel] = []


def register(panel: Panel) -> Panel:
    if panel not in _PANELS:
        _PANELS.append(panel)
    return panel


def render_for(membership) -> list[tuple[str, dict]]:
    return [result for panel in _PANELS if (result := panel(membership)) is not None]
