"""Small inline SVG charts (no JavaScript, no CDN): the treasury of each commander over the days."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from django.utils.translation import gettext as _

PALETTE = ["#2b6cb0", "#c05621", "#2f855a", "#805ad5", "#b83280", "#2c7a7b", "#975a16", "#4a5568"]


@dataclass(frozen=True)
class Series:
    name: str
    points: list[tuple[int, int]]  # (day, balance at the end of that day)


def balance_series(entries: list[tuple[int, int]], last_day: int) -> list[tuple[int, int]]:
    """Running balance at the end of every day from 1 to ``last_day``, from (day, amount) entries."""
    per_day: dict[int, int] = {}
    for day, amount in entries:
        per_day[day] = per_day.get(day, 0) + amount
    balance, points = 0, []
    for day in range(1, last_day + 1):
        balance += per_day.get(day, 0)
        points.append((day, balance))
    return points


def line_chart(series: list[Series], width: int = 640, height: int = 240) -> str:
    """An accessible SVG line chart; an empty string when there is nothing to draw."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return ""
    pad_left, pad_right, pad_top, pad_bottom = 48, 12, 12, 28
    days = [day for s in drawn for day, _ in s.points]
    values = [value for s in drawn for _, value in s.points] + [0]
    first, last = min(days), max(days)
    low, high = min(values), max(values)
    if high == low:
        high = low + 1
    plot_w, plot_h = width - pad_left - pad_right, height - pad_top - pad_bottom

    def x(day: int) -> float:
        return pad_left + (plot_w * (day - first) / (last - first) if last > first else plot_w / 2)

    def y(value: int) -> float:
        return pad_top + plot_h * (high - value) / (high - low)

    chart_label = escape(_("Treasury by day"))
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{chart_label}" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{pad_left}" y1="{y(0):.1f}" x2="{width - pad_right}" y2="{y(0):.1f}" stroke="#bbb"/>',
        f'<text x="{pad_left - 6}" y="{y(high) + 4:.1f}" text-anchor="end" font-size="11">{high}</text>',
        f'<text x="{pad_left - 6}" y="{y(low) + 4:.1f}" text-anchor="end" font-size="11">{low}</text>',
    ]
    labels = [(first, "start"), (last, "end")] if last > first else [(first, "middle")]
    for day, anchor in labels:
        said = escape(_("day %(day)s") % {"day": day})
        parts.append(f'<text x="{x(day):.1f}" y="{height - 8}" text-anchor="{anchor}" font-size="11">{said}</text>')
    for index, s in enumerate(drawn):
        colour = PALETTE[index % len(PALETTE)]
        path = " ".join(f"{x(day):.1f},{y(value):.1f}" for day, value in s.points)
        title = f"<title>{escape(s.name)}</title>"
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}">{title}</polyline>')
        day, value = s.points[-1]
        parts.append(f'<circle cx="{x(day):.1f}" cy="{y(value):.1f}" r="3" fill="{colour}"/>')
    parts.append("</svg>")
    # Each key is a small SVG of its line's colour: the site's CSP refuses inline styles, so a styled span
    # showed no colour at all; an SVG fill is an attribute, not a style.
    legend = "".join(
        f'<li><svg class="swatch" viewBox="0 0 10 10" width="12" height="12" aria-hidden="true">'
        f'<rect width="10" height="10" rx="2" fill="{PALETTE[i % len(PALETTE)]}"/></svg>{escape(s.name)}: '
        f"{s.points[-1][1]}</li>"
        for i, s in enumerate(drawn)
    )
    return "".join(parts) + f'<ul class="legend">{legend}</ul>'
