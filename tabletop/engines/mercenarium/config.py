"""Mercenarium configs: players (2-4) and optionally the card and hymn catalogs."""

from __future__ import annotations

from .cards import STARTER_CARDS, STARTER_HYMNS

MIN_PLAYERS, MAX_PLAYERS = 2, 4
NAMES = ["Ann", "Ben", "Cid", "Dee"]


def starter_config(players) -> dict:
    return {"players": list(players), "cards": [dict(c) for c in STARTER_CARDS],
            "hymns": [dict(h) for h in STARTER_HYMNS]}


def random_config(rng) -> dict:
    return starter_config(NAMES[: rng.randint(MIN_PLAYERS, MAX_PLAYERS)])
