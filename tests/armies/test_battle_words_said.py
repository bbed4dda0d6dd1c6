"""A finished battle's page says the engine's English lines in the reader's language (issue 41): the result's
reason, each roll's label and the names of the modifiers in a roll's total, read back into their templates."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils.html import escape

from armies import luck_words
from armies.models import Battle
from tabletop.engines.words import say_text
from tabletop.models import Table
from tabletop.templatetags import words_tags

from tests.armies._battles import drive, open_battle
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


def marked(text: str) -> str:
    """A stand-in language: every sentence said between guillemets."""
    return f"«{text}»"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_result_and_the_luck_report_say_the_engines_lines(client, world, monkeypatch):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel")
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Berserkers", strength=5, role="aggressor"))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Shieldwall", strength=3, role="savant"))
    battle = open_battle(world, vey, marr, dice="physical")
    drive(
        Table.objects.get(pk=battle.table_id),
        dice=lambda label: 2 if "(Offense)" in label else 1,
        prefer=lambda legal: next((a for a in legal if a["type"] == "play" and "role" not in a), None),
    )
    battle = Battle.objects.get(pk=battle.pk)
    monkeypatch.setattr(words_tags, "gettext", marked)
    monkeypatch.setattr(luck_words, "gettext", marked)
    client.force_login(world.gm.user)
    html = client.get(reverse("armies:battle_result", args=(world.campaign.slug, battle.pk))).content.decode()
    assert escape(say_text(battle.result["reason"], marked)) in html
    assert "«Berserkers (Offense)»" in html and "«Shieldwall (Defense)»" in html
    assert "«Master of Arms: Aggressor» 1 = 8" in html
