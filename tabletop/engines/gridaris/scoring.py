"""Final scoring of Gridaris: base score, bonus shapes and tie-breaks.

* Base score: the Star Rank of every uncovered Mercenary a player controls (cards
  covered in the Reinforcement Phase no longer count).
* Bonus shapes over the battlefields a player controls: 2x2 square 3, row or column
  of 4 = 5, 2x3 rectangle (either way round) 6, diagonal of 4 = 10.
* "Each Mercenary may count to each of the bonus shapes once per shape" (ruling):
  the shapes form three families -- lines (rows and columns), rectangles (2x2 squares
  and 2x3 rectangles, since a 2x3 holds 2x2s) and diagonals. Within a family a
  battlefield counts at most once, so each family scores the best set of
  non-overlapping shapes (most points; among equals the first found in reading
  order). The rulebook's 2x4 block scores two rows (10) + one 2x3 (6) = 16.
* Winner: highest total; tie -> most battlefields; then most high-ranking Mercenaries
  (the counts of controlled Mercenaries by Star Rank compared from the highest rank
  down); still tied -> a shared win (rulings). Players out of the game score
  nothing and cannot win.

Rulings are recorded in docs/rulings.md.
"""

from __future__ import annotations

from ..words import phrase
from . import maps

SHARED_WIN = phrase("%(names)s share the win with %(points)d points, %(fields)d battlefields and the same ranks.")
WINS = phrase("%(winner)s wins with %(points)d points.")
WINS_TIE_ON_FIELDS = phrase("%(name)s wins the tie on %(points)d points by controlling %(fields)d battlefields.")
WINS_TIE_ON_RANKS = phrase("%(name)s wins the tie on %(points)d points and %(fields)d battlefields with more "
                           "high-ranking Mercenaries.")

MAX_STARS = 9


def _best_packing(shapes: list[tuple[str, tuple[str, ...], int]]) -> list[int]:
    """Indices of non-overlapping shapes with the most points (branch and bound)."""
    best: list = [0, []]
    suffix = [0] * (len(shapes) + 1)
    for index in range(len(shapes) - 1, -1, -1):
        suffix[index] = suffix[index + 1] + shapes[index][2]

    def search(index: int, used: frozenset, points: int, chosen: list[int]) -> None:
        if points > best[0]:
            best[0], best[1] = points, list(chosen)
        if index == len(shapes) or points + suffix[index] <= best[0]:
            return
        cells = shapes[index][1]
        if used.isdisjoint(cells):
            chosen.append(index)
            search(index + 1, used | frozenset(cells), points + shapes[index][2], chosen)
            chosen.pop()
        search(index + 1, used, points, chosen)

    search(0, frozenset(), 0, [])
    return best[1]


def bonuses(map_key: str, owned: set[str]) -> list[dict]:
    """The bonus shapes scored by a player controlling the battlefields ``owned``."""
    found: list[dict] = []
    for family in ("lines", "rectangles", "diagonals"):
        candidates = [
            (kind, cells, maps.SHAPE_POINTS[kind])
            for kind, cells in maps.bonus_shapes(map_key)
            if maps.SHAPE_FAMILY[kind] == family and owned.issuperset(cells)
        ]
        for index in _best_packing(candidates):
            kind, cells, points = candidates[index]
            found.append({"kind": kind, "cells": list(cells), "points": points})
    return found


def score_row(state: dict, seat: int) -> dict:
    owned = {cell_key for cell_key, cell in state["board"].items() if cell["owner"] == seat}
    out = state["out"][seat]
    stars = [state["cards"][state["board"][cell_key]["stack"][-1]]["stars"] for cell_key in sorted(owned)]
    base = 0 if out else sum(stars)
    found = [] if out else bonuses(state["map"], owned)
    return {
        "seat": seat,
        "name": state["players"][seat],
        "base": base,
        "bonuses": found,
        "total": base + sum(bonus["points"] for bonus in found),
        "battlefields": len(owned),
        "ranks": sorted(stars, reverse=True),
        "out": out,
    }


def _rank_key(row: dict) -> tuple:
    """Sort key, best first: in the game, total, battlefields, then counts by Star Rank high to low."""
    by_rank = tuple(-row["ranks"].count(rank) for rank in range(MAX_STARS, 0, -1))
    return (row["out"], -row["total"], -row["battlefields"], by_rank)


def final_result(state: dict) -> dict:
    """Score rows sorted best first, the winners and a sentence saying why."""
    rows = sorted((score_row(state, seat) for seat in range(len(state["players"]))),
                  key=lambda row: (_rank_key(row), row["seat"]))
    best = _rank_key(rows[0])
    winners = [row["seat"] for row in rows if _rank_key(row) == best]
    rank = 0
    for position, row in enumerate(rows):
        if position == 0 or _rank_key(row) != _rank_key(rows[position - 1]):
            rank = position + 1
        row["rank"] = rank
    return {"rows": rows, "winners": winners, "reason": _reason(rows, winners)}


def _reason(rows: list[dict], winners: list[int]) -> str:
    names = [row["name"] for row in rows if row["seat"] in winners]
    first = rows[0]
    contenders = [row for row in rows if not row["out"] and row["total"] == first["total"]]
    values = {"name": names[0], "winner": names[0], "points": first["total"], "fields": first["battlefields"]}
    if len(winners) > 1:
        return SHARED_WIN % {**values, "names": " and ".join(names)}
    if len(contenders) == 1:
        return WINS % values
    same_fields = [row for row in contenders if row["battlefields"] == first["battlefields"]]
    if len(same_fields) == 1:
        return WINS_TIE_ON_FIELDS % values
    return WINS_TIE_ON_RANKS % values
