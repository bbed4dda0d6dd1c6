"""Every English line Mercenarium and the dungeon game write (log lines, status lines, the choices' labels) is read
back into the template it was written from (issue 41): said in English it is the line itself, so the page can say
each of them in the reader's language."""

from __future__ import annotations

from itertools import islice

import pytest

from tabletop.engines import ENGINES
from tabletop.engines.dungeon import lines as dungeon_lines
from tabletop.engines.kernel import GM
from tabletop.engines.mercenarium import cards as merc_cards
from tabletop.engines.mercenarium import lines as merc_lines
from tabletop.engines.words import _PLACEHOLDER, Words, english, read, say_text

from tests.tabletop._said import DUNGEON_CATALOG
from tests.tabletop.engines.random_play import random_states

GAMES = 15  # make test; make soak reads the lines of SOAK_GAMES
SOAK_GAMES = 120
MAX_STEPS = 400


def _mercenarium_texts(view: dict) -> list[str]:
    texts = [view["turn_text"], *view["events"]]
    texts += [choice["label"] for choice in view["choices"]]
    texts += [go["choice"]["label"] for row in view["grid"] for cell in row for go in cell["go"]]
    texts += [card["short"] for card in (view["learn"] or {}).get("cards", []) if card.get("capture")]
    if view["score"]:
        texts.append(view["score"]["reason"])
    return texts


def _dungeon_texts(view: dict) -> list[str]:
    texts = [view["turn_text"], view["decision"]["what"], *view["events"]]
    texts += [choice["label"] for choice in [*view["choices"], *view["anytime"]]]
    for row in view["rows"]:
        for square in row:
            texts += [square.get("tap_text", ""), *((square["piece"] or {}).get("status") or [])]
    texts += [status for merc in view["mercs"] for status in merc["status"]]
    texts += [stack["does"] for stack in view["stacks"]]
    if view["score"]:
        texts.append(view["score"]["reason"])
    return [text for text in texts if text and text not in DUNGEON_CATALOG]


# An Ambush card's name is a log line of its own, a card's own text what its stack does (catalog data, shown as is).
TEXTS = {"mercenarium": _mercenarium_texts, "dungeon": _dungeon_texts}


def _lines(game: str, games: int) -> set[str]:
    """Every text the views of ``games`` seeded random games show, to each seat, the GM and the projector."""
    engine, lines = ENGINES[game], set()
    for seed in range(games):
        for state in islice(random_states(engine, seed), MAX_STEPS):
            for seat in [*range(len(state["players"])), GM, None]:
                lines.update(TEXTS[game](engine.view(state, seat)))
    return lines


@pytest.mark.parametrize("games", [GAMES, pytest.param(SOAK_GAMES, marks=pytest.mark.soak)])
@pytest.mark.parametrize("game", sorted(TEXTS))
def test_every_line_is_read_back_into_a_template_that_says_it_again(game, games):
    lines = _lines(game, games)
    assert len(lines) > 100
    assert [line for line in sorted(lines) if not _said_whole(read(line)) or say_text(line, english) != line] == []


def _said_whole(words) -> bool:
    """A phrase of the book whose nested phrases (its ``..._words`` values) are phrases of the book too."""
    return isinstance(words, Words) and all(
        _said_whole(value) for key, value in words.params.items() if key.endswith("_words")
    )


def test_a_mercenarium_card_or_hymn_name_is_never_read_as_a_sentence():
    """Card and hymn names stand inside lines as they are (catalog data): none may be taken for a phrase."""
    names = [card["name"] for card in merc_cards.STARTER_CARDS] + [hymn["name"] for hymn in merc_cards.STARTER_HYMNS]
    assert [name for name in names if read(name) is not None] == []


def test_a_hymns_target_is_said_inside_its_label():
    words = read("Sing IV. Leap: the Lord of Souls at 5,3 to 3,3")
    assert words.params["hymn"] == "IV. Leap"
    assert words.params["target_words"].params == {"card": "Lord of Souls", "cell": "5,3", "to": "3,3"}


SAMPLE_WORDS = "Draw a card"


def _filled(template: str) -> str:
    """``template`` with a value of each kind: a number, a nested phrase, a name with words of its own."""
    values = {}
    for match in _PLACEHOLDER.finditer(template):
        if match.group(0) != "%%":
            key, kind = match.group(1), match.group(2)
            values[key] = 3 if kind == "d" else SAMPLE_WORDS if key.endswith("_words") else f"Queen of {key}"
    return template % values


@pytest.mark.parametrize("module", [merc_lines, dungeon_lines], ids=lambda module: module.__name__)
def test_every_template_a_game_names_is_read_back_as_itself(module):
    """Lines no random game wrote (a rare end, a hymn's rare turn) are read back too: no two templates clash."""
    templates = [value for name, value in vars(module).items() if name.isupper() and isinstance(value, str)]
    assert len(templates) > 20
    misread = [t for t in templates if (words := read(_filled(t))) is None or words.message != t]
    assert misread == []
