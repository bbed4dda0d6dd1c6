"""What the tests of the engines' lines said in a reader's language share (issue 41): a stand-in language and
the dungeon's starter catalog texts (card names and texts, which stay as the catalog has them)."""

from __future__ import annotations

from tabletop.engines.dungeon import cards as dungeon_cards


def marked(text: str) -> str:
    """A stand-in language: every template of the book said between guillemets."""
    return f"«{text}»"


DUNGEON_CATALOG = {text for card in dungeon_cards.starter_cards() for text in (card["name"], card["text"])}
