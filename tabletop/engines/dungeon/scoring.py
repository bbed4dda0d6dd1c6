"""The end of the game: MVPs, the EXP bonus, the Minus Health penalty, who wins."""

from __future__ import annotations

from .board import code, coop, event


def mvps(state, merc) -> int:
    """The MVPs of the monster cards the mercenary owns (the computer's heuristic counts them at every leaf)."""
    cards, total = state["cards"], 0
    for pile in ("deck", "hand", "discard", "acquired", "defence"):
        for c in merc[pile]:
            entry = cards[code(c)]
            if entry["kind"] == "monster":
                total += entry["stats"].get("mvp", 0)
    return total


def merc_score(state, merc) -> dict:
    """MVPs of its monster cards, +1 per 5 EXP, −1 per point needed to climb from Minus Health to 1."""
    monsters = mvps(state, merc)
    bonus = merc["exp"] // 5
    penalty = 1 - merc["health"] if merc["health"] < 1 else 0
    return {"name": merc["name"], "seat": merc["owner"], "mvp": monsters, "exp_bonus": bonus,
            "minus": penalty, "total": monsters + bonus - penalty, "health": merc["health"]}


def finish(state, how, reason) -> None:
    rows = [merc_score(state, merc) for merc in state["mercs"]]
    heroes = sorted({merc["owner"] for merc in state["mercs"]})
    if state["dm"] is not None:
        winners = heroes if how == "won" else [state["dm"]]
    elif coop(state):
        winners = heroes if how == "won" else []
    elif state["variant"] == "pairs":
        totals = {s: (sum(r["total"] for r in rows if r["seat"] == s),
                      sum(r["health"] for r in rows if r["seat"] == s)) for s in heroes}
        best = max(totals.values())
        winners = [s for s in heroes if totals[s] == best]
    else:
        best = max((r["total"], r["health"]) for r in rows)
        winners = sorted({r["seat"] for r in rows if (r["total"], r["health"]) == best})
    state["result"] = {"how": how, "reason": reason, "rows": rows, "winners": winners,
                       "winning_mercs": [i for i, r in enumerate(rows) if r["seat"] in winners]}
    state["phase"] = "over"
    state["pending"] = None
    event(state, reason)
