"""The titles Muster writes itself (a battle's table, a what-if) are stored in English and said in the reader's
language; a title a GM typed is shown as typed (tabletop/titles.py, issue 41)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from armies.models import Battle
from campaign import activity
from campaign.activity import line_said
from campaign.models import Activity
from tabletop.models import Table
from tabletop.services.forks import fork_title, table_fork
from tabletop.titles import battle_title, said

from tests.armies._battles import open_battle
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


def test_a_battles_title_is_stored_in_english_and_said_in_german():
    title = battle_title(3, "Lady Vey", "Lord Marr")
    assert title == "Battle #3: Lady Vey against Lord Marr"
    with translation.override("de"):
        assert said(title) == "Schlacht #3: Lady Vey gegen Lord Marr"
    with translation.override("en-gb"):
        assert said(title) == title


def test_a_what_if_of_a_battle_says_both_and_a_what_if_of_a_what_if_names_its_table_once():
    first = fork_title(battle_title(3, "Lady Vey", "Lord Marr"), 5)
    again = fork_title(first, 9)
    with translation.override("de"):
        assert said(first) == "Was-wäre-wenn: Schlacht #3: Lady Vey gegen Lord Marr ab Zug 5"
        assert said(again) == "Was-wäre-wenn: Schlacht #3: Lady Vey gegen Lord Marr ab Zug 9"
        shortened = fork_title("Battle #3: " + "x" * 150 + " against Lord Marr", 12)
        assert said(shortened).startswith("Was-wäre-wenn: Battle #3: xxx") and said(shortened).endswith("… ab Zug 12")


def test_a_translation_naming_a_value_the_title_lacks_shows_the_english_title(monkeypatch):
    title = battle_title(3, "Lady Vey", "Lord Marr")
    monkeypatch.setattr(activity, "gettext", lambda text: text.replace("against", "gegen"))
    assert said(title) == "Battle #3: Lady Vey gegen Lord Marr"  # said through the active language
    monkeypatch.setattr(activity, "gettext", lambda text: text.replace("%(defender)s", "%(loser)s"))
    assert said(title) == title


@pytest.mark.parametrize("typed", ["Friday duel", "Ann against the world", "What-if: the bridge holds",
                                   "Battle #x: A against B", "Battle #2: Ann against"])
def test_a_typed_title_is_shown_as_typed_in_every_language(typed):
    with translation.override("de"):
        assert said(typed) == typed


@pytest.fixture
def battle_table(world) -> Table:
    """The table of Battle #n: Lady Vey against Lord Marr, opened by the GM."""
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="steel")
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="aggressor", path="steel")
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Berserkers", strength=5, role="aggressor"))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Shieldwall", strength=3, role="savant"))
    return Table.objects.get(pk=Battle.objects.get(pk=open_battle(world, vey, marr).pk).table_id)


@pytest.mark.django_db
def test_a_battles_table_pages_and_its_what_if_show_the_title_in_german(client, world, battle_table):
    table = battle_table
    battle = Battle.objects.get(table_id=table.pk)
    assert table.title == f"Battle #{battle.pk}: Lady Vey against Lord Marr"  # stored in English
    german = f"Schlacht #{battle.pk}: Lady Vey gegen Lord Marr"
    client.force_login(world.gm.user)
    gm_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]), **GERMAN)
    assert gm_page.status_code == 200
    assert f"<h1>{german}</h1>" in gm_page.content.decode() and table.title not in gm_page.content.decode()
    home = client.get(reverse("campaign:detail", args=[world.campaign.slug]), **GERMAN)
    assert home.status_code == 200 and german in home.content.decode()

    fork = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    whatif = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, fork.pk]), **GERMAN)
    assert whatif.status_code == 200
    assert f"Was-wäre-wenn: {german} ab Zug 0" in whatif.content.decode()
    client.force_login(world.ann.user)
    seat = table.seats.get(index=0)
    phone = client.get(reverse("tabletop:seat_table", args=[seat.token]), **GERMAN)
    assert phone.status_code == 200 and german in phone.content.decode()


@pytest.mark.django_db
def test_an_activity_line_naming_a_battles_table_keeps_its_english_and_says_the_title_in_german(
    world, battle_table
):
    table, battle = battle_table, Battle.objects.get(table_id=battle_table.pk)
    fork = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    line = Activity.objects.get(kind=Activity.Kind.TABLE_FORK, target_id=fork.pk)
    assert f"forked {table.title} at move 0" in line.summary  # the English as before
    with translation.override("de"):
        assert f"Schlacht #{battle.pk}: Lady Vey gegen Lord Marr" in line_said(line)
