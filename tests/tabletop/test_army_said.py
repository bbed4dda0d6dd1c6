"""An Army battle's live region says every line the engine wrote in the reader's language (issue 41): the log
("what happened", the partial every game shares), the status line, the moves' buttons and their titles, the dice
asked for, the Strength modifiers, the GM's overrides and the result, each read back by the ``said`` filter."""

from __future__ import annotations

import random

import pytest
from django.utils.html import escape

from tabletop import presenters, push
from tabletop.engines.words import say_text
from tabletop.templatetags import words_tags

from tests.tables import play_random
from tests.tabletop._coach import open_game
from tests.tabletop._said import marked

pytestmark = pytest.mark.django_db


def _texts(view: dict) -> list[str]:
    texts = [view["turn_text"], *view["events"], *(choice["label"] for choice in view["choices"])]
    texts += [die["label"] for die in view["dice_needed"]]
    # the end of the battle is offered in the template's own words (a menu of winners)
    texts += [override["label"] for override in view.get("overrides", []) if override["type"] != "gm_end_battle"]
    if view["result"]:
        texts.append(view["result"]["reason"])
    return texts


def test_every_line_of_the_army_region_is_said_in_the_readers_language(world, monkeypatch):
    monkeypatch.setattr(words_tags, "gettext", marked)
    table, chooser, seen = open_game(world, "army"), random.Random(5), 0
    table.campaign = world.campaign
    for _ in range(12):
        for context in (
            presenters.gm_view_context(table, world.gm.pk),
            *(presenters.seat_context(seat, table) for seat in table.seats.all()),
        ):
            region = push.shared_render(push.TABLE_REGION, context)
            for text in _texts(context["view"]):
                said = say_text(text, marked)
                assert said != text and str(escape(said)) in region, text
                seen += 1
        if table.status != "active":
            break
        table = play_random(table, 3, chooser)
    assert seen > 100


def test_the_move_an_undo_names_is_said_in_the_readers_language(world, monkeypatch):
    monkeypatch.setattr(words_tags, "gettext", marked)
    table = open_game(world, "army")
    table.campaign = world.campaign
    move = "Play Spearmen (Strength 3, Aggressor) on Offense"
    extra = {"undo_notes": [move], "undo_confirm": {"seq": 3, "who": "Ann", "what": move}}
    region = push.shared_render(push.TABLE_REGION, {**presenters.gm_view_context(table, world.gm.pk), **extra})
    assert region.count(escape(say_text(move, marked))) == 2
