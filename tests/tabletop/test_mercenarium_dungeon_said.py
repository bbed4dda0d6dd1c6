"""A Mercenarium and a dungeon table's live region says every line the engine wrote in the reader's language (issue
41): the log, the status line, the moves' buttons (a lit Mercenarium square's name, a dungeon square's tap text),
and the dungeon's words for what the table waits for, a status effect and what a resource card does, each read
back by the ``said`` filter."""

from __future__ import annotations

import random
import re

import pytest
from django.utils.html import escape

from tabletop import presenters, push
from tabletop.engines.words import say_text
from tabletop.templatetags import words_tags

from tests.tables import play_random
from tests.tabletop._coach import open_game
from tests.tabletop._said import DUNGEON_CATALOG, marked

pytestmark = pytest.mark.django_db


def _mercenarium_texts(view: dict) -> list[str]:
    # an offering is made by picking cards, not by a button for each (ruling MC4)
    texts = [view["turn_text"], *view["events"]]
    texts += [choice["label"] for choice in view["choices"] if choice["type"] != "learn"]
    return texts + ([view["score"]["reason"]] if view["score"] else [])


def _dungeon_texts(view: dict) -> list[str]:
    texts = [*view["events"], *(choice["label"] for choice in [*view["choices"], *view["anytime"]])]
    texts += [view["decision"]["what"]] if view["decision"]["what"] else []
    texts += [square["tap_text"] for row in view["rows"] for square in row if square["tap"]]
    texts += [status for merc in view["mercs"] for status in merc["status"]]
    texts += [stack["does"] for stack in view["stacks"] if stack["does"]]
    texts += [view["score"]["reason"]] if view["score"] else []
    return [text for text in texts if text not in DUNGEON_CATALOG]  # an Ambush card's name, shown as it is


TEXTS = {"mercenarium": _mercenarium_texts, "dungeon": _dungeon_texts}
LIT_SQUARE = re.compile(r'class="merc-go-btn[^"]*"[^>]*aria-label="([^"]*)" title="([^"]*)">([^<]*)</button>')


@pytest.mark.parametrize("game", sorted(TEXTS))
def test_every_line_of_the_region_is_said_in_the_readers_language(world, monkeypatch, game):
    monkeypatch.setattr(words_tags, "gettext", marked)
    table, chooser, seen, lit = open_game(world, game), random.Random(5), 0, 0
    table.campaign = world.campaign
    for _ in range(10):
        for context in (
            presenters.gm_view_context(table, world.gm.pk),
            *(presenters.seat_context(seat, table) for seat in table.seats.all()),
        ):
            region = push.shared_render(push.TABLE_REGION, context)
            for text in TEXTS[game](context["view"]):
                said = say_text(text, marked)
                assert said != text and str(escape(said)) in region, text
                seen += 1
            for name, title, shown in LIT_SQUARE.findall(region):  # the verb shown, then the label said
                assert name == title and name.startswith(f"{shown}: «"), name
                lit += 1
        if table.status != "active":
            break
        table = play_random(table, 4, chooser)
    assert seen > 100 and (lit > 10 or game != "mercenarium")
