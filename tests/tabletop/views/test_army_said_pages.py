"""The pages outside the live region that name an Army move say it in the reader's language (issue 41): the GM's
what-if box (each move of the log by its label) and the coach's answer (the moves the computer would play)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape

from tabletop.engines.words import say_text
from tabletop.templatetags import words_tags

from tests.factories import army_table
from tests.tables import play_next

pytestmark = pytest.mark.django_db


def marked(text: str) -> str:
    """A stand-in language: every sentence said between guillemets."""
    return f"«{text}»"


def test_the_what_if_box_names_each_move_in_the_readers_language(client, world, monkeypatch):
    table = army_table(world.campaign, [world.ann, world.ben])
    for _ in range(3):
        table = play_next(table)
    monkeypatch.setattr(words_tags, "gettext", marked)
    client.force_login(world.gm.user)
    box = client.get(reverse("tabletop:table_whatif", args=[world.campaign.slug, table.pk])).content.decode()
    entries = [line for line in box.splitlines() if "Move " in line and " · " in line]
    assert len(entries) == 3 and all(" · «" in line for line in entries)


def test_the_coachs_moves_are_said_in_the_readers_language(monkeypatch):
    monkeypatch.setattr(words_tags, "gettext", marked)
    label = "Play Spearmen (Strength 3, Aggressor) on Offense"
    answer = render_to_string("tabletop/_coach_answer.html", {"moves": [{"label": label, "percent": 55}]})
    assert escape(say_text(label, marked)) in answer
