"""Board shapes of Gridaris: cells, adjacency, labels and bonus-shape candidates.

Every map has 16 battlefields laid on a small grid of ``rows`` x ``cols`` in which
some positions may be holes. A battlefield is keyed ``"r,c"`` (0-based) and labelled
column letter + row number (``"0,1"`` is ``B1``).

* standard -- the 4x4 grid of two boards side by side.
* earthquake -- a 2x8 grid.
* tremor -- the second board shifted over one quadrant (a 2x2 block, two battlefields):
  rows 0-1 cols 0-3 and rows 2-3 cols 2-5, four whole quadrants in a Z on a 4x6 grid
  (ruling G28).
* two_islands -- two 2x4 islands, rows 0-1 and rows 3-4 of a 5x4 grid; row 2 is sea,
  so no battlefield on one island is adjacent to one on the other.

Adjacency is orthogonal between existing battlefields. Bonus shapes must lie entirely
on existing battlefields: a line of 4 is any four consecutive battlefields in a row
("row") or a column ("column"), a diagonal is four consecutive battlefields on a
diagonal, a square is 2x2 and a rectangle is 2x3 in either orientation (rulings in
docs/rulings.md).
"""

from __future__ import annotations

from functools import cache

from ..words import phrase


def _cells(rows: int, cols: int, *blocks: tuple[int, int, int, int]) -> frozenset[tuple[int, int]]:
    return frozenset(
        (r, c) for top, left, height, width in blocks
        for r in range(top, top + height) for c in range(left, left + width)
    )


MAPS: dict[str, dict] = {
    "standard": {"name": phrase("Standard 4x4"), "rows": 4, "cols": 4, "cells": _cells(4, 4, (0, 0, 4, 4))},
    "earthquake": {"name": phrase("Earthquake 2x8"), "rows": 2, "cols": 8, "cells": _cells(2, 8, (0, 0, 2, 8))},
    "tremor": {"name": phrase("Tremor S/Z"), "rows": 4, "cols": 6,
               "cells": _cells(4, 6, (0, 0, 2, 4), (2, 2, 2, 4))},
    "two_islands": {"name": phrase("Two Islands"), "rows": 5, "cols": 4,
                    "cells": _cells(5, 4, (0, 0, 2, 4), (3, 0, 2, 4))},
}

# (row step, col step, my edge index, the neighbour's facing edge index); edges are top, right, bottom, left
DIRECTIONS = ((-1, 0, 0, 2), (0, 1, 1, 3), (1, 0, 2, 0), (0, -1, 3, 1))

SHAPE_POINTS = {"square": 3, "row": 5, "column": 5, "rectangle": 6, "diagonal": 10}
# Within one family a battlefield counts at most once (see scoring.py).
SHAPE_FAMILY = {"row": "lines", "column": "lines", "square": "rectangles",
                "rectangle": "rectangles", "diagonal": "diagonals"}


def key(r: int, c: int) -> str:
    return f"{r},{c}"


def parse_key(text) -> tuple[int, int] | None:
    """``"1,2"`` -> (1, 2); None when the text is not two integers."""
    if not isinstance(text, str):
        return None
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def label(cell_key: str) -> str:
    parsed = parse_key(cell_key)
    if parsed is None:
        return str(cell_key)
    r, c = parsed
    if 0 <= c < 26:
        return f"{chr(ord('A') + c)}{r + 1}"
    return cell_key


def cell_keys(map_key: str) -> list[str]:
    """The battlefields of a map in reading order."""
    return [key(r, c) for r, c in sorted(MAPS[map_key]["cells"])]


def on_map(map_key: str, cell_key: str) -> bool:
    parsed = parse_key(cell_key)
    return parsed is not None and parsed in MAPS[map_key]["cells"]


def neighbours(map_key: str, cell_key: str) -> list[tuple[str, int, int]]:
    """(neighbour key, my facing edge index, its facing edge index) for each adjacent battlefield."""
    r, c = parse_key(cell_key)
    cells = MAPS[map_key]["cells"]
    return [
        (key(r + dr, c + dc), mine, theirs)
        for dr, dc, mine, theirs in DIRECTIONS
        if (r + dr, c + dc) in cells
    ]


@cache
def bonus_shapes(map_key: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every (kind, cells) bonus shape that fits on the map, in a fixed order."""
    cells = MAPS[map_key]["cells"]
    rows, cols = MAPS[map_key]["rows"], MAPS[map_key]["cols"]
    found: list[tuple[str, tuple[str, ...]]] = []

    def add(kind: str, points: list[tuple[int, int]]) -> None:
        if all(point in cells for point in points):
            found.append((kind, tuple(key(r, c) for r, c in points)))

    for r in range(rows):
        for c in range(cols):
            add("row", [(r, c + i) for i in range(4)])
            add("column", [(r + i, c) for i in range(4)])
            add("diagonal", [(r + i, c + i) for i in range(4)])
            add("diagonal", [(r + i, c - i) for i in range(4)])
            add("square", [(r + i, c + j) for i in range(2) for j in range(2)])
            add("rectangle", [(r + i, c + j) for i in range(2) for j in range(3)])
            add("rectangle", [(r + i, c + j) for i in range(3) for j in range(2)])
    return tuple(found)
